// Every route of the OpenAPI document, its path spelled in hostile ways (percent-encoded letters and slashes,
// dot segments, double encoding, overlong UTF-8, fullwidth and case-folding Unicode, trailing dots and
// slashes, doubled slashes, NUL, very long paths, mixed case), sent without credentials and with another
// organization's key. Whatever the spelling: never a 5xx, never a handler of the API reached without a
// principal, never a 2xx holding the first organization's data, and its data unchanged afterwards. Sent over
// a socket, not app.inject, whose URL parsing would resolve dot segments and re-encode before the server sees
// them. The routes outside the API — probes, metrics, the API's reference and its files, the web application's
// files and pages — get the same spellings and every way of climbing out of their folders: never a 5xx, never
// a file from outside the folder served.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import type { Principal } from '../src/http/principal.ts';
import type { App } from '../src/http/types.ts';
import { webAppPlugin } from '../src/http/web-app.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

/** Routes of the API that answer without credentials (as src/http/auth.ts decides). */
const PUBLIC_API_ROUTES = new Set(['/v2/openapi.json', '/v2/session']);
/** Text only the first organization's data holds: a 2xx answer holding it leaked. */
const MARKER = 'q7marker';

const hex = (c: string, upper = true) => {
  const h = c.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? h.toUpperCase() : h}`;
};
/** Every letter and digit of the path percent-encoded. */
const encodeAll = (path: string, upper = true) => path.replace(/[A-Za-z0-9]/g, (c) => hex(c, upper));
/** The path after its leading "/v2". */
const rest = (path: string) => path.slice(3);

/** Each takes a route's path (starting with /v2) and spells it otherwise. */
const MUTATIONS: [string, (path: string) => string][] = [
  ['canonical', (p) => p],
  ['v2 encoded', (p) => `/%76%32${rest(p)}`],
  ['v2 encoded, lowercase hex', (p) => `/%76%32${rest(p)}`.toLowerCase()],
  ['every letter encoded, uppercase hex', (p) => encodeAll(p)],
  ['every letter encoded, lowercase hex', (p) => encodeAll(p, false)],
  ['last letter encoded', (p) => p.slice(0, -1) + hex(p.slice(-1))],
  ['slashes as %2F', (p) => `/${p.slice(1).replaceAll('/', '%2F')}`],
  ['slashes as %2f', (p) => `/${p.slice(1).replaceAll('/', '%2f')}`],
  ['encoded dot-dot', (p) => `/v2/x/%2e%2e${rest(p)}`],
  ['encoded dot-dot and slash', (p) => `/x/%2e%2e%2f${p.slice(1)}`],
  ['dot-dot', (p) => `/x/..${p}`],
  ['dot segment', (p) => `/v2/.${rest(p)}`],
  ['double encoding of v2', (p) => `/%2576%2532${rest(p)}`],
  ['double encoding of every letter', (p) => p.replace(/[A-Za-z0-9]/g, (c) => `%25${hex(c).slice(1)}`)],
  ['overlong UTF-8 slash', (p) => p.replaceAll('/', '%c0%af')],
  ['overlong UTF-8 slash inside', (p) => `/v2%c0%af${rest(p).slice(1)}`],
  ['overlong UTF-8 dots', (p) => `/v2/%c0%ae%c0%ae${rest(p)}`],
  ['fullwidth solidus', (p) => p.replaceAll('/', '%ef%bc%8f')],
  ['fullwidth v2', (p) => `/%ef%bd%96%ef%bc%92${rest(p)}`],
  ['long s for s (uppercases to S)', (p) => p.replaceAll('s', '%c5%bf')],
  ['dotless i for i', (p) => p.replaceAll('i', '%c4%b1')],
  ['combining accent', (p) => `${p}%cc%81`],
  ['trailing slash', (p) => `${p}/`],
  ['trailing dot', (p) => `${p}.`],
  ['trailing encoded dot', (p) => `${p}%2e`],
  ['trailing space', (p) => `${p}%20`],
  ['trailing semicolon', (p) => `${p};x`],
  ['doubled slashes', (p) => p.replaceAll('/', '//')],
  ['double slash inside', (p) => `/v2/${rest(p)}`],
  ['backslashes', (p) => p.replaceAll('/', '%5C')],
  ['NUL at the end', (p) => `${p}%00`],
  ['NUL inside', (p) => `/v2%00${rest(p)}`],
  ['encoded question mark', (p) => `${p}%3Fx=1`],
  ['encoded hash', (p) => `${p}%23x`],
  ['lone percent', (p) => `${p}%`],
  ['bad percent', (p) => `${p}%zz`],
  ['uppercase V2', (p) => `/V2${rest(p)}`],
  ['uppercase path', (p) => p.toUpperCase()],
  // Under Node's 16 KiB limit on the request head, so that the router sees them (beyond it: 431).
  ['very long', (p) => `${p}/${'a'.repeat(12_000)}`],
  ['very long, encoded', (p) => `/%76%32${rest(p)}${'%2F'.repeat(4_000)}`],
  ['too long for the server', (p) => `${p}/${'a'.repeat(100_000)}`],
];

interface Operation {
  method: string;
  path: string;
}

/** One request over a kept-alive connection, the path sent as given. */
function send(
  port: number,
  agent: http.Agent,
  request: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ statusCode: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: request.method,
        path: request.path,
        headers: request.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

function operations(doc: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  );
}

for (const target of await storeTargets()) {
  describe(`path fuzzing on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let rivalKey: string;
    /** Handlers of the API that ran with no principal: each one a hole. */
    const unauthenticated: string[] = [];
    /** The first organization's ids, so that every request names its data. */
    let query = '';
    let jobId = 0;
    let port = 0;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

    before(async () => {
      ctx = await createContext(target, { TESSERA_RATE_LIMIT: '1000000' }, (app) => {
        app.addHook('preHandler', async (request) => {
          const route = request.routeOptions.url;
          const principal = request.principal as Principal | null;
          if (route?.startsWith('/v2') && !PUBLIC_API_ROUTES.has(route) && !principal) {
            unauthenticated.push(`${request.method} ${request.url.slice(0, 80)} → ${route}`);
          }
        });
      });
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      port = (ctx.app.server.address() as AddressInfo).port;
      api = client(ctx.app, ctx.adminKey);
      rivalKey = await userKey(ctx, {
        username: 'rival-admin',
        password: 'rival-password',
        role: 'admin',
        organization: 'rival',
      });
      const memory = (
        await api.post('/v2/memories', { name: `Memory ${MARKER}`, srclang: 'en', trglang: 'de' })
      ).json();
      const entry = (
        await api.post('/v2/segments', {
          memory_id: memory.id,
          source: `Source ${MARKER}.`,
          target: `Ziel ${MARKER}.`,
        })
      ).json();
      const project = (
        await api.post('/v2/projects', { name: `Project ${MARKER}`, memory_id: memory.id })
      ).json();
      const doc = (
        await api.upload('/v2/documents/files', `Text ${MARKER}.\n`, {
          'lilt-api': JSON.stringify({ name: `${MARKER}.txt`, project_id: project.id }),
        })
      ).json();
      const file = (await api.upload(`/v2/files?name=${MARKER}.txt`, `File ${MARKER}.\n`)).json();
      const job = await api.post('/v2/jobs', {
        name: `Job ${MARKER}`,
        fileIds: [file.id],
        srcLang: 'en',
        languagePairs: [{ trgLang: 'de', memoryId: memory.id }],
      });
      assert.equal(job.statusCode, 200, job.body);
      jobId = job.json().id;
      query = new URLSearchParams({
        id: String(memory.id),
        memory_id: String(memory.id),
        project_id: String(project.id),
        document_id: String(doc.id),
        segment_id: String(entry.id),
        query: 'open',
      }).toString();
    });
    after(async () => {
      agent.destroy();
      await ctx.close();
    });

    test('no spelling of any route reaches the API without a principal, fails, or leaks', async () => {
      const ops = operations((await api.get('/v2/openapi.json')).json());
      assert.ok(ops.length > 50, `only ${ops.length} operations found`);
      const failures: string[] = [];
      let requests = 0;
      for (const op of ops) {
        const path = op.path.replace('{jobId}', String(jobId));
        for (const [name, mutate] of MUTATIONS) {
          for (const as of ['nobody', 'rival'] as const) {
            const url = `${mutate(path)}?${query}`;
            const body =
              op.method === 'POST' || op.method === 'PUT' ? JSON.stringify({ name: 'fuzz' }) : undefined;
            const res = await send(port, agent, {
              method: op.method,
              path: url,
              headers: {
                ...(as === 'rival' ? { authorization: `Bearer ${rivalKey}` } : {}),
                ...(body ? { 'content-type': 'application/json' } : {}),
              },
              body,
            });
            requests++;
            const label = `${op.method} ${op.path} (${name}) as ${as}`;
            if (res.statusCode >= 500)
              failures.push(`${label} → ${res.statusCode} ${res.body.slice(0, 120)}`);
            else if (res.statusCode < 300 && res.body.includes(MARKER))
              failures.push(`${label} → ${res.statusCode} with the first organization's data`);
            else if (
              as === 'nobody' &&
              name === 'canonical' &&
              !PUBLIC_API_ROUTES.has(op.path) &&
              res.statusCode !== 401
            )
              failures.push(`${label} → ${res.statusCode}, not 401`);
          }
        }
      }
      failures.push(...unauthenticated.map((line) => `handler without a principal: ${line}`));
      assert.equal(
        failures.length,
        0,
        `${failures.length} failures in ${requests} requests:\n${failures.slice(0, 40).join('\n')}`,
      );
      // The first organization's data is all there.
      const memories = (await api.get('/v2/memories')).json() as { name: string }[];
      assert.deepEqual(
        memories.map((m) => m.name),
        [`Memory ${MARKER}`],
      );
      assert.equal((await api.get(`/v2/jobs/${jobId}`)).statusCode, 200);
      assert.equal((await api.get(`/v2/projects?${query}`)).json()[0].name, `Project ${MARKER}`);
    });
  });
}

