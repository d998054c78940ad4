// Translation memories through HTTP on every store: CRUD, import, query, entries, export, bad inputs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readTmx } from '../src/formats/tmx/tmx-reader.ts';
import { bruteForceSearch } from '../src/matching/oracle.ts';
import { importedUnit } from '../src/modules/memories/entry-identity.ts';
import * as memoriesRepo from '../src/modules/memories/repository.ts';
import { client, multipartBody } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

// Samples of the real memories (every 20th unit) and the TMX DTD: test/fixtures/README.md.
const SHARED = join(import.meta.dirname, 'fixtures');
const DATA = join(SHARED, 'corpus');
const TMX_DTD = join(SHARED, 'schemas', 'tmx14.dtd');

async function distinctPairs(file: string, srclang: string, trglang: string) {
  const seen = new Set<string>();
  const reader = readTmx(Readable.from([readFileSync(file)]), { srclang, trglang });
  for await (const u of reader) {
    // As the import stores a unit: without edge whitespace, keyed by its pair and context.
    const unit = importedUnit(u);
    if (unit) seen.add(unit[2]);
  }
  return { units: reader.stats.units + reader.stats.skipped, distinct: seen.size };
}

const tmx = (units: [string, string][], lang = 'de') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/>
<body>
${units.map(([s, t]) => `<tu><tuv xml:lang="en-US"><seg>${s}</seg></tuv><tuv xml:lang="${lang}"><seg>${t}</seg></tuv></tu>`).join('\n')}
</body></tmx>`;

for (const target of await storeTargets()) {
  describe(`memories on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let otherApi: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target, { TESSERA_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024) });
      api = client(ctx.app, ctx.adminKey);
      otherApi = client(
        ctx.app,
        await userKey(ctx, { username: 'eve', password: 'elsewhere1', role: 'admin', organization: 'other' }),
      );
    });
    after(() => ctx.close());

    async function createMemory(name = 'Docs', srclang = 'en', trglang = 'de') {
      const res = await api.post('/v2/memories', { name, srclang, trglang });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { id: number; version: number; num_segments: number };
    }

    async function importFile(memoryId: number, name: string, body: Buffer | string) {
      const res = await api.upload('/v2/memories/import', body, {
        'lilt-api': JSON.stringify({ memory_id: memoryId, name }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      assert.equal(answer.id, memoryId);
      assert.equal(answer.isProcessing, 1);
      const task = await api.waitForTask(answer.job_id);
      // Progress counts bytes of the file read, against its size.
      if (task.state === 'succeeded')
        assert.deepEqual(task.progress, { done: Buffer.byteLength(body), total: Buffer.byteLength(body) });
      return task;
    }

    test('create, list, rename, delete; bad languages and names are 400s naming them', async () => {
      const memory = await createMemory('Legal', 'EN-us', 'de');
      assert.deepEqual(
        { ...memory, created_at: 0, updated_at: 0 },
        {
          id: memory.id,
          name: 'Legal',
          srclang: 'en',
          trglang: 'de',
          srclocale: null,
          trglocale: null,
          is_processing: null,
          version: 0,
          num_segments: 0,
          resources: null,
          multiple_translations: false,
          created_at: 0,
          updated_at: 0,
          last_import: null,
        },
      );
      assert.equal((await api.get(`/v2/memories?id=${memory.id}`)).json()[0].name, 'Legal');
      assert.ok((await api.get('/v2/memories')).json().some((m: { id: number }) => m.id === memory.id));
      assert.equal(
        (await api.put('/v2/memories', { id: memory.id, name: 'Legal 2' })).json().name,
        'Legal 2',
      );

      const badLang = await api.post('/v2/memories', { name: 'x', srclang: 'xx', trglang: 'de' });
      assert.equal(badLang.statusCode, 400);
      assert.equal(
        badLang.json().message,
        'Parameter "srclang": language "xx" is not supported or not enabled',
      );
      const noName = await api.post('/v2/memories', { srclang: 'en', trglang: 'de' });
      assert.equal(noName.statusCode, 400);
      assert.equal(noName.json().message, 'Parameter "name" is required');

      assert.equal((await otherApi.get(`/v2/memories?id=${memory.id}`)).statusCode, 404);
      assert.equal((await otherApi.put('/v2/memories', { id: memory.id, name: 'mine' })).statusCode, 404);
      assert.equal(
        (await otherApi.put('/v2/memories', { id: memory.id, multiple_translations: true })).statusCode,
        404,
      );
      assert.equal((await otherApi.delete(`/v2/memories?id=${memory.id}`)).statusCode, 404);
      assert.ok(!(await otherApi.get('/v2/memories')).json().some((m: { id: number }) => m.id === memory.id));

      assert.deepEqual((await api.delete(`/v2/memories?id=${memory.id}`)).json(), {
        id: memory.id,
        deleted: true,
      });
      assert.equal((await api.get(`/v2/memories?id=${memory.id}`)).statusCode, 404);
    });

    test('the worked examples of docs/MATCHING.md through the query endpoint', async () => {
      const memory = await createMemory('Examples');
      const memoryZh = (await api.post('/v2/memories', { name: 'zh', srclang: 'zh', trglang: 'en' })).json();
      for (const [source, target] of [
        ['Save the file', 'Datei speichern'],
        ['save the file.', 'Datei speichern.'],
        ['Delete 12 files', '12 Dateien löschen'],
        ['Click OK to continue.', 'Klicken Sie auf OK.'],
        ['The file could not be opened.', 'Die Datei konnte nicht geöffnet werden.'],
      ]) {
        assert.equal(
          (await api.post('/v2/segments', { memory_id: memory.id, source, target })).statusCode,
          200,
        );
      }
      await api.post('/v2/segments', {
        memory_id: memoryZh.id,
        source: '无法打开文件，请重试。',
        target: 'Cannot open.',
      });

      const query = async (id: number, q: string, extra = '') =>
        (await api.get(`/v2/memories/query?id=${id}&query=${encodeURIComponent(q)}${extra}`)).json() as {
          source: string;
          score: number;
          metadata: { match_type: string; penalties: { kind: string; points: number }[] };
        }[];
      const scoreOf = async (q: string, source: string) =>
        (await query(memory.id, q)).find((m) => m.source === source)?.score;
      assert.equal(await scoreOf('Save the file.', 'Save the file'), 99);
      assert.equal(await scoreOf('Save the file.', 'save the file.'), 99);
      assert.equal(await scoreOf('Delete 3 files', 'Delete 12 files'), 98);
      assert.equal(await scoreOf('Click <b>OK</b> to continue.', 'Click OK to continue.'), 98);
      assert.equal(await scoreOf('The file could not be saved.', 'The file could not be opened.'), 83);
      assert.equal((await query(memoryZh.id, '无法保存文件，请重试。'))[0].score, 77);

      const exact = await query(memory.id, 'Delete 12 files');
      assert.equal(exact[0].score, 100);
      assert.equal(exact[0].metadata.match_type, 'exact');
      assert.deepEqual(exact[0].metadata.penalties, []);
      const fuzzy = (await query(memory.id, 'Delete 3 files'))[0];
      assert.deepEqual(fuzzy.metadata.penalties, [{ kind: 'number', points: 2 }]);
      assert.equal(fuzzy.metadata.match_type, 'fuzzy');

      // Ranking, n and min_score.
      const both = await query(memory.id, 'Save the file.');
      assert.deepEqual(
        both.map((m) => m.score),
        [99, 99],
      );
      assert.equal((await query(memory.id, 'Save the file.', '&n=1')).length, 1);
      assert.deepEqual(await query(memory.id, 'Save the file.', '&min_score=100'), []);
      assert.deepEqual(await query(memory.id, 'Completely unrelated words here'), []);
    });

    test('concordance: words or text, source or target side, offsets, CJK', async () => {
      const memory = await createMemory('Concordance');
      const zh = (await api.post('/v2/memories', { name: 'zh', srclang: 'zh', trglang: 'en' })).json();
      for (const [source, t] of [
        ['Save the file to disk', 'Datei auf Festplatte speichern'],
        ['The file was saved', 'Die Datei wurde gespeichert'],
        ['Open a window', 'Ein Fenster öffnen'],
      ]) {
        await api.post('/v2/segments', { memory_id: memory.id, source, target: t });
      }
      await api.post('/v2/segments', {
        memory_id: zh.id,
        source: '无法保存文件，请重试。',
        target: 'Cannot save the file.',
      });
      const search = async (id: number, q: string, extra = '') => {
        const res = await api.get(`/v2/memories/concordance?id=${id}&query=${encodeURIComponent(q)}${extra}`);
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as { source: string; target: string; offsets: [number, number][] }[];
      };
      const file = await search(memory.id, 'the FILE');
      assert.deepEqual(
        file.map((h) => [h.source, h.offsets]),
        [
          ['The file was saved', [[0, 8]]],
          ['Save the file to disk', [[5, 13]]],
        ],
      );
      const target = await search(memory.id, 'Datei', '&side=target');
      assert.deepEqual(target.map((h) => h.target).sort(), [
        'Datei auf Festplatte speichern',
        'Die Datei wurde gespeichert',
      ]);
      assert.deepEqual(await search(memory.id, 'window file'), []);
      const cjk = await search(zh.id, '保存文件');
      assert.equal(cjk.length, 1);
      assert.deepEqual(cjk[0].offsets, [[2, 6]]);
      // A new entry is found by the next search.
      await api.post('/v2/segments', {
        memory_id: memory.id,
        source: 'Close the file',
        target: 'Datei schließen',
      });
      assert.equal((await search(memory.id, 'file')).length, 3);
      const bad = await api.get(`/v2/memories/concordance?id=${memory.id}&query=x&side=middle`);
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /"side"/);
      assert.equal(
        (await otherApi.get(`/v2/memories/concordance?id=${memory.id}&query=file`)).statusCode,
        404,
      );
    });

    test('query parameters are checked and named', async () => {
      const memory = await createMemory('Params');
      const bad = async (qs: string, message: RegExp) => {
        const res = await api.get(`/v2/memories/query?${qs}`);
        assert.equal(res.statusCode, 400, qs);
        assert.match(res.json().message, message, qs);
      };
      await bad(`id=${memory.id}`, /^Parameter "query" is required$/);
      await bad(`id=${memory.id}&query=`, /^Parameter "query" is required$/);
      await bad(`id=${memory.id}&query=x&n=0`, /"n"/);
      await bad(`id=${memory.id}&query=x&n=1001`, /"n"/);
      await bad(`id=${memory.id}&query=x&min_score=50`, /"min_score"/);
      await bad('query=x', /"id" is required/);
      await bad(`id=${memory.id}&query=${'a'.repeat(5001)}`, /"query" is longer than 5000 characters/);
      assert.equal((await api.get('/v2/memories/query?id=999999&query=x')).statusCode, 404);
      assert.equal((await otherApi.get(`/v2/memories/query?id=${memory.id}&query=x`)).statusCode, 404);
    });

    test('entries by hand: add, edit, delete; each bumps version and shows in the next query', async () => {
      const memory = await createMemory('Hand');
      const added = (
        await api.post('/v2/segments', {
          memory_id: memory.id,
          source: 'Open the door',
          target: 'Öffne die Tür',
        })
      ).json();
      assert.equal(added.memory_id, memory.id);
      assert.equal(added.document_id, null);
      assert.equal(added.srclang, 'en');
      const again = (
        await api.post('/v2/segments', {
          memory_id: memory.id,
          source: 'Open the door',
          target: 'Öffne die Tür',
        })
      ).json();
      assert.equal(again.id, added.id, 'an identical pair is stored once');
      let m = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(m.version, 1);
      assert.equal(m.num_segments, 1);
      const q = async () =>
        (await api.get(`/v2/memories/query?id=${memory.id}&query=Open%20the%20door`)).json();
      assert.equal((await q())[0].target, 'Öffne die Tür');

      const edited = (await api.put('/v2/segments', { id: added.id, target: 'Mach die Tür auf' })).json();
      assert.equal(edited.target, 'Mach die Tür auf');
      assert.equal((await api.get(`/v2/segments?id=${added.id}`)).json().target, 'Mach die Tür auf');
      assert.equal((await q())[0].target, 'Mach die Tür auf');
      m = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(m.version, 2);

      const second = (
        await api.post('/v2/segments', {
          memory_id: memory.id,
          source: 'Close the door',
          target: 'Schließ die Tür',
        })
      ).json();
      assert.deepEqual(
        (await api.delete(`/v2/memories/segment?id=${memory.id}&segment_id=${second.id}`)).json(),
        { success: true },
      );
      assert.deepEqual((await api.delete(`/v2/segments?id=${added.id}`)).json(), {
        id: added.id,
        deleted: true,
      });
      assert.deepEqual(await q(), []);
      m = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(m.version, 5);
      assert.equal(m.num_segments, 0);
      assert.equal((await api.get(`/v2/segments?id=${added.id}`)).statusCode, 404);

      const missing = await api.post('/v2/segments', { memory_id: memory.id, source: 'x' });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().message, 'Parameter "target" is required');
      const foreign = await otherApi.post('/v2/segments', { memory_id: memory.id, source: 'x', target: 'y' });
      assert.equal(foreign.statusCode, 404);
    });

    test('import parameters in the LILT-API header, individual headers, the query, or multipart', async () => {
      const memory = await createMemory('Forms');
      const file = (n: number) => tmx([[`Sentence number ${n} here`, `Satz ${n}`]]);
      let res = await api.upload('/v2/memories/import', file(1), {
        memory_id: String(memory.id),
        name: 'one.tmx',
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await api.waitForTask(res.json().job_id)).state, 'succeeded');
      res = await api.upload(`/v2/memories/import?memory_id=${memory.id}&name=two.tmx`, file(2));
      assert.equal((await api.waitForTask(res.json().job_id)).result.imported, 1);
      const form = multipartBody(
        { memory_id: String(memory.id) },
        { name: 'three.tmx.gz', data: gzipSync(file(3)) },
      );
      res = await api.upload('/v2/memories/import', form.body, { 'content-type': form.contentType });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual((await api.waitForTask(res.json().job_id)).result, {
        imported: 1,
        skipped: 0,
        duplicates: 0,
      });
      const m = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.deepEqual(m.resources, ['one.tmx', 'two.tmx', 'three.tmx.gz']);
      assert.equal(m.num_segments, 3);
    });

    test('XLIFF and TSV memory files import like TMX; a malformed one fails naming where, the memory unchanged', async () => {
      const memory = await createMemory('Other formats');
      const xliff = `<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="de" datatype="html"><body>
<trans-unit id="1"><source>Click <g id="1">Save</g> now.</source><target>Klicken Sie jetzt auf <g id="1">Speichern</g>.</target></trans-unit>
<trans-unit id="2"><source>Not translated yet.</source></trans-unit>
</body></file></xliff>`;
      let task = await importFile(memory.id, 'site.xlf', xliff);
      assert.deepEqual(task.result, {
        imported: 1,
        skipped: 1,
        duplicates: 0,
        skipped_why: '1 unit lacked a source or a target',
        skipped_languages: [],
      });
      task = await importFile(
        memory.id,
        'terms.tsv',
        'en\tde\nPrint the page.\tDrucken Sie die Seite.\nA & B\tA & B\n',
      );
      assert.deepEqual(task.result, { imported: 2, skipped: 0, duplicates: 0 });
      const hits = (
        await api.get(
          `/v2/memories/query?id=${memory.id}&query=${encodeURIComponent('Click <g id="1">Save</g> now.')}`,
        )
      ).json();
      assert.equal(hits[0].score, 100);
      assert.equal(hits[0].target, 'Klicken Sie jetzt auf <g id="1">Speichern</g>.');
      const before = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(before.num_segments, 3);

      for (const [name, body, error] of [
        [
          'broken.xlf',
          xliff.replace('</source><target>', '</target><target>'),
          // Read as it streams, as a TMX is: the column is that of the close tag's ">".
          /broken\.xlf: Malformed XML at line 3, column 65: unexpected close tag/,
        ],
        [
          'french.xliff',
          xliff.replace('target-language="de"', 'target-language="fr"'),
          /target-language is fr/,
        ],
        [
          'broken.tsv',
          'Print.\tDrucken.\nno tab on this line\n',
          /broken\.tsv: line 2: expected the source and the target/,
        ],
      ] as const) {
        const res = await api.upload('/v2/memories/import', body, {
          'lilt-api': JSON.stringify({ memory_id: memory.id, name }),
        });
        const failed = await api.waitForTask(res.json().job_id);
        assert.equal(failed.state, 'failed', name);
        assert.equal(failed.error_code, 'MALFORMED_FILE');
        assert.match(failed.error, error);
      }
      const after = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(after.num_segments, before.num_segments);
      assert.equal(after.version, before.version);
    });

    test('bad imports: 400/404/413 at once, an unsupported type fails its task; malformed XML fails the task and changes nothing', async () => {
      const memory = await createMemory('Bad');
      await importFile(memory.id, 'good.tmx', tmx([['Keep this entry please', 'Behalte diesen Eintrag']]));
      const before = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];

      let res = await api.upload('/v2/memories/import', tmx([]), { name: 'x.tmx' });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().message, 'Parameter "memory_id" is required');
      // Not a memory format: accepted as Lilt accepts it, its task failed at once saying why.
      res = await api.upload('/v2/memories/import', tmx([]), {
        memory_id: String(memory.id),
        name: 'notes.docx',
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().isProcessing, 1);
      const refused = (await api.get(`/v2/tasks?id=${res.json().task_id}`)).json();
      assert.equal(refused.state, 'failed');
      assert.equal(refused.error_code, 'UNSUPPORTED_FILE_TYPE');
      assert.match(refused.error, /supported: \.tmx, \.tmx\.gz, \.xlf, \.xliff, \.tsv, \.tsv\.gz/);
      res = await api.upload('/v2/memories/import', tmx([]), {
        memory_id: String(memory.id),
        name: '../etc/x.tmx',
      });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().message, /"name"/);
      res = await api.upload('/v2/memories/import', tmx([]), { 'lilt-api': '{not json' });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().message, /LILT-API/);
      res = await otherApi.upload('/v2/memories/import', tmx([]), {
        memory_id: String(memory.id),
        name: 'x.tmx',
      });
      assert.equal(res.statusCode, 404);
      res = await api.upload('/v2/memories/import', Buffer.alloc(65 * 1024 * 1024, 32), {
        memory_id: String(memory.id),
        name: 'big.tmx',
      });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().code, 'PAYLOAD_TOO_LARGE');

      // Many good units, then broken XML: nothing of the file may land.
      const units = Array.from({ length: 3000 }, (_, i): [string, string] => [
        `Unit ${i} of the broken file`,
        `Einheit ${i}`,
      ]);
      const broken = tmx(units).replace('</body>', '<tu><tuv xml:lang="en"><seg>oops</tuv></tu></body>');
      const line = broken.split('\n').findIndex((l) => l.includes('oops')) + 1;
      const failed = await importFile(memory.id, 'broken.tmx', broken);
      assert.equal(failed.state, 'failed');
      assert.match(failed.error, new RegExp(`^broken\\.tmx: .*line ${line}, column \\d+`));
      const doctype = await importFile(
        memory.id,
        'entity.tmx',
        '<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY boom "boom">]><tmx version="1.4"><header/><body/></tmx>',
      );
      assert.equal(doctype.state, 'failed');
      assert.match(doctype.error, /entit/i);
      const afterwards = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(afterwards.num_segments, before.num_segments);
      assert.equal(afterwards.version, before.version);
      assert.deepEqual(afterwards.resources, before.resources);
      assert.equal(afterwards.is_processing, false);
      // Nothing of the failed imports stays behind: no entry of the units read before the error, no
      // uploaded file.
      const entries = await ctx.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM memory_entries WHERE memory_id = ?',
        [memory.id],
      );
      assert.equal(Number(entries!.n), before.num_segments);
      for (const task of [failed, doctype]) {
        const left = await ctx.db.get<{ n: number }>(
          'SELECT COUNT(*) AS n FROM task_files WHERE task_id = ?',
          [task.id],
        );
        assert.equal(Number(left!.n), 0, `file of task ${task.id}`);
      }
    });

    test('an import shows its progress while it runs, and none of its entries until it commits', async () => {
      const memory = await createMemory('Progress');
      const units = Array.from({ length: 40_000 }, (_, i): [string, string] => [
        `Progress unit number ${i} of a large file`,
        `Fortschritt Einheit ${i}`,
      ]);
      const body = tmx(units);
      const res = await api.upload('/v2/memories/import', body, {
        'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'large.tmx' }),
      });
      const taskId = res.json().task_id;
      // Polled while it runs: its units are inserted in its one transaction as they are parsed (on the
      // embedded store, its progress lives in the worker until then), so progress moves and the memory
      // stays as it was.
      const seen: number[] = [];
      let task: {
        state: string;
        progress: { done: number; total: number };
        error: string | null;
        result: { imported: number } | null;
      };
      for (;;) {
        // The memory first: when the task is still running after it, it was read before the commit.
        const during = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
        task = (await api.get(`/v2/tasks?id=${taskId}`)).json();
        if (task.state === 'running') {
          seen.push(task.progress.done);
          assert.equal(task.progress.total, Buffer.byteLength(body));
          assert.equal(during.num_segments, 0, 'no entry shows before the commit');
        } else if (task.state !== 'queued') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.equal(task.state, 'succeeded', task.error ?? undefined);
      assert.equal(task.result?.imported, 40_000);
      assert.deepEqual(task.progress, { done: Buffer.byteLength(body), total: Buffer.byteLength(body) });
      assert.ok(
        seen.some((done) => done > 0 && done < Buffer.byteLength(body)),
        `progress part-way seen (${seen.length} polls while running)`,
      );
      assert.deepEqual(
        seen,
        [...seen].sort((a, b) => a - b),
        'progress never goes back',
      );
      assert.equal((await api.get(`/v2/memories?id=${memory.id}`)).json()[0].num_segments, 40_000);
    });

    test('a memory is not deleted while an import into it runs, nor while projects use it', async () => {
      const memory = await createMemory('Busy');
      await ctx.app.worker.stop();
      let jobId: number;
      try {
        const started = await api.upload('/v2/memories/import', tmx([['One entry here', 'Ein Eintrag']]), {
          'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'one.tmx' }),
        });
        jobId = started.json().job_id;
        const refused = await api.delete(`/v2/memories?id=${memory.id}`);
        assert.equal(refused.statusCode, 409);
        assert.equal(refused.json().code, 'MEMORY_BUSY');
        assert.ok(Number(refused.headers['retry-after']) >= 1);
        await ctx.app.worker.drain();
      } finally {
        ctx.app.worker.start();
      }
      assert.equal((await api.waitForTask(jobId)).state, 'succeeded');

      const project = (await api.post('/v2/projects', { name: 'Uses "Busy"', memory_id: memory.id })).json();
      const inUse = await api.delete(`/v2/memories?id=${memory.id}`);
      assert.equal(inUse.statusCode, 409);
      assert.deepEqual(inUse.json(), {
        message: `Memory ${memory.id} is the memory of project ${project.id} ("Uses \\"Busy\\""); delete those projects first`,
        code: 'MEMORY_IN_USE',
      });
      assert.equal(
        (await api.get(`/v2/memories?id=${memory.id}`)).json()[0].num_segments,
        1,
        'nothing deleted',
      );
      await api.delete(`/v2/projects?id=${project.id}`);
      assert.deepEqual((await api.delete(`/v2/memories?id=${memory.id}`)).json(), {
        id: memory.id,
        deleted: true,
      });
    });

    test('an import into a memory deleted meanwhile fails with MEMORY_DELETED and writes nothing', async () => {
      const memory = await createMemory('Gone');
      // The delete that raced the upload: its check for an import under way ran before the upload's task
      // existed, and it committed before the task ran.
      ctx.app.worker.atStage = async (stage, task) => {
        if (stage === 'claimed' && task.memory_id === memory.id) {
          await ctx.db.transaction((tx) => memoriesRepo.deleteMemory(tx, memory.id, 1));
        }
      };
      try {
        const res = await api.upload('/v2/memories/import', tmx([['Written nowhere', 'Nirgends']]), {
          'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'late.tmx' }),
        });
        assert.equal(res.statusCode, 200, res.body);
        const task = await api.waitForTask(res.json().job_id);
        assert.equal(task.state, 'failed', JSON.stringify(task));
        assert.equal(task.error_code, 'MEMORY_DELETED');
        assert.match(task.error, new RegExp(`Memory ${memory.id} was deleted .*; nothing was imported`));
      } finally {
        ctx.app.worker.atStage = undefined;
      }
      const left = await ctx.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM memory_entries WHERE memory_id = ?',
        [memory.id],
      );
      assert.equal(Number(left!.n), 0);
      assert.equal((await api.get(`/v2/memories?id=${memory.id}`)).statusCode, 404);
    });

    test('real corpora: all three files import with exact counts; export validates and re-imports the same', async () => {
      for (const [file, trglang, units] of [
        ['en-de.tmx.gz', 'de', 3_650],
        ['en-es.tmx.gz', 'es', 2_624],
        ['en-ja.tmx.gz', 'ja', 2_012],
      ] as const) {
        const path = join(DATA, file);
        const expected = await distinctPairs(path, 'en', trglang);
        assert.equal(expected.units, units);
        const memory = await createMemory(file, 'en', trglang);
        const task = await importFile(memory.id, file, readFileSync(path));
        assert.equal(task.state, 'succeeded', task.error);
        const { imported, skipped, duplicates } = task.result;
        assert.equal(imported + skipped + duplicates, units, file);
        assert.equal(imported, expected.distinct, file);
        const m = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
        assert.equal(m.num_segments, expected.distinct);
        assert.deepEqual(m.resources, [file]);
        if (trglang !== 'de') continue;

        // A real entry answers its own source with 100.
        const sample = (await ctx.db.get<{ source: string; target: string }>(
          'SELECT source, target FROM memory_entries WHERE memory_id = ? ORDER BY id LIMIT 1 OFFSET 500',
          [memory.id],
        ))!;
        const found = (
          await api.get(`/v2/memories/query?id=${memory.id}&query=${encodeURIComponent(sample.source)}`)
        ).json();
        assert.equal(found[0].score, 100);
        assert.equal(found[0].metadata.resource_name, file);

        // The indexed answer over HTTP equals the brute-force oracle's on sampled queries.
        const all = await ctx.db.all<{ id: number; source: string; updated_at: number }>(
          'SELECT id, source, updated_at FROM memory_entries WHERE memory_id = ? ORDER BY id',
          [memory.id],
        );
        const oracleEntries = all.map((r) => ({
          id: Number(r.id),
          source: r.source,
          updatedAt: Number(r.updated_at),
        }));
        for (let i = 0; i < 24; i++) {
          const words = all[(i * 2311) % all.length].source.split(' ');
          if (i % 3 === 1 && words.length > 2) words.splice(1, 1);
          if (i % 3 === 2) words.push('again');
          const q = words.join(' ');
          const got = (
            await api.get(`/v2/memories/query?id=${memory.id}&n=25&query=${encodeURIComponent(q)}`)
          ).json();
          const expected = bruteForceSearch(oracleEntries, q, { threshold: 75, n: 25 });
          assert.deepEqual(
            got.map((m: { score: number; metadata: { segment_id: number; penalties: unknown } }) => [
              m.metadata.segment_id,
              m.score,
              m.metadata.penalties,
            ]),
            expected.map((m) => [m.id, m.score, m.penalties]),
            q,
          );
        }

        const exported = await api.get(`/v2/memories/export?id=${memory.id}`);
        assert.equal(exported.statusCode, 200);
        assert.match(String(exported.headers['content-type']), /^application\/x-tmx\+xml/);
        assert.match(
          String(exported.headers['content-disposition']),
          /^attachment; filename="en-de\.tmx\.gz\.tmx"$/,
        );
        const out = join(ctx.config.dataDir, 'export.tmx');
        writeFileSync(out, exported.rawPayload);
        execFileSync('xmllint', ['--noout', '--dtdvalid', TMX_DTD, out], { stdio: 'pipe' });
        const sync = await api.get(`/v2/memories/sync?id=${memory.id}`);
        assert.equal(sync.rawPayload.length, exported.rawPayload.length);

        const copy = await createMemory('copy', 'en', 'de');
        const reimport = await importFile(copy.id, 'export.tmx', exported.rawPayload);
        assert.deepEqual(reimport.result, { imported: expected.distinct, skipped: 0, duplicates: 0 });
        const pairs = async (id: number) =>
          (
            await ctx.db.all<{ pair_hash: string }>(
              'SELECT pair_hash FROM memory_entries WHERE memory_id = ? ORDER BY pair_hash',
              [id],
            )
          ).map((r) => r.pair_hash);
        assert.deepEqual(await pairs(copy.id), await pairs(memory.id));
      }
    });
  });
}
