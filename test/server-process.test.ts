// End to end: the real server process and the `tessera` command, over HTTP, stopped with SIGTERM.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { basic } from './helpers/context.ts';
import { runTessera, waitForListening } from './helpers/process.ts';
import { storeTargets } from './helpers/stores.ts';

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-e2e-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('server process', () => {
  test('first start prints a key; Basic auth works over HTTP; SIGTERM stops it cleanly', async () => {
    const dataDir = tempDir();
    const server = runTessera(['serve'], { TESSERA_DATA_DIR: dataDir, TESSERA_PORT: '0' });
    const url = await waitForListening(server);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const key = /^\s+(tsk_\S+)$/m.exec(server.stdout())?.[1];
    assert.ok(key, 'the key is printed');
    assert.ok(server.stdout().includes(`curl -u '${key}:${key}' ${url}/v2/languages`), 'a ready curl line');

    const res = await fetch(`${url}/v2/languages`, { headers: { authorization: basic(key, key) } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { code_to_name: Record<string, string> };
    assert.equal(body.code_to_name.de, 'German');
    const denied = await fetch(`${url}/v2/languages`);
    assert.equal(denied.status, 401);

    server.child.kill('SIGTERM');
    assert.equal(await server.exit, 0);
    const logged = server.stdout().split(key).length - 1;
    assert.equal(logged, 3, 'the key appears only in the banner and twice in its curl line, never in logs');

    // A second start on the same store creates nothing and prints no key.
    const again = runTessera(['serve'], { TESSERA_DATA_DIR: dataDir, TESSERA_PORT: '0' });
    const url2 = await waitForListening(again);
    assert.ok(!again.stdout().includes('tsk_'));
    assert.equal((await fetch(`${url2}/v2`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
    again.child.kill('SIGTERM');
    assert.equal(await again.exit, 0);
  });

  test('TESSERA_API_KEY becomes the admin key and is not printed', async () => {
    const key = 'preset-admin-key-0123456789-abcdefghijklmnop';
    const server = runTessera(['serve'], {
      TESSERA_DATA_DIR: tempDir(),
      TESSERA_PORT: '0',
      TESSERA_API_KEY: key,
    });
    const url = await waitForListening(server);
    assert.ok(!server.stdout().includes(key));
    assert.equal((await fetch(`${url}/v2/me?key=${key}`)).status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exit, 0);
  });

  test('a bad setting stops the start with one line naming it and exit code 1', async () => {
    const run = runTessera(['serve'], { TESSERA_DATA_DIR: tempDir(), TESSERA_PORT: 'eighty' });
    assert.equal(await run.exit, 1);
    assert.equal(run.stderr(), 'tessera: TESSERA_PORT must be an integer from 0 to 65535, got "eighty"\n');
  });

  test('tessera users and keys administer the local store', async () => {
    const env = { TESSERA_DATA_DIR: tempDir() };
    const migrated = runTessera(['migrate'], env);
    assert.equal(await migrated.exit, 0);
    assert.match(migrated.stdout(), /Applied: 001_accounts/);

    const user = runTessera(['users', 'create', 'translator', '--password-stdin'], env, 'a long secret\n');
    assert.equal(await user.exit, 0, user.stderr());
    assert.match(user.stdout(), /Created user translator \(id \d+, member, organization default\)/);
    const dup = runTessera(['users', 'create', 'translator', '--password-stdin'], env, 'a long secret\n');
    assert.equal(await dup.exit, 1);
    assert.equal(dup.stderr(), 'tessera: User "translator" already exists\n');

    const created = runTessera(['keys', 'create', '--user', 'translator', '--name', 'ci'], env);
    assert.equal(await created.exit, 0, created.stderr());
    const key = created.stdout().trim();
    assert.match(key, /^tsk_/);

    const listed = runTessera(['keys', 'list'], env);
    assert.equal(await listed.exit, 0);
    assert.match(listed.stdout(), /\ttranslator\tci\ttsk_\S+…\t\S+\tactive/);
    assert.ok(!listed.stdout().includes(key));
    const id = /^(\d+)\ttranslator\tci/m.exec(listed.stdout())![1];

    const server = runTessera(['serve'], { ...env, TESSERA_PORT: '0' });
    const url = await waitForListening(server);
    assert.equal(
      (await fetch(`${url}/v2/me`, { headers: { authorization: basic('translator', 'a long secret') } }))
        .status,
      200,
    );
    assert.equal((await fetch(`${url}/v2/me?key=${key}`)).status, 200);

    const revoked = runTessera(['keys', 'revoke', id], env);
    assert.equal(await revoked.exit, 0, revoked.stderr());
    assert.equal((await fetch(`${url}/v2/me?key=${key}`)).status, 401);
    server.child.kill('SIGTERM');
    assert.equal(await server.exit, 0);

    const missing = runTessera(['keys', 'revoke', '9999'], env);
    assert.equal(await missing.exit, 1);
    assert.equal(missing.stderr(), 'tessera: no active key with id 9999\n');
  });
});

const postgres = (await storeTargets()).find((t) => t.name === 'postgres');
describe('two instances on one PostgreSQL database', { skip: postgres ? false : 'no PostgreSQL' }, () => {
  test('start together: migrations and bootstrap happen once, both serve', async () => {
    const store = await postgres!.create();
    try {
      const env = {
        TESSERA_DATABASE_URL: store.databaseUrl!,
        TESSERA_PORT: '0',
        TESSERA_DATA_DIR: store.dataDir,
      };
      const a = runTessera(['serve'], env);
      const b = runTessera(['serve'], env);
      const [urlA, urlB] = await Promise.all([waitForListening(a), waitForListening(b)]);
      const printed = [a.stdout(), b.stdout()].filter((s) => /^\s+tsk_/m.test(s));
      assert.equal(printed.length, 1, 'exactly one instance created the admin key');
      const key = /^\s+(tsk_\S+)$/m.exec(printed[0])![1];
      for (const url of [urlA, urlB]) assert.equal((await fetch(`${url}/v2?key=${key}`)).status, 200);
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      assert.deepEqual(await Promise.all([a.exit, b.exit]), [0, 0]);
    } finally {
      await store.cleanup();
    }
  });
});

describe('graceful shutdown', () => {
  test('SIGTERM lets an in-flight upload finish, then the process exits 0', async () => {
    const key = 'shutdown-test-key-0123456789abcdefghijklmn';
    const server = runTessera(['serve'], {
      TESSERA_DATA_DIR: tempDir(),
      TESSERA_PORT: '0',
      TESSERA_API_KEY: key,
    });
    const url = await waitForListening(server);
    const memory = (await (
      await fetch(`${url}/v2/memories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'm', srclang: 'en', trglang: 'de' }),
      })
    ).json()) as { id: number };
    const { request } = await import('node:http');
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${url}/v2/memories/import`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/octet-stream',
          'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'slow.tmx' }),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write('<?xml version="1.0"?><tmx version="1.4"><header/><body>');
      // The body is half sent when the signal arrives; the rest follows after it.
      setTimeout(() => server.child.kill('SIGTERM'), 200);
      setTimeout(() => {
        req.end(
          '<tu><tuv xml:lang="en"><seg>a</seg></tuv><tuv xml:lang="de"><seg>b</seg></tuv></tu></body></tmx>',
        );
      }, 600);
    });
    const res = await answer;
    assert.equal(res.status, 200, res.body);
    assert.match(res.body, /"job_id":\d+/);
    assert.equal(await server.exit, 0);
  });
});
