// The PostgreSQL connection lost under every task type, at each stage of an attempt (after its claim, at a
// progress report, just before it is marked succeeded), two ways: the database's backends terminated (a
// restart or failover, as pg_terminate_backend does it) and a TCP proxy in front of the server dropping
// every socket (a network cut). Each time: the process lives on (an 'error' nobody listened to would end this
// test's process), the task runs again and succeeds, and its data is there exactly once. Requests during an
// outage answer 503 STORE_UNAVAILABLE; a task cut off at every attempt fails saying why, changing nothing.
// Find and replace, which runs inside its request, is cut while staging and while applying its batch: a 503,
// the document never half replaced, and the client's retry replaces it whole, once.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { isStoreUnavailable } from '../src/errors.ts';
import { pairHash } from '../src/modules/memories/entry-identity.ts';
import * as memories from '../src/modules/memories/repository.ts';
import { insertTask, type TaskRow } from '../src/tasks/queue.ts';
import type { AttemptStage } from '../src/tasks/task-worker.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { again, eventStream, proxied, retrying, terminate, through } from './helpers/faults.ts';
import { storeTargets } from './helpers/stores.ts';

const postgres = (await storeTargets()).find((t) => t.name === 'postgres');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STAGES: AttemptStage[] = ['claimed', 'progress', 'complete'];
const UNITS = 2500;

const tmx = (n: number, tag: string) =>
  Buffer.from(
    `<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="en"/><body>\n${Array.from(
      { length: n },
      (_, i) =>
        `<tu><tuv xml:lang="en"><seg>${tag} sentence number ${i}</seg></tuv><tuv xml:lang="de"><seg>${tag} Satz ${i}</seg></tuv></tu>`,
    ).join('\n')}\n</body></tmx>\n`,
  );

if (!postgres) {
  test('fault suite: PostgreSQL only, and no server answers (skipped)', { skip: true }, () => {});
}

