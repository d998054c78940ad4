// `tessera file …` and `tessera job …` against a real server process: upload, a job into two languages,
// its analysis table, delivery, export and the downloaded zip.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readZip } from '../src/formats/docx/zip-package.ts';
import { type Run, runTessera, waitForListening } from './helpers/process.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-cli-jobs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function ok(run: Run): Promise<string> {
  assert.equal(await run.exit, 0, run.stderr());
  return run.stdout();
}

test('file and job commands through the API', async () => {
  const key = 'cli-jobs-admin-key-0123456789abcdefghijk';
  const server = runTessera(['serve'], {
    TESSERA_DATA_DIR: join(dir, 'data'),
    TESSERA_PORT: '0',
    TESSERA_API_KEY: key,
  });
  try {
    const url = await waitForListening(server);
    const env = { TESSERA_URL: url, TESSERA_API_KEY: key };
    const tessera = (...args: string[]) => ok(runTessera(args, env));
    const de = (await tessera('memory', 'create', 'de', '--from', 'en', '--to', 'de')).split('\t')[0];
    const fr = (await tessera('memory', 'create', 'fr', '--from', 'en', '--to', 'fr')).split('\t')[0];
    const tmx = join(dir, 'de.tmx');
    writeFileSync(
      tmx,
      `<?xml version="1.0"?><tmx version="1.4"><header srclang="en"/><body>
<tu><tuv xml:lang="en"><seg>Save the file.</seg></tuv><tuv xml:lang="de"><seg>Speichern Sie die Datei.</seg></tuv></tu>
</body></tmx>`,
    );
    await tessera('memory', 'import', de, tmx);

    const source = join(dir, 'guide.txt');
    writeFileSync(source, 'Save the file.\n\nThe printer on the second floor is out of paper again today.\n');
    const uploaded = await tessera('file', 'upload', source, '--labels', 'docs,v2');
    assert.match(uploaded, /^\d+\tguide\.txt\ten\t[0-9a-f]{32}\tdocs,v2\n$/);
    const fileId = uploaded.split('\t')[0];
    assert.match(
      await tessera('file', 'list', '--labels', 'docs'),
      new RegExp(`^${fileId}\\tguide\\.txt`, 'm'),
    );
    const copy = join(dir, 'copy.txt');
    await tessera('file', 'download', fileId, copy);
    assert.equal(readFileSync(copy, 'utf8'), readFileSync(source, 'utf8'));

    const created = await tessera(
      'job',
      'create',
      'Guide',
      '--files',
      fileId,
      '--from',
      'en',
      '--pair',
      `de-DE=${de}`,
      '--pair',
      `fr=${fr}`,
      '--pretranslate',
      '--auto-accept',
    );
    assert.match(created, /^\d+\tGuide\tactive\tCOMPLETE\tde-DE,fr\t30 words\n$/);
    const jobId = created.split('\t')[0];

    const stats = await tessera('job', 'stats', jobId);
    assert.equal(
      stats,
      'PAIR\tWORDS\t100%\t95-99%\t85-94%\t75-84%\tREPETITIONS\tMT\tNEW\tMT-CAN-DRAFT\n' +
        'en→de\t15\t3\t0\t0\t0\t0\t0\t12\t0\n' +
        'en→fr\t15\t0\t0\t0\t0\t0\t0\t15\t0\n' +
        'total\t30\t3\t0\t0\t0\t0\t0\t27\t0\n',
    );
    assert.match(await tessera('job', 'deliver', jobId), /\tdelivered\t/);
    assert.match(
      await tessera('job', 'list', '--delivered'),
      new RegExp(`^${jobId}\\tGuide\\tdelivered`, 'm'),
    );
    await tessera('job', 'export', jobId);
    const zip = join(dir, 'guide.zip');
    await tessera('job', 'download', jobId, zip);
    const entries = await readZip(readFileSync(zip), 'guide.zip');
    assert.deepEqual(
      entries.map((e) => e.name),
      ['de-DE/', 'de-DE/guide.txt', 'fr/', 'fr/guide.txt'],
    );
    assert.match(entries[1].data.toString('utf8'), /^Speichern Sie die Datei\.\n/);

    const bad = runTessera(
      ['job', 'create', 'X', '--files', fileId, '--from', 'en', '--pair', 'german'],
      env,
    );
    assert.equal(await bad.exit, 1);
    assert.match(bad.stderr(), /--pair "german": expected LANG=MEMORY_ID/);
    await tessera('file', 'delete', fileId);
  } finally {
    server.child.kill('SIGTERM');
    await server.exit;
  }
});
