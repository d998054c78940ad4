// The contract's common shapes on every store: languages, JSON errors for unknown routes and methods, bad
// parameters named, 5xx answers that show nothing of the internals.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`api contract on ${target.name}`, () => {
    let ctx: TestContext;
    before(async () => {
      // Outside /v2: every route of the API needs an entry in the route policy (src/http/policy.ts), and a
      // test's own route is none of the API's. The error handler answers the same everywhere.
      ctx = await createContext(target, {}, (app) => {
        app.get('/test-crash', async () => {
          throw new Error('SELECT secret FROM /var/lib/tessera/data.db');
        });
      });
    });
    after(() => ctx.close());

    const get = (url: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers });

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

    test('GET /v2/languages: gzip when accepted, the same bytes; 304 for the ETag the client holds', async () => {
      const plain = await get(`/v2/languages?key=${ctx.adminKey}`);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.match(String(plain.headers['content-type']), /^application\/json/);
      const etag = String(plain.headers.etag);
      assert.match(etag, /^"[\w-]{20,}"$/);
      assert.equal(plain.headers.vary, 'accept-encoding');

      const zipped = await get(`/v2/languages?key=${ctx.adminKey}`, {
        'accept-encoding': 'br;q=1, gzip;q=0.8',
      });
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      assert.ok(zipped.rawPayload.length < plain.rawPayload.length / 20, 'compressed');
      assert.equal(gunzipSync(zipped.rawPayload).toString('utf8'), plain.body);
      assert.equal(zipped.headers.etag, etag);
      // gzip refused: the plain bytes.
      const refused = await get(`/v2/languages?key=${ctx.adminKey}`, {
        'accept-encoding': 'gzip;q=0, identity',
      });
      assert.equal(refused.headers['content-encoding'], undefined);
      assert.equal(refused.body, plain.body);

      const unchanged = await get(`/v2/languages?key=${ctx.adminKey}`, {
        'if-none-match': `"other", ${etag}`,
      });
      assert.equal(unchanged.statusCode, 304);
      assert.equal(unchanged.body, '');
      const changed = await get(`/v2/languages?key=${ctx.adminKey}`, { 'if-none-match': '"other"' });
      assert.equal(changed.statusCode, 200);
      assert.equal(changed.body, plain.body);
      // The tag says nothing to a client without a valid key.
      const anonymous = await get('/v2/languages', { 'if-none-match': etag });
      assert.equal(anonymous.statusCode, 401);
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
      const nul = await ctx.app.inject({ url: `/v2/memories/query?id=1&query=a%00b&key=${ctx.adminKey}` });
      assert.equal(nul.statusCode, 400);
      assert.equal(nul.json().message, 'Parameter "query" must not contain the NUL character');
      const huge = await ctx.app.inject({ url: `/v2/memories?id=1e309&key=${ctx.adminKey}` });
      assert.equal(huge.statusCode, 400);
      assert.match(huge.json().message, /"id"/);
    });

    test('a 5xx shows nothing of the internals', async () => {
      const res = await get(`/test-crash?key=${ctx.adminKey}`);
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { message: 'Internal server error', code: 'INTERNAL_ERROR' });
      assert.ok(!res.body.includes('SELECT') && !res.body.includes('/var/lib'));
    });

    test('requests that never reach a route answer in the contract too, echoing nothing', async () => {
      const badUrl = await get(`/v2/memories%ZZ?key=${ctx.adminKey}`);
      assert.equal(badUrl.statusCode, 400);
      assert.equal(badUrl.json().code, 'BAD_URL');
      assert.ok(!badUrl.body.includes(ctx.adminKey));

      // What Node's own HTTP parser refuses needs a real socket.
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = ctx.app.server.address() as { port: number };
      const raw = (request: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.end(request));
          let text = '';
          socket.on('data', (d) => {
            text += d;
          });
          socket.on('error', reject);
          socket.on('close', () => {
            const [head, body = ''] = text.split('\r\n\r\n');
            resolve({ status: Number(head.split(' ')[1]), body });
          });
        });
      const long = await raw(
        `GET /v2/memories/query?query=${'x'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      assert.equal(long.status, 431);
      assert.equal(JSON.parse(long.body).code, 'HEADERS_TOO_LARGE');
      const length = await raw(
        'POST /v2/memories HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n',
      );
      assert.equal(length.status, 400);
      assert.deepEqual(Object.keys(JSON.parse(length.body)), ['message', 'code']);
    });

    test('a client that aborts an upload is logged as such, not as a server error, and leaves nothing', async () => {
      const memory = (
        await ctx.app.inject({
          method: 'POST',
          url: `/v2/memories?key=${ctx.adminKey}`,
          payload: { name: 'Abort', srclang: 'en', trglang: 'de' },
        })
      ).json();
      if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = ctx.app.server.address() as { port: number };
      const logsBefore = ctx.logs().length;
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            `POST /v2/memories/import?memory_id=${memory.id}&name=cut.tmx&key=${ctx.adminKey} HTTP/1.1\r\n` +
              'Host: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n<tmx',
          );
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('close', () => resolve());
      });
      // The server notices the abort on its side a moment later.
      for (let i = 0; i < 100 && !ctx.logs().includes('client closed the connection'); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const lines = ctx
        .logs()
        .split('\n')
        .filter((l) => l.includes('/v2/memories/import') || l.includes('client closed'));
      assert.ok(ctx.logs().includes('client closed the connection'), lines.join('\n'));
      const errors = ctx
        .logs()
        .slice(logsBefore)
        .split('\n')
        .filter((l) => l.startsWith('{') && JSON.parse(l).level >= 50);
      assert.deepEqual(errors, []);
      const left = await ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE memory_id = ?', [
        memory.id,
      ]);
      assert.equal(left?.n, 0, 'the half-uploaded task is gone');
    });
  });
}