for (const cut of postgres ? [terminate, proxied()] : []) {
  describe(`the PostgreSQL connection lost: ${cut.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    const urls = { direct: '' };
    let memoryId: number;
    let projectId: number;
    let fileId: number;

    before(async () => {
      ctx = await createContext(through(postgres!, cut, urls));
      api = retrying(client(ctx.app, ctx.adminKey));
      memoryId = (await api.post('/v2/memories', { name: 'Faults', srclang: 'en', trglang: 'de' })).json().id;
      projectId = (await api.post('/v2/projects', { name: 'Faults', memory_id: memoryId })).json().id;
      const file = await api.upload('/v2/files?name=notes.txt', 'Base sentence number 1\n\nNothing here.\n');
      assert.equal(file.statusCode, 201, file.body);
      fileId = file.json().id;
      const seeded = await api.upload('/v2/memories/import', tmx(UNITS, 'Base'), {
        'lilt-api': JSON.stringify({ memory_id: memoryId, name: 'base.tmx' }),
      });
      assert.equal((await api.waitForTask(seeded.json().job_id)).state, 'succeeded');
    });
    afterEach(() => {
      ctx.app.worker.atStage = undefined;
    });
    after(() => ctx.close());

    /** Cuts the connection once, the first time a task of this type reaches the stage. */
    function cutAt(type: string, stage: AttemptStage) {
      let done = false;
      ctx.app.worker.atStage = async (at, task) => {
        if (done || at !== stage || task.type !== type) return;
        done = true;
        await cut.cut(urls.direct);
      };
      return () => done;
    }

    /** The task's row once it has ended. */
    async function ended(taskId: number): Promise<TaskRow> {
      for (let i = 0; i < 1200; i++) {
        // Through an outage too: the poll waits for the store as the task does.
        const row = await ctx.db
          .get<TaskRow>('SELECT * FROM tasks WHERE id = ?', [taskId])
          .catch((err: unknown) => {
            if (isStoreUnavailable(err)) return undefined;
            throw err;
          });
        if (row && (row.state === 'succeeded' || row.state === 'failed')) return row;
        await sleep(25);
      }
      throw new Error(`task ${taskId} never ended`);
    }

    const count = (sql: string, params: (string | number)[]) =>
      again(async () => Number((await ctx.db.get<{ n: number }>(sql, params))!.n));

    async function alive() {
      const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(res.statusCode, 200);
    }

    // A request's answer is often read after its change committed: a read cut there must not answer 503 (a
    // client that retries on 503 would do the change twice), so a read is sent once more on another
    // connection. A write is never sent again: whether it took effect is not known.
    test('a read cut mid-statement is answered on another connection; a write cut so rejects', async () => {
      const read = ctx.db.get<{ x: number }>('SELECT 7 AS x FROM pg_sleep(0.4)');
      await sleep(150);
      await cut.cut(urls.direct);
      assert.equal((await read)?.x, 7);
      const write = assert.rejects(
        ctx.db.run('UPDATE memories SET name = name WHERE id = ? AND EXISTS (SELECT 1 FROM pg_sleep(0.4))', [
          memoryId,
        ]),
        (err: unknown) => isStoreUnavailable(err),
      );
      await sleep(150);
      await cut.cut(urls.direct);
      await write;
      await alive();
    });

    /** The newest task of a type. */
    const newestTask = async (type: string) =>
      (await again(() =>
        ctx.db.get<{ id: number }>('SELECT MAX(id) AS id FROM tasks WHERE type = ?', [type]),
      ))!.id;

    async function assertSucceededAfterCut(taskId: number, wasCut: () => boolean, label: string) {
      const row = await ended(taskId);
      assert.ok(wasCut(), `${label}: the stage was reached`);
      assert.equal(row.state, 'succeeded', `${label}: ${row.error_code} ${row.error}`);
      await alive();
      return row;
    }

    for (const stage of STAGES) {
      test(`memory_import, at ${stage}: re-run, every entry once`, async () => {
        const memory = (await api.post('/v2/memories', { name: stage, srclang: 'en', trglang: 'de' })).json();
        const wasCut = cutAt('memory_import', stage);
        const started = await api.upload('/v2/memories/import', tmx(UNITS, 'Import'), {
          'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'import.tmx' }),
        });
        assert.equal(started.statusCode, 200, started.body);
        const row = await assertSucceededAfterCut(started.json().job_id, wasCut, 'import');
        // Inside the import's transaction, the cut broke the attempt: the task ran again.
        if (stage !== 'claimed') assert.ok(row.attempts >= 2, `attempts: ${row.attempts}`);
        const entries = 'SELECT COUNT(*) AS n FROM memory_entries WHERE memory_id = ?';
        assert.equal(await count(entries, [memory.id]), UNITS);
        assert.equal((await api.get(`/v2/memories?id=${memory.id}`)).json()[0].num_segments, UNITS);
        // The uploaded file went after the commit, not with the cut.
        const files = 'SELECT COUNT(*) AS n FROM task_files WHERE task_id = ?';
        for (let i = 0; i < 100 && (await count(files, [started.json().job_id])) > 0; i++) await sleep(20);
        assert.equal(await count(files, [started.json().job_id]), 0);
      });

      test(`memory_trim_edges, at ${stage}: re-run, every entry trimmed once`, async () => {
        const memory = (await api.post('/v2/memories', { name: stage, srclang: 'en', trglang: 'de' })).json();
        // Entries stored before edge whitespace was trimmed on the way in (as migration 018 finds them).
        await again(() =>
          ctx.db.transaction(async (tx) => {
            const rev = await memories.bumpVersion(tx, memory.id, 3);
            for (const [source, target] of [
              ['Exiting.\n', 'Programmende.\n'],
              ['Exiting.', 'Programmende.'],
              [' Open ', '  Offen'],
            ]) {
              await memories.insertEntry(tx, {
                memoryId: memory.id,
                source,
                target,
                pairHash: pairHash(source, target),
                createdBy: 'admin',
                rev,
              });
            }
          }),
        );
        const wasCut = cutAt('memory_trim_edges', stage);
        const taskId = await again(() =>
          insertTask(ctx.db, { organizationId: 1, type: 'memory_trim_edges', memoryId: memory.id }),
        );
        ctx.app.worker.wake();
        await assertSucceededAfterCut(taskId, wasCut, 'trim');
        const stored = await again(() =>
          ctx.db.all<{ source: string; target: string }>(
            'SELECT source, target FROM memory_entries WHERE memory_id = ? ORDER BY source',
            [memory.id],
          ),
        );
        assert.deepEqual(
          stored.map((e) => [e.source, e.target]),
          [
            ['Exiting.', 'Programmende.'],
            ['Open', 'Offen'],
          ],
        );
        assert.equal((await api.get(`/v2/memories?id=${memory.id}`)).json()[0].num_segments, 2);
      });

      test(`document_import and pretranslate, at ${stage}: re-run, every segment once, every match written`, async () => {
        const lines = Array.from({ length: 40 }, (_, i) =>
          i % 2 === 0 ? `Base sentence number ${i}` : `Nothing to find here ${i}.`,
        );
        const importCut = cutAt('document_import', stage);
        const doc = await api.upload('/v2/documents/files', `${lines.join('\n\n')}\n`, {
          'lilt-api': JSON.stringify({ name: `doc-${stage}.txt`, project_id: projectId }),
        });
        assert.equal(doc.statusCode, 200, doc.body);
        const documentId = doc.json().id;
        await assertSucceededAfterCut(await newestTask('document_import'), importCut, 'document import');
        const segments = 'SELECT COUNT(*) AS n FROM document_segments WHERE document_id = ?';
        assert.equal(await count(segments, [documentId]), lines.length);
        const view = (await api.get(`/v2/documents?id=${documentId}`)).json();
        assert.equal(view.import_succeeded, true, JSON.stringify(view));
        assert.equal(view.num_segments, lines.length);

        const pretranslateCut = cutAt('pretranslate', stage);
        const res = await api.post('/v2/documents/pretranslate', { id: [documentId] });
        assert.equal(res.statusCode, 202, res.body);
        await assertSucceededAfterCut(await newestTask('pretranslate'), pretranslateCut, 'pretranslate');
        const translated = `${segments} AND target IS NOT NULL`;
        assert.equal(await count(translated, [documentId]), lines.length / 2);
        assert.equal(await count('SELECT COUNT(*) AS n FROM pretranslate_staging', []), 0);
        assert.equal((await api.get(`/v2/documents?id=${documentId}`)).json().is_pretranslating, false);
      });

      test(`job_export, at ${stage}: re-run, the zip downloadable`, async () => {
        const created = await api.post('/v2/jobs', {
          name: `Faults ${stage}`,
          fileIds: [fileId],
          srcLang: 'en',
          languagePairs: [{ trgLang: 'de', memoryId }],
        });
        assert.equal(created.statusCode, 200, created.body);
        const jobId = created.json().id;
        for (let i = 0; i < 1200; i++) {
          if ((await api.get(`/v2/jobs/${jobId}`)).json().creationStatus !== 'PENDING') break;
          await sleep(25);
        }
        const wasCut = cutAt('job_export', stage);
        const started = await api.get(`/v2/jobs/${jobId}/export?type=files`);
        assert.equal(started.statusCode, 200, started.body);
        await assertSucceededAfterCut(await newestTask('job_export'), wasCut, 'job export');
        const job = (await api.get(`/v2/jobs/${jobId}`)).json();
        assert.equal(job.isProcessing, 0, JSON.stringify(job));
        const zip = await api.get(`/v2/jobs/${jobId}/download`);
        assert.equal(zip.statusCode, 200, zip.body);
        assert.equal(zip.headers['content-type'], 'application/zip');
      });
    }

    // Find and replace is no task: it runs inside its request, staging a page at a time, then applying the
    // batch in one transaction. A cut fails the request (503) or comes after the commit; the document is
    // never half replaced, and the client's retry replaces it whole, once.
    for (const when of ['staging', 'applying'] as const) {
      test(`find and replace, cut while ${when}: never half a batch; the retry replaces it whole, once`, async (t) => {
        const total = 3000;
        const units = Array.from(
          { length: total },
          (_, i) =>
            `<trans-unit id="u${i}"><source>Sentence ${i} of the file.</source><target>Satz ${i} der Datei.</target></trans-unit>`,
        ).join('');
        const xliff = `<?xml version="1.0" encoding="UTF-8"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="de" datatype="plaintext" original="f.txt"><body>${units}</body></file></xliff>`;
        const doc = await api.upload('/v2/documents/files', xliff, {
          'lilt-api': JSON.stringify({ name: `replace-${when}.xlf`, project_id: projectId }),
        });
        assert.equal(doc.statusCode, 200, doc.body);
        const documentId = doc.json().id;
        await ended(await newestTask('document_import'));
        const withText = (text: string) =>
          count(
            `SELECT COUNT(*) AS n FROM document_segments WHERE document_id = ? AND target LIKE '%${text}%'`,
            [documentId],
          );
        assert.equal(await withText('Datei'), total);
        // Cut once the replace has reached the stage: a batch staged, or every change of it staged.
        const reached =
          when === 'staging'
            ? () =>
                count(
                  'SELECT COUNT(*) AS n FROM replace_batches WHERE document_id = ? AND applied_at IS NULL',
                  [documentId],
                ).then((n) => n > 0)
            : () =>
                count(
                  'SELECT COUNT(*) AS n FROM replace_changes WHERE batch_id IN (SELECT id FROM replace_batches WHERE document_id = ?)',
                  [documentId],
                ).then((n) => n === total);
        const plain = client(ctx.app, ctx.adminKey);
        const body = { id: documentId, find: 'Datei', replace: 'Akte' };
        const replacing = plain.post('/v2/documents/replace', body);
        let settled = false;
        void replacing.finally(() => {
          settled = true;
        });
        let cutMade = false;
        for (let i = 0; !settled && i < 20_000; i++) {
          if (await reached()) {
            await cut.cut(urls.direct);
            cutMade = true;
            break;
          }
          await new Promise((r) => setImmediate(r));
        }
        const res = await replacing;
        await alive();
        // A 503 saying why, or the whole batch (the cut came after its commit).
        assert.ok([200, 503].includes(res.statusCode), `${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode === 503) assert.equal(res.json().code, 'STORE_UNAVAILABLE');
        const replaced = await withText('Akte');
        assert.ok(replaced === 0 || replaced === total, `${replaced} of ${total} replaced: half a batch`);
        assert.ok(cutMade || res.statusCode === 200, 'the stage was reached or the replace ended first');
        t.diagnostic(
          `cut: ${cutMade}; answered ${res.statusCode}; ${replaced} of ${total} replaced before the retry`,
        );
        // The client retries: every target replaced once, none twice; the batch undoes whole.
        const again = await api.post('/v2/documents/replace', body);
        assert.equal(again.statusCode, 200, again.body.slice(0, 200));
        assert.equal(await withText('Akte'), total);
        assert.equal(await withText('Akte Akte'), 0);
        assert.equal(await withText('Datei'), 0);
        const batchId = again.json().batch_id ?? res.json().batch_id;
        const undone = await api.post('/v2/documents/replace/undo', { id: documentId, batch_id: batchId });
        assert.equal(undone.statusCode, 200, undone.body);
        assert.equal(await withText('Datei'), total);
      });
    }

    test('a task cut off at every attempt fails saying why, and the memory is unchanged', async () => {
      const memory = (await api.post('/v2/memories', { name: 'Never', srclang: 'en', trglang: 'de' })).json();
      ctx.app.worker.atStage = async (at, task) => {
        if (at === 'progress' && task.type === 'memory_import') await cut.cut(urls.direct);
      };
      const started = await api.upload('/v2/memories/import', tmx(UNITS, 'Never'), {
        'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'never.tmx' }),
      });
      const row = await ended(started.json().job_id);
      assert.equal(row.state, 'failed');
      assert.equal(row.error_code, 'STORE_UNAVAILABLE');
      assert.match(row.error!, /database connection was lost during each of 5 attempts/);
      assert.equal(
        await count('SELECT COUNT(*) AS n FROM memory_entries WHERE memory_id = ?', [memory.id]),
        0,
      );
      const after = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(after.num_segments, 0);
      assert.equal(after.version, memory.version);
      await alive();
    });

    test('live events go on after the cut: the LISTEN connection reconnects', async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const doc = await api.upload('/v2/documents/files', 'Listen to this.\n', {
        'lilt-api': JSON.stringify({ name: 'listen.txt', project_id: projectId }),
      });
      const documentId = doc.json().id;
      await ended(await newestTask('document_import'));
      const [segment] = (await api.get(`/v2/documents/segments?id=${documentId}`)).json().segments;
      const stream = await eventStream(ctx.app, `/v2/events?document_id=${documentId}`, ctx.adminKey);
      try {
        await stream.next((e) => e.event === 'document');
        await cut.cut(urls.direct);
        // The listening connection is opened again a moment after it broke; edits until one is seen.
        let seen = false;
        for (let i = 0; i < 40 && !seen; i++) {
          const target = `Hör zu ${i}.`;
          assert.equal((await api.put('/v2/segments', { id: segment.id, target })).statusCode, 200);
          seen = await stream
            .next((e) => e.event === 'segment' && e.data.target === target, 500)
            .then(
              () => true,
              () => false,
            );
        }
        assert.ok(seen, 'an edit after the cut reached the stream');
      } finally {
        stream.close();
      }
    });

    if (cut !== terminate) {
      test('an outage of seconds: the task waits for the store, then runs again and succeeds', async () => {
        const proxy = (cut as ReturnType<typeof proxied>).proxy();
        const memory = (
          await api.post('/v2/memories', { name: 'Outage', srclang: 'en', trglang: 'de' })
        ).json();
        let outage: Promise<void> | undefined;
        ctx.app.worker.atStage = async (at, task) => {
          if (outage || at !== 'progress' || task.type !== 'memory_import') return;
          proxy.refusing = true;
          proxy.dropAll();
          outage = sleep(2500).then(() => {
            proxy.refusing = false;
          });
        };
        const started = await api.upload('/v2/memories/import', tmx(UNITS, 'Outage'), {
          'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'outage.tmx' }),
        });
        const row = await ended(started.json().job_id);
        await outage;
        assert.equal(row.state, 'succeeded', `${row.error_code} ${row.error}`);
        assert.ok(row.attempts >= 2, `attempts: ${row.attempts}`);
        assert.equal(
          await count('SELECT COUNT(*) AS n FROM memory_entries WHERE memory_id = ?', [memory.id]),
          UNITS,
        );
        await alive();
      });

      test('a task that fails while the store is out of reach is recorded failed once it is back', async () => {
        const proxy = (cut as ReturnType<typeof proxied>).proxy();
        const memory = (
          await api.post('/v2/memories', { name: 'Broken', srclang: 'en', trglang: 'de' })
        ).json();
        let outage: Promise<void> | undefined;
        ctx.app.worker.atStage = async (at, task) => {
          if (outage || at !== 'settling' || task.type !== 'memory_import') return;
          proxy.refusing = true;
          proxy.dropAll();
          outage = sleep(2500).then(() => {
            proxy.refusing = false;
          });
        };
        const started = await api.upload('/v2/memories/import', '<tmx><body><tu></body></tmx>', {
          'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'broken.tmx' }),
        });
        const row = await ended(started.json().job_id);
        await outage;
        assert.ok(outage, 'the outage began as the failure was recorded');
        assert.equal(row.state, 'failed');
        assert.equal(row.error_code, 'MALFORMED_FILE');
        assert.match(row.error!, /^broken\.tmx: Malformed XML at line 1/);
        await alive();
      });

      test('while the database is out of reach, requests answer 503 STORE_UNAVAILABLE; /healthz answers', async () => {
        const proxy = (cut as ReturnType<typeof proxied>).proxy();
        proxy.refusing = true;
        proxy.dropAll();
        try {
          const res = await api.get('/v2/memories');
          assert.equal(res.statusCode, 503, res.body);
          assert.equal(res.json().code, 'STORE_UNAVAILABLE');
          assert.equal(res.headers['retry-after'], '2');
          await alive();
        } finally {
          proxy.refusing = false;
        }
        assert.equal((await api.get('/v2/memories')).statusCode, 200);
      });
    }
  });
}
