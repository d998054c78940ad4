// Request counters in fixed windows, for the rate limit and the failed sign-in throttle: in memory when one
// process serves the store, in the store itself when several share it (so that limits hold across them).
import { deleteCountersBefore, incrementCounter, readCounter } from '../store/counters.ts';
import type { Db } from '../store/db.ts';

export interface Count {
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

/** A count with the previous window's, so that a reader can weigh the two as a sliding window. */
export interface WindowedCount extends Count {
  previous: number;
}

export interface Counters {
  increment(key: string, windowMs: number): Promise<Count>;
  read(key: string, windowMs: number): Promise<WindowedCount>;
}

function windowOf(windowMs: number, now = Date.now()) {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, resetMs: start + windowMs - now };
}

interface Held {
  start: number;
  windowMs: number;
  count: number;
  previous: number;
}

export class MemoryCounters implements Counters {
  private readonly counts = new Map<string, Held>();

  /** The key's counts as of the window starting at `start`: the held window moved on when it is older. */
  private at(key: string, start: number, windowMs: number): Held {
    const held = this.counts.get(key);
    if (!held) return { start, windowMs, count: 0, previous: 0 };
    if (held.start === start) return held;
    return { start, windowMs, count: 0, previous: held.start === start - windowMs ? held.count : 0 };
  }

  async increment(key: string, windowMs: number): Promise<Count> {
    const { start, resetMs } = windowOf(windowMs);
    const held = this.at(key, start, windowMs);
    if (this.counts.size > 50_000) this.forgetOld();
    this.counts.set(key, { ...held, count: held.count + 1 });
    return { count: held.count + 1, resetMs };
  }

  async read(key: string, windowMs: number): Promise<WindowedCount> {
    const { start, resetMs } = windowOf(windowMs);
    const held = this.at(key, start, windowMs);
    return { count: held.count, previous: held.previous, resetMs };
  }

  /** Forgets the counts no reader needs: their window and the one after it are over. */
  private forgetOld() {
    const now = Date.now();
    for (const [key, held] of this.counts) {
      if (held.start + 2 * held.windowMs <= now) this.counts.delete(key);
    }
  }
}

export class StoreCounters implements Counters {
  constructor(private readonly db: Db) {}

  async increment(key: string, windowMs: number): Promise<Count> {
    const { start, resetMs } = windowOf(windowMs);
    return { count: await incrementCounter(this.db, key, start), resetMs };
  }

  async read(key: string, windowMs: number): Promise<WindowedCount> {
    const { start, resetMs } = windowOf(windowMs);
    const [count, previous] = await Promise.all([
      readCounter(this.db, key, start),
      readCounter(this.db, key, start - windowMs),
    ]);
    return { count, previous, resetMs };
  }

  /**
   * Forgets windows that started two hours ago: the longest window in use is an hour (user names refused
   * as taken), and a reader still weighs the one before the current.
   */
  async sweep(): Promise<number> {
    return deleteCountersBefore(this.db, Date.now() - 2 * 3_600_000);
  }
}
