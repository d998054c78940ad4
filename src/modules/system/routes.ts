// Root and probes: GET /v2, /healthz (process alive), /readyz (store reachable and migrated).
import type { App } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import { ApiRoot } from './schemas.ts';
import { readiness } from './service.ts';

export async function systemRoutes(app: App, options: { db: Db; isWarm: () => boolean }) {
  const root = async () => ({ api_name: 'Tessera REST API v2', api_root: '/v2' });
  app.get('/v2', { schema: { summary: 'API root', tags: ['system'], response: { 200: ApiRoot } } }, root);
  // Lilt's older Node SDK asks for its root with a trailing slash; one route in the OpenAPI document is enough.
  app.get('/v2/', { schema: { hide: true, response: { 200: ApiRoot } } }, root);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const answer = await readiness(options.db, options.isWarm);
    return reply.code(answer.status === 'ready' ? 200 : 503).send(answer);
  });
}
