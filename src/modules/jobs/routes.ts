// GET /v2/jobs?id=: a job's state, progress and outcome (extension).
import { Gauge } from 'prom-client';
import { Type } from 'typebox';
import { errors } from '../../errors.ts';
import type { App } from '../../http/types.ts';
import { principalOf } from '../../http/types.ts';
import { findJob, publicJob } from '../../jobs/queue.ts';
import type { Db } from '../../store/db.ts';

const Job = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  state: Type.String(),
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  result: Type.Unknown(),
  error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.Integer(),
  started_at: Type.Union([Type.Integer(), Type.Null()]),
  finished_at: Type.Union([Type.Integer(), Type.Null()]),
});

export async function jobsRoutes(app: App, options: { db: Db }) {
  new Gauge({
    name: 'tessera_jobs',
    help: 'Jobs by type and state',
    labelNames: ['type', 'state'],
    registers: [app.metrics],
    async collect() {
      this.reset();
      const rows = await options.db.all<{ type: string; state: string; n: number }>(
        'SELECT type, state, COUNT(*) AS n FROM jobs GROUP BY type, state',
      );
      for (const r of rows) this.set({ type: r.type, state: r.state }, Number(r.n));
    },
  });

  app.get(
    '/v2/jobs',
    {
      schema: {
        summary: 'A job: state, progress, result or error (extension)',
        tags: ['jobs'],
        querystring: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        response: { 200: Job },
      },
    },
    async (request) => {
      const row = await findJob(options.db, request.query.id, principalOf(request).organizationId);
      if (!row) throw errors.notFound('Job', request.query.id);
      return publicJob(row);
    },
  );
}
