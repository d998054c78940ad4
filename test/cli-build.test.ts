// The compiled `tessera`: built from the current sources into a temporary folder (what `npm install` makes),
// then run as installed: `--help`, the server with its migrations, and a TMX import through the worker thread.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { type Run, waitForListening } from './helpers/process.ts';

const ROOT = resolve(import.meta.dirname, '..');
// Inside the repository (in the gitignored .tmp/), so that the build finds node_modules as dist/ does.
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'cli-build-'));
const BIN = join(dir, 'bin', 'tessera.js');
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout: () => out, stderr: () => err, exit };
}

before(async () => {
  const build = run([join(ROOT, 'scripts', 'build.mjs'), join(dir, 'dist')]);
  assert.equal(await build.exit, 0, build.stdout() + build.stderr());
  mkdirSync(dirname(BIN));
  copyFileSync(join(ROOT, 'bin', 'tessera.js'), BIN);
});

test('--help lists every command, from the compiled JavaScript', async () => {
  const help = run([BIN, '--help']);
  assert.equal(await help.exit, 0, help.stderr());
  for (const command of ['serve', 'migrate', 'users', 'keys', 'memory', 'project', 'doc'])
    assert.match(help.stdout(), new RegExp(`^ {2}${command}\\b`, 'm'));
});

test('the command loads neither the server, the store nor the formats before a command runs', () => {
  // Static imports only: what an `import()` inside an action names loads when that command runs.
  const heavy =
    /^(fastify|@fastify\/|pg|better-sqlite3|src\/(store|formats|modules|http|tasks)\/|src\/(app|server)\.ts)/;
  const seen = new Set<string>();
  const reached: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(
      /^(?:import|export)\s+(?!type\s)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm,
    )) {
      const specifier = m[1]!;
      if (!specifier.startsWith('.')) reached.push(specifier);
      else visit(relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)));
    }
  };
  visit('src/cli/main.ts');
  reached.push(...seen);
  assert.deepEqual(
    reached.filter((x) => heavy.test(x)),
    [],
  );
});

test('without dist/ the command says how to build it', async () => {
  const bare = join(dir, 'bare', 'bin', 'tessera.js');
  mkdirSync(dirname(bare), { recursive: true });
  copyFileSync(BIN, bare);
  const help = run([bare, '--help']);
  assert.equal(await help.exit, 1);
  assert.match(help.stderr(), /^tessera: not built yet: run `npm install`/);
  assert.equal(help.stderr().split('\n').length, 2, 'one line');
});

test('the compiled server migrates, serves, imports TMX in its worker thread and stops on SIGTERM', async () => {
  const key = 'cli-build-test-admin-key-0123456789abcdef';
  const server = run([BIN, 'serve', '--port', '0'], {
    TESSERA_DATA_DIR: join(dir, 'data'),
    TESSERA_API_KEY: key,
    TESSERA_LOG_LEVEL: 'warn',
  });
  try {
    const url = await waitForListening(server);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal((await fetch(`${url}/readyz`)).status, 200, 'migrated from the copied SQL files');

    const env = { TESSERA_URL: url, TESSERA_API_KEY: key };
    const created = run([BIN, 'memory', 'create', 'Compiled', '--from', 'en', '--to', 'de'], env);
    assert.equal(await created.exit, 0, created.stderr());
    const file = join(dir, 'one.tmx');
    writeFileSync(
      file,
      `<?xml version="1.0"?><tmx version="1.4"><header srclang="en"/><body>
<tu><tuv xml:lang="en"><seg>Close the file</seg></tuv><tuv xml:lang="de"><seg>Datei schließen</seg></tuv></tu>
</body></tmx>`,
    );
    const imported = run([BIN, 'memory', 'import', created.stdout().split('\t')[0]!, file], env);
    assert.equal(await imported.exit, 0, imported.stderr());
    assert.equal(imported.stdout(), '{"imported":1,"skipped":0,"duplicates":0}\n');
  } finally {
    server.child.kill('SIGTERM');
  }
  assert.equal(await server.exit, 0, server.stderr());
});
