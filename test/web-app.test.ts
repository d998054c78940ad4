// The web application as the server serves it: index.html for the app's routes (no-cache, a fresh style nonce in
// its Content-Security-Policy), hashed assets cached for good, the API, probes and /docs untouched, a 401 without
// a Basic challenge for the app's own requests, and a plain answer when the app was never built.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Fastify from 'fastify';
import type { App } from '../src/http/types.ts';
import { webAppPlugin } from '../src/http/web-app.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';
import { ensureWebBuild } from './helpers/web-build.ts';

let ctx: TestContext;
before(async () => {
  await ensureWebBuild();
  const [sqlite] = await storeTargets();
  ctx = await createContext(sqlite);
});
after(() => ctx?.close());

const get = (url: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') =>
  ctx.app.inject({ method: 'GET', url, headers: { accept } });

test('the app’s routes answer index.html, never cached, with a strict policy and a fresh style nonce', async () => {
  const pages = await Promise.all(
    ['/', '/projects', '/projects/7', '/documents/3?seg=12&status=new'].map((u) => get(u)),
  );
  const nonces = new Set<string>();
  for (const page of pages) {
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-cache');
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/, 'no inline script, no nonce for scripts');
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(csp)![1];
    assert.ok(page.body.includes(`content="${nonce}"`), 'the page carries its nonce for CodeMirror');
    assert.ok(!page.body.includes('__CSP_NONCE__'));
    nonces.add(nonce);
  }
  assert.equal(nonces.size, pages.length, 'one nonce per response');
});

test('hashed assets are immutable; a missing one is a JSON 404, not the page', async () => {
  const page = await get('/');
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)![1];
  const asset = await get(script, '*/*');
  assert.equal(asset.statusCode, 200);
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(String(asset.headers['content-type']), /javascript/);
  const missing = await get('/assets/nothing-here.js', '*/*');
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().code, 'ROUTE_NOT_FOUND');
  assert.equal((await get('/favicon.svg', '*/*')).statusCode, 200);
});

test('API, docs, metrics and probes keep their answers; only HTML requests get the page', async () => {
  assert.equal((await get('/v2/languages')).statusCode, 401);
  const unknown = await ctx.app.inject({
    method: 'GET',
    url: '/v2/nothing',
    headers: { authorization: `Bearer ${ctx.adminKey}` },
  });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().code, 'ROUTE_NOT_FOUND');
  assert.equal((await get('/healthz')).statusCode, 200);
  assert.match((await get('/metrics', '*/*')).body, /^# HELP/m);
  assert.match((await get('/docs')).body, /swagger/i);
  const json = await get('/projects', 'application/json');
  assert.equal(json.statusCode, 404);
  assert.equal((await ctx.app.inject({ method: 'POST', url: '/projects' })).statusCode, 404);
});

test('a 401 to the web application carries no Basic challenge; to any other client it does', async () => {
  const api = await get('/v2/me', 'application/json');
  assert.equal(api.statusCode, 401);
  assert.equal(api.headers['www-authenticate'], 'Basic realm="tessera"');
  const web = await ctx.app.inject({
    method: 'GET',
    url: '/v2/me',
    headers: { accept: 'application/json', 'x-requested-with': 'tessera-web' },
  });
  assert.equal(web.statusCode, 401);
  assert.equal(web.headers['www-authenticate'], undefined);
});

test('without a build the API is served, the log says why, and a page request gets a plain answer', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'tessera-no-web-'));
  const lines: string[] = [];
  const app = Fastify({
    logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
  }) as unknown as App;
  try {
    await app.register(webAppPlugin, { root: empty });
    app.get('/healthz', async () => ({ ok: true }));
    await app.ready();
    assert.match(lines.join(''), /web application not built/);
    const page = await app.inject({ method: 'GET', url: '/projects', headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 503);
    assert.match(page.body, /npm run build/);
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  } finally {
    await app.close();
    rmSync(empty, { recursive: true, force: true });
  }
});
