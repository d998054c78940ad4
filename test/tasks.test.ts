// Tasks on every store: claimed once across workers, re-run after a dead worker's lease expires, idempotent.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { Type } from 'typebox';
import { nowSeconds } from '../src/store/db.ts';
import { claimTask, insertTask } from '../src/tasks/queue.ts';
import { storeTaskFile } from '../src/tasks/task-files.ts';
import { taskType } from '../src/tasks/task-type.ts';
import { TaskWorker } from '../src/tasks/task-worker.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const tmx = (n: number) =>
  `<?xml version="1.0"?><tmx version="1.4"><header srclang="en"/><body>${Array.from(
    { length: n },
    (_, i) =>
      `<tu><tuv xml:lang="en"><seg>Line ${i % (n - 5)} text</seg></tuv><tuv xml:lang="fr"><seg>Ligne ${i % (n - 5)}</seg></tuv></tu>`,
  ).join('')}<tu><tuv xml:lang="en"><seg>only English</seg></tuv></tu></body></tmx>`;

for (const target of await storeTargets()) {
  describe(`tasks on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    test('a task left running by a dead process runs again after its lease, and applies exactly once', async () => {
      const memory = (await api.post('/v2/memories', { name: 'Crash', srclang: 'en', trglang: 'fr' })).json();
      const me = (await api.get('/v2/me')).json();
      // The state a crash leaves: running, lease expired, file stored (its transaction died with it).
      const jobId = await insertTask(ctx.db, {
        organizationId: me.organization_id,
        type: 'memory_import',
        state: 'uploading',
        memoryId: memory.id,
        params: { name: 'crash.tmx', createdBy: 'admin' },
      });
      await storeTaskFile(ctx.db, jobId, [Buffer.from(tmx(105))], 1 << 20);
      await ctx.db.run(
        `UPDATE tasks SET state = 'running', worker_id = 'dead-worker', attempts = 1, lease_until = ?, started_at = ? WHERE id = ?`,
        [nowSeconds() - 1, nowSeconds() - 120, jobId],
      );
      ctx.app.worker.wake();
      const task = await api.waitForTask(jobId);
      assert.equal(task.state, 'succeeded', task.error);
      assert.deepEqual(task.result, {
        imported: 100,
        skipped: 1,
        duplicates: 5,
        skipped_why: '1 unit had no variant in fr; the languages they have: en',
        skipped_languages: ['en'],
      });
      const row = await ctx.db.get<{ attempts: number; worker_id: string }>(
        'SELECT attempts, worker_id FROM tasks WHERE id = ?',
        [jobId],
      );
      assert.equal(Number(row!.attempts), 2);
      assert.notEqual(row!.worker_id, 'dead-worker');
      const m = (await api.get(`/v2/memories?id=${memory.id}`)).json()[0];
      assert.equal(m.num_segments, 100);
      const count = await ctx.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM memory_entries WHERE memory_id = ?',
        [memory.id],
      );
      assert.equal(Number(count!.n), 100);
      // The uploaded file goes after the commit: once the worker has finished with the task.
      await ctx.app.worker.stop();
      const file = await ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM task_files WHERE task_id = ?', [
        jobId,
      ]);
      assert.equal(Number(file!.n), 0);

      // A second run of a finished task is impossible: it is no longer claimable.
      assert.equal(await claimTask(ctx.db, 'another', 60), undefined);
    });

    test('concurrent workers claim each task exactly once', async () => {
      await ctx.app.worker.stop();
      const me = (await api.get('/v2/me')).json();
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) {
        ids.push(
          await insertTask(ctx.db, { organizationId: me.organization_id, type: 'export', params: {} }),
        );
      }
      const claimed: number[][] = [[], [], []];
      await Promise.all(
        claimed.map(async (mine, w) => {
          for (
            let task = await claimTask(ctx.db, `w${w}`, 60);
            task;
            task = await claimTask(ctx.db, `w${w}`, 60)
          ) {
            mine.push(Number(task.id));
          }
        }),
      );
      const all = claimed.flat().sort((a, b) => a - b);
      assert.deepEqual(all, ids);
      const rows = await ctx.db.all<{ worker_id: string }>(
        `SELECT worker_id FROM tasks WHERE id IN (${ids.map(() => '?').join(',')})`,
        ids,
      );
      assert.ok(rows.every((r) => /^w[012]$/.test(r.worker_id)));
    });

    test('a handler that throws after its result committed leaves the task succeeded, and logs no crash', async () => {
      await ctx.app.worker.stop();
      const me = (await api.get('/v2/me')).json();
      const lines: { level: number; msg: string }[] = [];
      const log = pino(
        { level: 'info' },
        new Writable({
          write(chunk, _encoding, done) {
            lines.push(JSON.parse(String(chunk)));
            done();
          },
        }),
      );
      const worker = new TaskWorker(
        ctx.db,
        [
          taskType({
            name: 'export',
            params: Type.Object({}),
            run: async (_task, _params, tc) => {
              await tc.db.transaction((tx) => tc.complete(tx, { files: 0 }));
              throw new Error('the clean-up after the commit failed');
            },
          }),
        ],
        { concurrency: 1, pollMs: 10, log },
      );
      const id = await insertTask(ctx.db, { organizationId: me.organization_id, type: 'export', params: {} });
      worker.start();
      try {
        const task = await api.waitForTask(id);
        assert.equal(task.state, 'succeeded');
        assert.deepEqual(task.result, { files: 0 });
        for (let i = 0; i < 100 && !lines.some((l) => /clean-up failed/.test(l.msg)); i++)
          await new Promise((r) => setTimeout(r, 10));
      } finally {
        await worker.stop();
      }
      assert.ok(
        lines.some((l) => l.msg === 'task finished, then its clean-up failed' && l.level === 40),
        JSON.stringify(lines),
      );
      assert.ok(!lines.some((l) => l.msg === 'task crashed'), JSON.stringify(lines));
    });

    test('a task whose params do not match its type’s schema fails, saying which param, without running', async () => {
      await ctx.app.worker.stop();
      const me = (await api.get('/v2/me')).json();
      const id = await insertTask(ctx.db, {
        organizationId: me.organization_id,
        type: 'job_export',
        params: { jobId: 'seven', type: 'files' },
      });
      await storeTaskFile(ctx.db, id, [Buffer.from('partial zip')], 1 << 20);
      await ctx.app.worker.drain();
      const task = (await api.get(`/v2/tasks?id=${id}`)).json();
      assert.equal(task.state, 'failed');
      assert.equal(task.error_code, 'INTERNAL_ERROR');
      assert.match(task.error, /params of a job_export task do not match its schema: params\.jobId/);
      // Its give-up policy ran: the export's partial file is gone.
      const file = await ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM task_files WHERE task_id = ?', [
        id,
      ]);
      assert.equal(Number(file!.n), 0);
      ctx.app.worker.start();
    });

    test('GET /v2/tasks of another organization or unknown id is 404', async () => {
      assert.equal((await api.get('/v2/tasks?id=999999')).statusCode, 404);
      assert.equal((await api.get('/v2/tasks?id=abc')).statusCode, 400);
    });
  });
}

for (const target of await storeTargets()) {
  describe(`what dead instances held, on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    test('uploads, export marks and running tasks of a dead instance are released; a live one keeps its own', async () => {
      const me = (await api.get('/v2/me')).json();
      const memory = (await api.post('/v2/memories', { name: 'Swept', srclang: 'en', trglang: 'fr' })).json();
      const project = (await api.post('/v2/projects', { name: 'Swept', memory_id: memory.id })).json();
      const done = (
        await api.upload('/v2/documents/files', 'Hello.\n', {
          'lilt-api': JSON.stringify({ name: 'done.txt', project_id: project.id }),
        })
      ).json();
      for (
        let i = 0;
        i < 200 && (await api.get(`/v2/documents?id=${done.id}`)).json().import_in_progress;
        i++
      ) {
        await new Promise((r) => setTimeout(r, 25));
      }
      // A process that died a minute ago, holding: a memory import being uploaded, a document being
      // uploaded, an export being streamed, a running task.
      const dead = 'dead-instance';
      const past = nowSeconds() - 60;
      await ctx.db.run('INSERT INTO instances (id, started_at, heartbeat_at) VALUES (?, ?, ?)', [
        dead,
        past,
        past,
      ]);
      const uploadJob = await insertTask(ctx.db, {
        organizationId: me.organization_id,
        type: 'memory_import',
        state: 'uploading',
        memoryId: memory.id,
        params: { name: 'half.tmx', createdBy: 'admin' },
        workerId: dead,
      });
      await storeTaskFile(ctx.db, uploadJob, [Buffer.from('<tmx version="1.4"><bo')], 1 << 20);
      const half = await ctx.db.get<{ id: number }>(
        `INSERT INTO documents (organization_id, project_id, name, format, srclang, trglang, import_state, owner, created_at, updated_at)
         VALUES (?, ?, 'half.txt', 'text', 'en', 'fr', 'uploading', ?, ?, ?) RETURNING id`,
        [me.organization_id, project.id, dead, past, past],
      );
      await ctx.db.run('INSERT INTO document_files (document_id, seq, data) VALUES (?, 0, ?)', [
        half!.id,
        Buffer.from('Hel'),
      ]);
      await ctx.db.run('UPDATE documents SET export_started_at = ?, owner = ? WHERE id = ?', [
        past,
        dead,
        done.id,
      ]);
      const runningJob = await insertTask(ctx.db, {
        organizationId: me.organization_id,
        type: 'export',
        params: {},
      });
      await ctx.db.run("UPDATE tasks SET state = 'running', worker_id = ?, lease_until = ? WHERE id = ?", [
        dead,
        nowSeconds() + 3600,
        runningJob,
      ]);
      // And what this live instance holds at the same moment must stay.
      const liveUpload = await insertTask(ctx.db, {
        organizationId: me.organization_id,
        type: 'memory_import',
        state: 'uploading',
        memoryId: memory.id,
        workerId: ctx.app.instance.id,
      });

      assert.equal((await api.get(`/v2/memories?id=${memory.id}`)).json()[0].is_processing, true);
      assert.equal((await api.get(`/v2/documents?id=${done.id}`)).json().export_in_progress, true);
      assert.equal((await api.get(`/v2/documents/files?id=${done.id}`)).statusCode, 409);

      await ctx.app.instance.sweep();

      const count = async (sql: string, params: (number | string)[]) =>
        (await ctx.db.get<{ n: number }>(sql, params))!.n;
      assert.equal(await count('SELECT COUNT(*) AS n FROM tasks WHERE id = ?', [uploadJob]), 0);
      assert.equal(await count('SELECT COUNT(*) AS n FROM task_files WHERE task_id = ?', [uploadJob]), 0);
      assert.equal(await count('SELECT COUNT(*) AS n FROM documents WHERE id = ?', [half!.id]), 0);
      assert.equal(
        await count('SELECT COUNT(*) AS n FROM document_files WHERE document_id = ?', [half!.id]),
        0,
      );
      const doc = (await api.get(`/v2/documents?id=${done.id}`)).json();
      assert.equal(doc.export_in_progress, false);
      assert.match(doc.export_error_message, /interrupted/);
      assert.equal((await api.get(`/v2/documents/files?id=${done.id}`)).statusCode, 200);
      const requeued = await ctx.db.get<{ state: string; worker_id: string | null }>(
        'SELECT state, worker_id FROM tasks WHERE id = ?',
        [runningJob],
      );
      // Released from the dead instance: queued again, unless this live instance's worker (which polls
      // meanwhile) has claimed it already — then it is this instance's, running or finished.
      assert.ok(requeued, 'the task is still there');
      if (requeued.state === 'queued') assert.equal(requeued.worker_id, null);
      else assert.equal(requeued.worker_id, ctx.app.instance.id, JSON.stringify(requeued));
      assert.equal(await count('SELECT COUNT(*) AS n FROM tasks WHERE id = ?', [liveUpload]), 1);
      await ctx.db.run('DELETE FROM tasks WHERE id IN (?, ?)', [liveUpload, runningJob]);
      // No import of the memory is left at all: as Lilt says of a memory nothing was imported into, null.
      assert.equal((await api.get(`/v2/memories?id=${memory.id}`)).json()[0].is_processing, null);
    });

    test("a finished import's file, left by a crash after its commit, goes with the sweep", async () => {
      const memory = (
        await api.post('/v2/memories', { name: 'Leftovers', srclang: 'en', trglang: 'fr' })
      ).json();
      const me = (await api.get('/v2/me')).json();
      const task = async (type: 'memory_import' | 'export', state: string) => {
        const id = await insertTask(ctx.db, {
          organizationId: me.organization_id,
          type,
          memoryId: type === 'memory_import' ? memory.id : undefined,
          params: { name: 'left.tmx', createdBy: 'admin' },
        });
        await ctx.db.run('UPDATE tasks SET state = ?, worker_id = ? WHERE id = ?', [state, 'elsewhere', id]);
        await storeTaskFile(ctx.db, id, [Buffer.from(tmx(10))], 1 << 20);
        return id;
      };
      // What a crash between an import's commit and its clean-up leaves, for one that succeeded and one
      // that failed; an import still running keeps its own, and so does an export (its file is its result).
      const succeeded = await task('memory_import', 'succeeded');
      const failed = await task('memory_import', 'failed');
      const running = await task('memory_import', 'running');
      const exported = await task('export', 'succeeded');

      await ctx.app.instance.sweep();

      const count = async (table: string, id: number) =>
        Number(
          (await ctx.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE task_id = ?`, [id]))!.n,
        );
      for (const id of [succeeded, failed]) {
        assert.equal(await count('task_files', id), 0, `file of task ${id}`);
      }
      assert.ok((await count('task_files', running)) > 0);
      assert.ok((await count('task_files', exported)) > 0);
      await ctx.db.run("UPDATE tasks SET state = 'failed' WHERE id = ?", [running]);
    });
  });
}
