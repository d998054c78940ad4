// Foundation through app.inject on every store: authentication, tenancy, languages, errors, operations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { migrate } from '../src/store/migrate.ts';
import { basic, createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`foundation on ${target.name}`, () => {
    let ctx: TestContext;
    let memberKey: string;
    let otherOrgKey: string;
    before(async () => {
      ctx = await createContext(target, {}, (app) => {
        app.get('/v2/test-crash', async () => {
          throw new Error('SELECT secret FROM /var/lib/tessera/data.db');
        });
      });
      memberKey = await userKey(ctx, { username: 'maria', password: 'correct horse', role: 'member' });
      otherOrgKey = await userKey(ctx, {
        username: 'olaf',
        password: 'other org pass',
        role: 'admin',
        organization: 'acme',
      });
    });
    after(() => ctx.close());

    const get = (url: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers });

    function assertUnauthorized(res: Awaited<ReturnType<typeof get>>) {
      assert.equal(res.statusCode, 401);
      assert.equal(res.body, 'Unauthorized');
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.equal(res.headers['www-authenticate'], 'Basic realm="tessera"');
    }

    test('GET /v2 answers the API root with a key in the query', async () => {
      const res = await get(`/v2?key=${ctx.adminKey}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { api_name: 'Tessera REST API v2', api_root: '/v2' });
    });

    test('Basic with the key as user and password', async () => {
      const res = await get('/v2/me', { authorization: basic(ctx.adminKey, ctx.adminKey) });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().username, 'admin');
      assert.equal(res.json().role, 'admin');
    });

    test('Basic with a username and password', async () => {
      const res = await get('/v2/me', { authorization: basic('maria', 'correct horse') });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().username, 'maria');
      assert.equal(res.json().role, 'member');
    });

    test('Bearer with a key', async () => {
      const res = await get('/v2/me', { authorization: `Bearer ${memberKey}` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().username, 'maria');
    });

    test('no credentials → 401 text/plain with WWW-Authenticate', async () => {
      assertUnauthorized(await get('/v2/languages'));
    });

    test('wrong key → 401 in every form', async () => {
      const wrong = `${ctx.adminKey.slice(0, -1)}X`;
      assertUnauthorized(await get(`/v2/languages?key=${wrong}`));
      assertUnauthorized(await get('/v2/languages', { authorization: basic(wrong, wrong) }));
      assertUnauthorized(await get('/v2/languages', { authorization: `Bearer ${wrong}` }));
      assertUnauthorized(await get('/v2/languages?key=short'));
    });

    test('wrong password and unknown user → 401', async () => {
      assertUnauthorized(await get('/v2/languages', { authorization: basic('maria', 'wrong horse') }));
      assertUnauthorized(await get('/v2/languages', { authorization: basic('nobody', 'correct horse') }));
    });

    test('malformed Basic headers → 401', async () => {
      assertUnauthorized(await get('/v2/languages', { authorization: 'Basic' }));
      assertUnauthorized(await get('/v2/languages', { authorization: 'Basic %%%not-base64%%%' }));
      assertUnauthorized(
        await get('/v2/languages', { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }),
      );
      assertUnauthorized(await get('/v2/languages', { authorization: basic('maria', '') }));
      assertUnauthorized(await get('/v2/languages', { authorization: `Digest ${ctx.adminKey}` }));
    });

    test('empty key → 401, even with a valid Authorization header', async () => {
      assertUnauthorized(await get('/v2/languages?key='));
      assertUnauthorized(
        await get('/v2/languages?key=', { authorization: basic(ctx.adminKey, ctx.adminKey) }),
      );
    });

    test('a revoked key stops working at once', async () => {
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/v2/keys',
        headers: { authorization: `Bearer ${ctx.adminKey}` },
        payload: { name: 'temporary' },
      });
      assert.equal(created.statusCode, 200);
      const { id, key } = created.json();
      assert.match(key, /^tsk_[A-Za-z0-9_-]{43}$/);
      assert.equal((await get(`/v2/languages?key=${key}`)).statusCode, 200);
      const listed = (await get(`/v2/keys?key=${ctx.adminKey}`)).json();
      assert.ok(listed.some((k: { id: number; name: string }) => k.id === id && k.name === 'temporary'));
      assert.ok(!JSON.stringify(listed).includes(key), 'the key itself is never listed');
      const revoked = await ctx.app.inject({
        method: 'DELETE',
        url: `/v2/keys?id=${id}&key=${ctx.adminKey}`,
      });
      assert.deepEqual(revoked.json(), { id, deleted: true });
      assertUnauthorized(await get(`/v2/languages?key=${key}`));
      assertUnauthorized(await get('/v2/languages', { authorization: basic(key, key) }));
    });

    test("another organization's resources are 404, not 403", async () => {
      const me = (await get('/v2/me', { authorization: `Bearer ${otherOrgKey}` })).json();
      assert.equal(me.username, 'olaf');
      const adminKeys = (await get(`/v2/keys?key=${ctx.adminKey}`)).json() as { id: number }[];
      const target = adminKeys[0].id;
      const res = await ctx.app.inject({ method: 'DELETE', url: `/v2/keys?id=${target}&key=${otherOrgKey}` });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { message: `API key ${target} not found`, code: 'NOT_FOUND' });
      const theirUsers = (await get(`/v2/users?key=${otherOrgKey}`)).json() as { username: string }[];
      assert.deepEqual(
        theirUsers.map((u) => u.username),
        ['olaf'],
      );
    });

    test('admins create users of their own organization over HTTP', async () => {
      const post = (key: string, payload: object) =>
        ctx.app.inject({
          method: 'POST',
          url: '/v2/users',
          headers: { authorization: `Bearer ${key}` },
          payload,
        });
      const created = await post(otherOrgKey, {
        username: 'ingrid',
        password: 'a fine password',
        role: 'member',
      });
      assert.equal(created.statusCode, 200, created.body);
      assert.equal(created.json().username, 'ingrid');
      assert.equal(created.json().role, 'member');
      const me = (await get('/v2/me', { authorization: basic('ingrid', 'a fine password') })).json();
      const olaf = (await get('/v2/me', { authorization: `Bearer ${otherOrgKey}` })).json();
      assert.equal(me.organization_id, olaf.organization_id);
      assert.equal(
        (await post(otherOrgKey, { username: 'ingrid', password: 'another one' })).statusCode,
        409,
      );
      const short = await post(otherOrgKey, { username: 'kurt', password: 'short' });
      assert.equal(short.statusCode, 400);
      assert.match(short.json().message, /"password"/);
      assert.equal((await post(memberKey, { username: 'nope', password: 'long enough' })).statusCode, 403);
    });

    test('members cannot administer keys', async () => {
      const res = await get(`/v2/users?key=${memberKey}`);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'FORBIDDEN');
    });

    test('GET /v2/languages lists every ordered pair and names every code', async () => {
      const res = await get(`/v2/languages?key=${ctx.adminKey}`);
      assert.equal(res.statusCode, 200);
      const body = res.json() as {
        source_to_target: Record<string, Record<string, boolean>>;
        code_to_name: Record<string, string>;
      };
      assert.equal(body.source_to_target.en.de, true);
      assert.equal(body.source_to_target.ja.en, true);
      assert.equal(body.source_to_target.en.en, undefined);
      assert.equal(body.code_to_name.de, 'German');
      assert.equal(body.code_to_name.ja, 'Japanese');
      const codes = Object.keys(body.source_to_target);
      assert.equal(codes.length, 183);
      for (const [source, targets] of Object.entries(body.source_to_target)) {
        assert.ok(body.code_to_name[source], `${source} is named`);
        assert.equal(Object.keys(targets).length, codes.length - 1);
        for (const t of Object.keys(targets)) assert.ok(body.code_to_name[t], `${t} is named`);
      }
    });

    test('unknown routes are JSON 404, unknown methods JSON 405 with Allow', async () => {
      const missing = await get(`/v2/nothing-here?key=${ctx.adminKey}`);
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { message: 'No route GET /v2/nothing-here', code: 'ROUTE_NOT_FOUND' });
      const wrongMethod = await ctx.app.inject({
        method: 'DELETE',
        url: `/v2/languages?key=${ctx.adminKey}`,
      });
      assert.equal(wrongMethod.statusCode, 405);
      assert.equal(wrongMethod.json().code, 'METHOD_NOT_ALLOWED');
      assert.match(String(wrongMethod.headers.allow), /GET/);
    });

    test('a bad parameter is a 400 that names it', async () => {
      const res = await ctx.app.inject({ method: 'DELETE', url: `/v2/keys?id=abc&key=${ctx.adminKey}` });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, 'BAD_PARAMETER');
      assert.match(res.json().message, /"id"/);
      const missing = await ctx.app.inject({ method: 'DELETE', url: `/v2/keys?key=${ctx.adminKey}` });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().message, 'Parameter "id" is required');
    });

    test('a 5xx shows nothing of the internals', async () => {
      const res = await get(`/v2/test-crash?key=${ctx.adminKey}`);
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { message: 'Internal server error', code: 'INTERNAL_ERROR' });
      assert.ok(!res.body.includes('SELECT') && !res.body.includes('/var/lib'));
    });

    test('logs never contain an API key or an Authorization header', async () => {
      await get(`/v2/languages?key=${ctx.adminKey}`);
      await get('/v2/me', { authorization: basic(ctx.adminKey, ctx.adminKey) });
      await get('/v2/me', { authorization: basic('maria', 'correct horse') });
      await get(`/v2/nothing?key=${memberKey}`);
      const logs = ctx.logs();
      assert.ok(logs.includes('key=[REDACTED]'), 'the request was logged, with its key redacted');
      for (const secret of [
        ctx.adminKey,
        memberKey,
        'correct horse',
        Buffer.from(`${ctx.adminKey}:${ctx.adminKey}`).toString('base64'),
        Buffer.from('maria:correct horse').toString('base64'),
      ]) {
        assert.ok(!logs.includes(secret), `log holds a secret: ${secret.slice(0, 8)}…`);
      }
    });

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
      assert.match(metrics.body, /# TYPE tessera_jobs gauge/);
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

  describe(`limits and settings on ${target.name}`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await createContext(target, {
        TESSERA_LANGUAGES: 'en,de,fr',
        TESSERA_RATE_LIMIT: '3',
        TESSERA_MAX_UPLOAD_BYTES: '2048',
      });
    });
    after(() => ctx.close());

    test('TESSERA_LANGUAGES restricts pairs and names', async () => {
      const body = (await ctx.app.inject({ url: `/v2/languages?key=${ctx.adminKey}` })).json();
      assert.deepEqual(body, {
        source_to_target: {
          de: { en: true, fr: true },
          en: { de: true, fr: true },
          fr: { de: true, en: true },
        },
        code_to_name: { de: 'German', en: 'English', fr: 'French' },
      });
    });

    test('a body over the limit → 413', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v2/keys',
        headers: { authorization: `Bearer ${ctx.adminKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(4000) }),
      });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().code, 'PAYLOAD_TOO_LARGE');
    });

    test('rate limit per key: 429 with Retry-After; other keys unaffected', async () => {
      const key = await userKey(ctx, { username: 'rl', password: 'password1', role: 'member' });
      const other = await userKey(ctx, { username: 'rl2', password: 'password1', role: 'member' });
      for (let i = 0; i < 3; i++)
        assert.equal((await ctx.app.inject({ url: `/v2?key=${key}` })).statusCode, 200);
      const limited = await ctx.app.inject({ url: `/v2?key=${key}` });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'RATE_LIMITED');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.equal((await ctx.app.inject({ url: `/v2?key=${other}` })).statusCode, 200);
    });
  });
}
