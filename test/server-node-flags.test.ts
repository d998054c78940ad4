// The server's Node flags (src/cli/server-node-flags.ts): they size V8's young generation only on node's
// command line, and `tessera serve` runs the server with them behind a launcher that forwards signals.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { missingServerFlags, SERVER_NODE_FLAGS } from '../src/cli/server-node-flags.ts';
import { runTessera, waitForListening } from './helpers/process.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The largest new space the helper process saw, in MiB (V8 counts both semi-spaces). */
async function youngGenerationMib(args: string[], env: Record<string, string> = {}): Promise<number> {
  const helper = join(import.meta.dirname, 'helpers', 'young-generation.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', helper, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  const [code] = await once(child, 'close');
  assert.equal(code, 0);
  return Number(out.trim()) / 2 ** 20;
}

const semiSpaceMib = Number(/^--max-semi-space-size=(\d+)$/.exec(SERVER_NODE_FLAGS[0])?.[1]);

describe('server node flags', () => {
  test('the relaunch gives the young generation its chosen size; setFlagsFromString does not', async () => {
    assert.ok(semiSpaceMib > 16, 'the chosen semi-space is larger than V8 default of 16 MiB');
    // Relaunched with the flag on the command line: the new space grows to two semi-spaces of the chosen size.
    assert.equal(await youngGenerationMib([]), 2 * semiSpaceMib);
    // The same flag given to V8 after start: accepted, and the new space stops at the default's 2 × 16 MiB.
    assert.equal(await youngGenerationMib(['set-flags']), 32);
    // An operator's own setting is kept: no relaunch, V8's default size here.
    assert.equal(await youngGenerationMib([], { NODE_OPTIONS: '--max-semi-space-size=16' }), 32);
  });

  test('an operator setting of the same flag, in either spelling, is kept', () => {
    assert.deepEqual(missingServerFlags([], undefined), [...SERVER_NODE_FLAGS]);
    assert.deepEqual(missingServerFlags(['--max-semi-space-size=8'], undefined), []);
    assert.deepEqual(missingServerFlags([], '--max_semi_space_size=8 --inspect'), []);
    assert.deepEqual(missingServerFlags(['--inspect'], '--max-old-space-size=4096'), [...SERVER_NODE_FLAGS]);
  });

  test('`tessera serve` serves from a process with the flags; its launcher forwards SIGTERM and dies with it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-flags-'));
    dirs.push(dataDir);
    const env = {
      TESSERA_DATA_DIR: dataDir,
      TESSERA_PORT: '0',
      TESSERA_API_KEY: 'flags-test-admin-key-0123456789abcdefgh',
    };
    const servingPid = () =>
      (JSON.parse(readFileSync(join(dataDir, 'tessera.lock'), 'utf8')) as { pid: number }).pid;
    const alive = (pid: number) => existsSync(`/proc/${pid}`);

    const run = runTessera(['serve'], env);
    const url = await waitForListening(run);
    const pid = servingPid();
    assert.notEqual(pid, run.child.pid, 'the server is the relaunched process, not its launcher');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    for (const flag of SERVER_NODE_FLAGS)
      assert.ok(cmdline.includes(flag), `${flag} in ${cmdline.join(' ')}`);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    run.child.kill('SIGTERM');
    assert.equal(await run.exit, 0, run.stderr());
    assert.ok(!alive(pid), 'the server stopped');
    assert.ok(!existsSync(join(dataDir, 'tessera.lock')), 'and released its data directory');

    // The launcher killed outright: the server goes too, never left holding the data directory.
    const again = runTessera(['serve'], env);
    await waitForListening(again);
    const pid2 = servingPid();
    again.child.kill('SIGKILL');
    await again.exit;
    for (let i = 0; i < 100 && alive(pid2); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(!alive(pid2), 'the server died with its launcher');
  });
});
