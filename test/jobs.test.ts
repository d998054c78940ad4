// Jobs on every store: claimed once across workers, re-run after a dead worker's lease expires, idempotent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { storeJobFile } from '../src/jobs/job-files.ts';
import { claimJob, insertJob } from '../src/jobs/queue.ts';
import { nowSeconds } from '../src/store/db.ts';
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
  describe(`jobs on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    test('a job left running by a dead process runs again after its lease, and applies exactly once', async () => {
      const memory = (await api.post('/v2/memories', { name: 'Crash', srclang: 'en', trglang: 'fr' })).json();
      const me = (await api.get('/v2/me')).json();
      // The state a crash leaves: running, lease expired, half-written staging rows, file stored.
      const jobId = await insertJob(ctx.db, {
        organizationId: me.organization_id,
        type: 'memory_import',
        state: 'uploading',
        memoryId: memory.id,
        params: { name: 'crash.tmx', createdBy: 'admin' },
      });
      await storeJobFile(ctx.db, jobId, [Buffer.from(tmx(105))], 1 << 20);
      await ctx.db.run(
        `UPDATE jobs SET state = 'running', worker_id = 'dead-worker', attempts = 1, lease_until = ?, started_at = ? WHERE id = ?`,
        [nowSeconds() - 1, nowSeconds() - 120, jobId],
      );
      await ctx.db.insertMany(
        'import_staging',
        ['job_id', 'seq', 'source', 'target', 'pair_hash'],
        [
          [jobId, 0, 'half', 'moitié', 'h1'],
          [jobId, 1, 'written', 'écrit', 'h2'],
        ],
      );
      ctx.app.worker.wake();
      const job = await api.waitForJob(jobId);
      assert.equal(job.state, 'succeeded', job.error);
      assert.deepEqual(job.result, { imported: 100, skipped: 1, duplicates: 5 });
      const row = await ctx.db.get<{ attempts: number; worker_id: string }>(
        'SELECT attempts, worker_id FROM jobs WHERE id = ?',
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
      const staging = await ctx.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM import_staging WHERE job_id = ?',
        [jobId],
      );
      assert.equal(Number(staging!.n), 0);

      // A second run of a finished job is impossible: it is no longer claimable.
      assert.equal(await claimJob(ctx.db, 'another', 60), undefined);
    });

    test('concurrent workers claim each job exactly once', async () => {
      await ctx.app.worker.stop();
      const me = (await api.get('/v2/me')).json();
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) {
        ids.push(await insertJob(ctx.db, { organizationId: me.organization_id, type: 'export', params: {} }));
      }
      const claimed: number[][] = [[], [], []];
      await Promise.all(
        claimed.map(async (mine, w) => {
          for (
            let job = await claimJob(ctx.db, `w${w}`, 60);
            job;
            job = await claimJob(ctx.db, `w${w}`, 60)
          ) {
            mine.push(Number(job.id));
          }
        }),
      );
      const all = claimed.flat().sort((a, b) => a - b);
      assert.deepEqual(all, ids);
      const rows = await ctx.db.all<{ worker_id: string }>(
        `SELECT worker_id FROM jobs WHERE id IN (${ids.map(() => '?').join(',')})`,
        ids,
      );
      assert.ok(rows.every((r) => /^w[012]$/.test(r.worker_id)));
    });

    test('GET /v2/jobs of another organization or unknown id is 404', async () => {
      assert.equal((await api.get('/v2/jobs?id=999999')).statusCode, 404);
      assert.equal((await api.get('/v2/jobs?id=abc')).statusCode, 400);
    });
  });
}