/** Spellings of a path outside the API (no /v2 to encode): each takes the path and spells it otherwise. */
const SERVER_MUTATIONS: [string, (path: string) => string][] = [
  ['canonical', (p) => p],
  // A request's path starts with a slash (without one, Node's parser answers 400 and closes the connection).
  ...MUTATIONS.filter(([name]) => !/v2|dot-dot|dot segment|double slash inside|NUL inside/.test(name)).map(
    ([name, mutate]): [string, (path: string) => string] => [
      name,
      (p) => {
        const spelled = mutate(p);
        return spelled.startsWith('/') ? spelled : `/${spelled}`;
      },
    ],
  ),
  ['first letter encoded', (p) => `/${hex(p[1] ?? 'a')}${p.slice(2)}`],
  ['NUL before the extension', (p) => p.replace(/(\.\w+)?$/, '%00$1')],
];

/** Ways out of a folder to a file beside it (`secret.txt`) or to the machine's own files. */
const ESCAPES = (dir: string) => [
  `${dir}/../secret.txt`,
  `${dir}/../../secret.txt`,
  `${dir}/..%2fsecret.txt`,
  `${dir}/..%2f..%2fsecret.txt`,
  `${dir}/%2e%2e/secret.txt`,
  `${dir}/%2e%2e%2f%2e%2e%2fsecret.txt`,
  `${dir}/..%5csecret.txt`,
  `${dir}/..%5c..%5csecret.txt`,
  `${dir}/%c0%ae%c0%ae%c0%afsecret.txt`,
  `${dir}/%c0%ae%c0%ae/secret.txt`,
  `${dir}/%252e%252e%252fsecret.txt`,
  `${dir}/....//secret.txt`,
  `${dir}/..;/secret.txt`,
  `${dir}/.%2e/secret.txt`,
  `${dir}/%2e./secret.txt`,
  `${dir}/..%00/secret.txt`,
  `${dir}/%ef%bc%8e%ef%bc%8e%ef%bc%8fsecret.txt`,
  `${dir}//etc/passwd`,
  `${dir}/%2fetc%2fpasswd`,
  `${dir}/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd`,
  `${dir}/../../../../../../../../etc/passwd`,
  `${dir}/..%2f..%2f..%2f..%2fpackage.json`,
];

