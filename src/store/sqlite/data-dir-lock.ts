// One server process per SQLite data directory: a lock file holding the owner's pid and host, like
// PostgreSQL's postmaster.pid. A second server is refused at start-up with one line; a lock left by a process
// that died (kill -9, a power cut) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'tessera.lock';

/**
 * How long a start waits for a live holder to go before refusing. A server started by `tessera serve` runs
 * behind its launcher (src/cli/server-node-flags.ts): when the launcher is killed with SIGKILL the server
 * dies too, but a few milliseconds later — a supervisor restarting at once met the lock still held.
 */
const WAIT_FOR_HOLDER_MS = 3000;
const POLL_MS = 50;

/** Blocks the thread for `ms` (start-up only: nothing is served yet). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export interface DataDirLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but is another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of the data directory, or throws an Error whose message says who holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  const me = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return {
        release() {
          try {
            const held = JSON.parse(readFileSync(path, 'utf8')) as typeof me;
            if (held.pid === me.pid && held.host === me.host) unlinkSync(path);
          } catch {}
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let held: { pid?: number; host?: string } = {};
    try {
      held = JSON.parse(readFileSync(path, 'utf8'));
    } catch {}
    if (held.host && held.host !== me.host) {
      throw new Error(
        `the data directory ${dataDir} is in use by a Tessera server on host ${held.host} (pid ${held.pid}); if it is gone, delete ${path}`,
      );
    }
    if (typeof held.pid === 'number' && held.pid !== me.pid && alive(held.pid)) {
      const pid = held.pid;
      for (let waited = 0; waited < WAIT_FOR_HOLDER_MS && alive(pid); waited += POLL_MS) pause(POLL_MS);
      if (alive(pid)) {
        throw new Error(`the data directory ${dataDir} is in use by another Tessera server (pid ${pid})`);
      }
    }
    // Left by a process that is gone (or unreadable): take it over — unless it removed its lock as it went.
    try {
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new Error(`could not lock the data directory ${dataDir}`);
}
