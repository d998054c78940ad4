// `tessera memory …` against a real server process.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runTessera, waitForListening } from './helpers/process.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('memory, project and doc commands through the API', async () => {
  const key = 'cli-test-admin-key-0123456789abcdefghijkl';
  const server = runTessera(['serve'], {
    TESSERA_DATA_DIR: join(dir, 'data'),
    TESSERA_PORT: '0',
    TESSERA_API_KEY: key,
  });
  try {
    const url = await waitForListening(server);
    const env = { TESSERA_URL: url, TESSERA_API_KEY: key };
    const created = runTessera(['memory', 'create', 'UI strings', '--from', 'en', '--to', 'de'], env);
    assert.equal(await created.exit, 0, created.stderr());
    const id = created.stdout().split('\t')[0];
    assert.match(created.stdout(), /^\d+\tUI strings\ten→de\n$/);

    const file = join(dir, 'ui.tmx');
    writeFileSync(
      file,
      `<?xml version="1.0"?><tmx version="1.4"><header srclang="en"/><body>
<tu><tuv xml:lang="en"><seg>Open the file</seg></tuv><tuv xml:lang="de"><seg>Datei öffnen</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>Save the file</seg></tuv><tuv xml:lang="de"><seg>Datei speichern</seg></tuv></tu>
</body></tmx>`,
    );
    const imported = runTessera(['memory', 'import', id, file], env);
    assert.equal(await imported.exit, 0, imported.stderr());
    assert.equal(imported.stdout(), '{"imported":2,"skipped":0,"duplicates":0}\n');
    // Plain progress lines when not a terminal: the upload's bytes, then the task's bytes parsed of the file.
    const size = readFileSync(file).length;
    assert.match(
      imported.stderr(),
      new RegExp(`^ui\\.tmx upload: ${size} B/${size} B \\(100%\\), in \\S+s$`, 'm'),
    );
    assert.match(
      imported.stderr(),
      new RegExp(`^ui\\.tmx import: succeeded, ${size} B/${size} B \\(100%\\), in \\S+s$`, 'm'),
    );

    const query = runTessera(['memory', 'query', id, 'Save the file.'], env);
    assert.equal(await query.exit, 0, query.stderr());
    assert.equal(query.stdout(), '99\tSave the file\tDatei speichern\n');

    const listed = runTessera(['memory', 'list'], env);
    assert.equal(await listed.exit, 0);
    assert.match(listed.stdout(), new RegExp(`^${id}\\tUI strings\\ten→de\\t2\\t1$`, 'm'));

    const out = join(dir, 'out.tmx');
    const exported = runTessera(['memory', 'export', id, out], env);
    assert.equal(await exported.exit, 0, exported.stderr());
    assert.match(readFileSync(out, 'utf8'), /<seg>Datei speichern<\/seg>/);

    const project = runTessera(['project', 'create', 'Site', '--memory', id], env);
    assert.equal(await project.exit, 0, project.stderr());
    const projectId = project.stdout().split('\t')[0];
    const docFile = join(dir, 'page.txt');
    writeFileSync(docFile, 'Save the file.\n\nOpen the file\n');
    const uploaded = runTessera(
      ['doc', 'upload', projectId, docFile, '--pretranslate', '--auto-accept'],
      env,
    );
    assert.equal(await uploaded.exit, 0, uploaded.stderr());
    const docId = uploaded.stdout().split('\t')[0];
    assert.match(uploaded.stdout(), /^\d+\tpage\.txt\t1\/2 confirmed\tready\n$/);
    assert.doesNotMatch(uploaded.stderr(), /confirmed/, 'the document line once, on stdout');
    const status = runTessera(['doc', 'status', docId], env);
    assert.equal(await status.exit, 0);
    assert.equal(status.stdout(), uploaded.stdout());
    const again = runTessera(['doc', 'pretranslate', docId], env);
    assert.equal(await again.exit, 0, again.stderr());
    const merged = join(dir, 'page.de.txt');
    const exportedDoc = runTessera(['doc', 'export', docId, merged, '--original'], env);
    assert.equal(await exportedDoc.exit, 0, exportedDoc.stderr());
    assert.equal(readFileSync(merged, 'utf8'), 'Datei speichern\n\nDatei öffnen\n');
    const xliffOut = runTessera(['doc', 'export', docId], env);
    assert.equal(await xliffOut.exit, 0);
    assert.match(xliffOut.stdout(), /<xliff [^>]*version="1.2"/);

    const bad = runTessera(['memory', 'query', '99999', 'x'], env);
    assert.equal(await bad.exit, 1);
    assert.equal(bad.stderr(), 'tessera: GET /v2/memories/query answered 404: Memory 99999 not found\n');
    const noKey = runTessera(['memory', 'list'], { TESSERA_URL: url });
    assert.equal(await noKey.exit, 1);
    assert.match(noKey.stderr(), /TESSERA_API_KEY must be set/);
  } finally {
    server.child.kill('SIGTERM');
    await server.exit;
  }
});