/** What a file from outside a served folder holds: a leak if a 2xx answer holds it. */
const OUTSIDE = [/q7secret/, /root:x?:0:0/, /"devDependencies"/];

describe('path fuzzing of the routes outside the API', () => {
  let ctx: TestContext;
  let site: App;
  let siteDir: string;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  before(async () => {
    const [sqlite] = await storeTargets();
    ctx = await createContext(sqlite, { TESSERA_RATE_LIMIT: '1000000' });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    // The web application's files as a build lays them out, with a file beside the folder that must stay there.
    siteDir = mkdtempSync(join(tmpdir(), 'tessera-fuzz-web-'));
    const root = join(siteDir, 'dist');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(
      join(root, 'index.html'),
      '<!doctype html><title>Tessera</title><meta name="n" content="__CSP_NONCE__">',
    );
    writeFileSync(join(root, 'assets', 'app-3f2a.js'), 'console.log("app");\n');
    writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(siteDir, 'secret.txt'), 'q7secret\n');
    site = Fastify() as unknown as App;
    await site.register(webAppPlugin, { root });
    await site.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    agent.destroy();
    await site.close();
    await ctx.close();
    rmSync(siteDir, { recursive: true, force: true });
  });

  async function fuzz(port: number, paths: string[], escapes: string[]) {
    const failures: string[] = [];
    let requests = 0;
    const urls = [
      ...paths.flatMap((p) => SERVER_MUTATIONS.map(([name, mutate]) => [name, mutate(p)])),
      ...escapes.map((e) => ['escape', e]),
    ];
    for (const [name, url] of urls) {
      for (const accept of ['text/html', '*/*']) {
        const label = `GET ${url.slice(0, 100)} (${name}, ${accept})`;
        requests++;
        const res = await send(port, agent, { method: 'GET', path: url, headers: { accept } }).catch(
          (err: Error) => ({ statusCode: 0, body: err.message }),
        );
        if (res.statusCode === 0) {
          // Past Node's 16 KiB limit on the request head: 431 and the connection closed, as it should be.
          if (url.length <= 16_384) failures.push(`${label} → ${res.body}`);
          continue;
        }
        if (res.statusCode >= 500 && !(res.statusCode === 503 && /not built/.test(res.body)))
          failures.push(`${label} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        else if (res.statusCode < 300 && OUTSIDE.some((leak) => leak.test(res.body)))
          failures.push(`${label} → ${res.statusCode} with a file from outside its folder`);
      }
    }
    return { failures, requests };
  }

  test('probes, metrics and the API reference: no spelling fails or climbs out of its folder', async () => {
    const port = (ctx.app.server.address() as AddressInfo).port;
    const paths = [
      '/healthz',
      '/readyz',
      '/metrics',
      '/docs',
      '/docs/json',
      '/docs/yaml',
      '/docs/static/index.html',
      '/docs/static/swagger-initializer.js',
      '/projects/1',
    ];
    const { failures, requests } = await fuzz(port, paths, [
      ...ESCAPES('/docs/static'),
      ...ESCAPES('/docs'),
      ...ESCAPES(''),
    ]);
    assert.equal(
      failures.length,
      0,
      `${failures.length} failures in ${requests} requests:\n${failures.slice(0, 40).join('\n')}`,
    );
    assert.equal((await send(port, agent, { method: 'GET', path: '/healthz', headers: {} })).statusCode, 200);
  });

  test("the web application's files and pages: no spelling fails or serves a file from outside its folder", async () => {
    const port = (site.server.address() as AddressInfo).port;
    const paths = ['/', '/projects/1', '/assets/app-3f2a.js', '/favicon.svg', '/index.html'];
    const { failures, requests } = await fuzz(port, paths, [...ESCAPES('/assets'), ...ESCAPES('')]);
    assert.equal(
      failures.length,
      0,
      `${failures.length} failures in ${requests} requests:\n${failures.slice(0, 40).join('\n')}`,
    );
    // The files themselves are served.
    const asset = await send(port, agent, { method: 'GET', path: '/assets/app-3f2a.js', headers: {} });
    assert.deepEqual([asset.statusCode, asset.body], [200, 'console.log("app");\n']);
    const page = await send(port, agent, {
      method: 'GET',
      path: '/projects/1',
      headers: { accept: 'text/html' },
    });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>Tessera<\/title>/);
  });
});
