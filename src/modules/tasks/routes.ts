// GET /v2/tasks?id=: a task's state, progress and outcome (extension); task counts in /metrics.
import { Gauge } from 'prom-client';
import { principalOf } from '../../http/principal.ts';
import { IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import type { LiveProgress } from '../../tasks/task-worker.ts';
import { Task } from './schemas.ts';
import * as service from './service.ts';

export async function tasksRoutes(app: App, options: { db: Db; tasks: LiveProgress }) {
  const { db, tasks } = options;
  new Gauge({
    name: 'tessera_tasks',
    help: 'Tasks by type and state',
    labelNames: ['type', 'state'],
    registers: [app.metrics],
    async collect() {
      this.reset();
      for (const r of await service.taskCounts(db)) this.set({ type: r.type, state: r.state }, r.n);
    },
  });

  app.get(
    '/v2/tasks',
    {
      schema: {
        summary: 'A task: state, progress, result or error (extension)',
        tags: ['tasks'],
        querystring: IdQuery,
        response: { 200: Task },
      },
    },
    async (request) => service.getTask(db, tasks, principalOf(request), request.query.id),
  );
}
