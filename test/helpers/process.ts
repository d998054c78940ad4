// Runs the real `tessera` command as a child process, for end-to-end tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after } from 'node:test';

const MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

export interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

// Every command still running when a test file's tests end is killed: a test that fails before it stops its
// server would otherwise leave the server holding the file's process open until the runner's timeout.
const running = new Set<ChildProcess>();
after(() => {
  for (const child of running) child.kill('SIGKILL');
});

export function runTessera(args: string[], env: Record<string, string>, input?: string): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  child.stdin!.end(input ?? '');
  running.add(child);
  const exit = once(child, 'exit').then(([code]) => {
    running.delete(child);
    return code as number | null;
  });
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Waits for the server's "listening on" line and answers its base URL. */
export async function waitForListening(run: Run, timeoutMs = 30_000): Promise<string> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const match = /Tessera listening on (http:\/\/\S+)/.exec(run.stderr());
    if (match) return match[1];
    if (run.child.exitCode !== null) throw new Error(`server exited early: ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start in time: ${run.stderr()}`);
}
