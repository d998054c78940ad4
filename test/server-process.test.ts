// End to end: the real server process and the `tessera` command, over HTTP, stopped with SIGTERM.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
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
    // The banner is for the person at the terminal: plain text on stderr, apart from the JSON log on stdout.
    const key = /^\s+(tsk_\S+)$/m.exec(server.stderr())?.[1];
    assert.ok(key, 'the key is printed');
    assert.ok(server.stderr().includes(`curl -u '${key}:${key}' ${url}/v2/languages`), 'a ready curl line');
    // The log is written asynchronously: it may hold no line yet, never a line that is not JSON.
    for (const line of server
      .stdout()
      .split('\n')
      .filter((l) => l.trim()))
      assert.doesNotThrow(() => JSON.parse(line), line);

    const res = await fetch(`${url}/v2/languages`, { headers: { authorization: basic(key, key) } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { code_to_name: Record<string, string> };
    assert.equal(body.code_to_name.de, 'German');
    const denied = await fetch(`${url}/v2/languages`);
    assert.equal(denied.status, 401);

    server.child.kill('SIGTERM');
    assert.equal(await server.exit, 0);
    assert.equal(
      server.stderr().split(key).length - 1,
      3,
      'the key appears in the banner and twice in its curl line',
    );
    assert.ok(!server.stdout().includes(key), 'never in the logs');

    // A second start on the same store creates nothing and prints no key.
    const again = runTessera(['serve'], { TESSERA_DATA_DIR: dataDir, TESSERA_PORT: '0' });
    const url2 = await waitForListening(again);
    assert.ok(!again.stdout().includes('tsk_') && !again.stderr().includes('tsk_'));
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
    assert.ok(!server.stdout().includes(key) && !server.stderr().includes(key));
    assert.equal((await fetch(`${url}/v2/me?key=${key}`)).status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exit, 0);
  });

  test('one server per SQLite data directory; a restart after kill -9 takes over at once, tasks included', async () => {
    const dataDir = tempDir();
    const key = 'lock-test-admin-key-0123456789-abcdefghijkl';
    const env = { TESSERA_DATA_DIR: dataDir, TESSERA_PORT: '0', TESSERA_API_KEY: key };
    const first = runTessera(['serve'], env);
    const url = await waitForListening(first);
    const second = runTessera(['serve'], env);
    assert.equal(await second.exit, 1);
    assert.match(
      second.stderr(),
      /^tessera: the data directory .* is in use by another Tessera server \(pid \d+\)\n$/,
    );
    assert.equal((await fetch(`${url}/v2?key=${key}`)).status, 200, 'the first one still serves');
    const memory = (await (
      await fetch(`${url}/v2/memories?key=${key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Crash', srclang: 'en', trglang: 'de' }),
      })
    ).json()) as { id: number };
    first.child.kill('SIGKILL');
    await first.exit;

    // What the killed process held a moment ago: its instance, beating until now, and an import it ran.
    const db = new Database(join(dataDir, 'tessera.db'));
    const now = Math.floor(Date.now() / 1000);
    const dead = db.prepare('SELECT id FROM instances').get() as { id: string };
    db.prepare('UPDATE instances SET heartbeat_at = ?').run(now);
    const tmx =
      '<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>Hello</seg></tuv><tuv xml:lang="de"><seg>Hallo</seg></tuv></tu></body></tmx>';
    const task = db
      .prepare(
        `INSERT INTO tasks (organization_id, type, state, memory_id, params, worker_id, lease_until, attempts, progress_total, created_at)
         VALUES (1, 'memory_import', 'running', ?, '{"name":"crash.tmx","createdBy":"admin"}', ?, ?, 1, ?, ?) RETURNING id`,
      )
      .get(memory.id, dead.id, now + 3600, tmx.length, now) as { id: number };
    db.prepare('INSERT INTO task_files (task_id, seq, data) VALUES (?, 0, ?)').run(task.id, Buffer.from(tmx));
    db.close();

    const third = runTessera(['serve'], env);
    const url3 = await waitForListening(third);
    // Its lease has an hour left and its instance beat just now: only knowing it is dead gets it run.
    let state = '';
    for (let i = 0; i < 100 && state !== 'succeeded'; i++) {
      state = ((await (await fetch(`${url3}/v2/tasks?id=${task.id}&key=${key}`)).json()) as { state: string })
        .state;
      if (state !== 'succeeded') await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(state, 'succeeded');
    third.child.kill('SIGTERM');
    assert.equal(await third.exit, 0);
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

    const user = runTessera(
      ['users', 'create', 'translator', '--role', 'translator', '--password-stdin'],
      env,
      'a long secret\n',
    );
    assert.equal(await user.exit, 0, user.stderr());
    assert.match(user.stdout(), /Created user translator \(id \d+, translator, organization default\)/);
    const manager = runTessera(['users', 'create', 'pm', '--password-stdin'], env, 'a long secret\n');
    assert.equal(await manager.exit, 0, manager.stderr());
    assert.match(manager.stdout(), /Created user pm \(id \d+, project_manager, organization default\)/);
    const badRole = runTessera(
      ['users', 'create', 'boss', '--role', 'boss', '--password-stdin'],
      env,
      'a long secret\n',
    );
    assert.equal(await badRole.exit, 1);
    assert.match(badRole.stderr(), /--role must be one of admin, project_manager, translator, reviewer/);
    const dup = runTessera(['users', 'create', 'translator', '--password-stdin'], env, 'a long secret\n');
    assert.equal(await dup.exit, 1);
    assert.equal(dup.stderr(), 'tessera: Username "translator" is not available; choose another\n');

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
      const printed = [a.stderr(), b.stderr()].filter((s) => /^\s+tsk_/m.test(s));
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
