// Memory answers as Lilt's service gives them, each asserted exactly, on every store: a fresh memory
// (is_processing and resources null, version 0), a same-language memory, a refused import (Lilt's shape for
// the client, the reason on the task and the memory), and the author's e-mail in query metadata.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const tmx = (lang1: string, lang2: string, pairs: [string, string][]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="${lang1}" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="x" creationtool="t" creationtoolversion="1"/>
<body>${pairs.map(([s, t]) => `<tu><tuv xml:lang="${lang1}"><seg>${s}</seg></tuv><tuv xml:lang="${lang2}"><seg>${t}</seg></tuv></tu>`).join('\n')}</body></tmx>`;

for (const target of await storeTargets()) {
  describe(`Lilt memory shapes on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    async function memory(id: number) {
      const res = await api.get(`/v2/memories?id=${id}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json()[0];
    }

    async function importInto(id: number, name: string, body: string) {
      const res = await api.upload(
        `/v2/memories/import?memory_id=${id}&name=${encodeURIComponent(name)}`,
        body,
      );
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    }

    test('a memory nothing was imported into: is_processing null, resources null, version 0', async () => {
      const res = await api.post('/v2/memories', { name: 'Fresh', srclang: 'en', trglang: 'de' });
      assert.equal(res.statusCode, 200, res.body);
      const created = res.json();
      assert.deepEqual(created, {
        id: created.id,
        name: 'Fresh',
        srclang: 'en',
        trglang: 'de',
        srclocale: null,
        trglocale: null,
        is_processing: null,
        version: 0,
        num_segments: 0,
        resources: null,
        multiple_translations: false,
        created_at: created.created_at,
        updated_at: created.updated_at,
        last_import: null,
      });
      assert.ok(Number.isInteger(created.created_at) && created.created_at > 1_700_000_000);
      assert.deepEqual(await memory(created.id), created);

      // After an import: false, the file among the resources, the import recorded.
      const answer = await importInto(
        created.id,
        'first.tmx',
        tmx('en', 'de', [['Hello world', 'Hallo Welt']]),
      );
      const task = await api.waitForTask(answer.task_id);
      assert.equal(task.state, 'succeeded', JSON.stringify(task));
      const imported = await memory(created.id);
      assert.equal(imported.is_processing, false);
      assert.deepEqual(imported.resources, ['first.tmx']);
      assert.equal(imported.num_segments, 1);
      assert.ok(imported.version > 0);
      assert.deepEqual(imported.last_import, {
        task_id: answer.task_id,
        state: 'succeeded',
        error: null,
        error_code: null,
      });
    });

    test('a memory whose source and target language are the same is allowed, imported and queried', async () => {
      const res = await api.post('/v2/memories', { name: 'Review', srclang: 'en', trglang: 'en' });
      assert.equal(res.statusCode, 200, res.body);
      const { id } = res.json();
      assert.equal(res.json().srclang, 'en');
      assert.equal(res.json().trglang, 'en');
      const answer = await importInto(
        id,
        'style.tmx',
        tmx('en', 'en', [['Click on the button', 'Click the button']]),
      );
      assert.equal((await api.waitForTask(answer.task_id)).state, 'succeeded');
      const matches = (
        await api.get(`/v2/memories/query?id=${id}&query=${encodeURIComponent('Click on the button')}`)
      ).json();
      assert.equal(matches.length, 1);
      assert.equal(matches[0].source, 'Click on the button');
      assert.equal(matches[0].target, 'Click the button');
      assert.equal(matches[0].score, 100);
    });

    test('an import of an unsupported file: Lilt’s answer, a task failed with UNSUPPORTED_FILE_TYPE, the memory unchanged', async () => {
      const { id } = (
        await api.post('/v2/memories', { name: 'Glossary', srclang: 'en', trglang: 'fr' })
      ).json();
      await api.waitForTask(
        (await importInto(id, 'base.tmx', tmx('en', 'fr', [['Save', 'Enregistrer']]))).task_id,
      );
      const before = await memory(id);

      // An SDL Trados memory: Lilt reads it, Tessera does not.
      const answer = await importInto(id, 'terms.sdltm', 'SQLite format 3\u0000');
      assert.deepEqual(answer, { id, isProcessing: 1, job_id: answer.task_id, task_id: answer.task_id });
      const task = (await api.get(`/v2/tasks?id=${answer.task_id}`)).json();
      assert.equal(task.state, 'failed');
      assert.equal(task.error_code, 'UNSUPPORTED_FILE_TYPE');
      assert.equal(
        task.error,
        'File "terms.sdltm" has an unsupported type; supported: .tmx, .tmx.gz, .xlf, .xliff, .tsv, .tsv.gz, .csv, .csv.gz',
      );

      const afterRefusal = await memory(id);
      assert.deepEqual(afterRefusal, {
        ...before,
        last_import: {
          task_id: answer.task_id,
          state: 'failed',
          error: task.error,
          error_code: 'UNSUPPORTED_FILE_TYPE',
        },
      });
      assert.equal(afterRefusal.is_processing, false);
      assert.deepEqual(afterRefusal.resources, ['base.tmx']);
    });

    test('query metadata carries user_email (the author’s address, or a stable placeholder) and created_at', async () => {
      const { id } = (
        await api.post('/v2/memories', { name: 'Authors', srclang: 'en', trglang: 'it' })
      ).json();
      const created = await api.post('/v2/users', {
        username: 'giulia.rossi',
        password: 'a long password',
        role: 'member',
        email: 'giulia@example.com',
      });
      assert.equal(created.statusCode, 200, created.body);
      const giulia = (await api.post('/v2/keys', { name: 'giulia', user_id: created.json().id })).json().key;
      assert.ok(giulia, 'a key for the new user');
      const asGiulia = client(ctx.app, giulia);
      assert.equal(
        (await asGiulia.post('/v2/segments', { memory_id: id, source: 'Good morning', target: 'Buongiorno' }))
          .statusCode,
        200,
      );
      assert.equal(
        (await api.post('/v2/segments', { memory_id: id, source: 'Good evening', target: 'Buonasera' }))
          .statusCode,
        200,
      );

      const query = async (q: string) =>
        (await api.get(`/v2/memories/query?id=${id}&n=1&query=${encodeURIComponent(q)}`)).json()[0].metadata;
      const byGiulia = await query('Good morning');
      assert.deepEqual(Object.keys(byGiulia).sort(), [
        'context_match',
        'created_at',
        'created_by',
        'match_type',
        'penalties',
        'ranked_first',
        'resource_name',
        'segment_id',
        'updated_at',
        'updated_by',
        'user_email',
      ]);
      assert.equal(byGiulia.user_email, 'giulia@example.com');
      assert.equal(byGiulia.created_by, 'giulia.rossi');
      assert.ok(Number.isInteger(byGiulia.created_at));
      // The bootstrap admin has no e-mail: the same placeholder every time.
      assert.equal((await query('Good evening')).user_email, 'admin@users.tessera.invalid');
      assert.equal((await query('Good evening')).user_email, 'admin@users.tessera.invalid');
    });
  });
}
