// Root and probes: GET /v2, /healthz (process alive), /readyz (store reachable and migrated).
import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import { isMigrated } from '../../store/migrate.ts';

export async function systemRoutes(app: App, options: { db: Db; isWarm: () => boolean }) {
  app.get(
    '/v2',
    {
      schema: {
        summary: 'API root',
        tags: ['system'],
        response: { 200: Type.Object({ api_name: Type.String(), api_root: Type.String() }) },
      },
    },
    async () => ({ api_name: 'Tessera REST API v2', api_root: '/v2' }),
  );

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await options.db.ping();
      if (!(await isMigrated(options.db))) {
        return reply
          .code(503)
          .send({ status: 'not ready', message: 'Store is not migrated', code: 'NOT_MIGRATED' });
      }
      if (!options.isWarm()) {
        return reply
          .code(503)
          .send({ status: 'not ready', message: 'Loading memory indexes', code: 'WARMING_UP' });
      }
      return { status: 'ready' };
    } catch {
      return reply
        .code(503)
        .send({ status: 'not ready', message: 'Store is unreachable', code: 'STORE_UNAVAILABLE' });
    }
  });
}
