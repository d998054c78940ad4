// Operations on every store: probes, metrics, the OpenAPI document and reference, migrations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { migrate } from '../src/store/migrate.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`operations on ${target.name}`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await createContext(target);
    });
    after(() => ctx.close());

    const get = (url: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers });

    test('health, readiness, metrics, OpenAPI and docs', async () => {
      assert.deepEqual((await get('/healthz')).json(), { status: 'ok' });
      assert.deepEqual((await get('/readyz')).json(), { status: 'ready' });
      await get(`/v2/languages?key=${ctx.adminKey}`);
      const metrics = await get('/metrics');
      assert.equal(metrics.statusCode, 200);
      assert.match(
        metrics.body,
        /tessera_http_requests_total\{method="GET",route="\/v2\/languages",status="200"\} \d+/,
      );
      assert.ok(!metrics.body.includes(ctx.adminKey));
      assert.match(metrics.body, /# TYPE tessera_memory_query_duration_seconds histogram/);
      assert.match(metrics.body, /# TYPE tessera_tasks gauge/);
      const openapi = await get('/v2/openapi.json');
      assert.equal(openapi.statusCode, 200);
      const doc = openapi.json();
      assert.equal(doc.openapi, '3.0.3');
      assert.ok(doc.paths['/v2/languages'].get);
      const result = await validate(structuredClone(doc));
      assert.equal(result.valid, true, JSON.stringify(result));
      const docs = await get('/docs/');
      assert.equal(docs.statusCode, 200);
      assert.match(docs.body, /<html/i);
      assert.ok(!/https?:\/\/(unpkg|cdn)/.test(docs.body), 'docs load nothing from the network');
    });

    test('migrations are recorded and applying them again is a no-op, even concurrently', async () => {
      const [a, b] = await Promise.all([migrate(ctx.db), migrate(ctx.db)]);
      assert.deepEqual([...a, ...b], []);
    });
  });
}
