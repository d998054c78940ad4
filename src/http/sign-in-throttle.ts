// Guessing is slowed per user name and per client address: past these many failed attempts in the last five
// minutes, every attempt (right or wrong) is answered 429, so that a guess cannot be confirmed. Used by the
// API's authentication and by the web application's sign-in.
//
// The five minutes slide: the previous fixed window's failures count in proportion to how much of it is still
// within five minutes (rounded up). With fixed windows alone, a guesser would get twice the attempts across a
// window's end, and a count would drop to nothing at an arbitrary moment.
import { errors } from '../errors.ts';
import type { Counters, WindowedCount } from './counters.ts';

const FAILURE_WINDOW_MS = 5 * 60_000;
const MAX_FAILURES_PER_USER = 10;
const MAX_FAILURES_PER_ADDRESS = 50;

export class SignInThrottle {
  constructor(private readonly counters: Counters) {}

  private keys(address: string, username?: string): [string, number][] {
    const keys: [string, number][] = [[`authfail:addr:${address}`, MAX_FAILURES_PER_ADDRESS]];
    if (username !== undefined) keys.push([`authfail:user:${username.toLowerCase()}`, MAX_FAILURES_PER_USER]);
    return keys;
  }

  /** Throws 429 when the address, or the user name, has failed too often lately. */
  async check(address: string, username?: string): Promise<void> {
    for (const [key, max] of this.keys(address, username)) {
      const failed = await this.counters.read(key, FAILURE_WINDOW_MS);
      const waitMs = blockedFor(failed, max);
      if (waitMs > 0) throw errors.tooManyFailures(Math.max(1, Math.ceil(waitMs / 1000)));
    }
  }

  async failed(address: string, username?: string): Promise<void> {
    for (const [key] of this.keys(address, username)) await this.counters.increment(key, FAILURE_WINDOW_MS);
  }
}

/** How long attempts stay refused (0: not refused): until the sliding count is under `max` again. */
export function blockedFor(
  { count, previous, resetMs }: WindowedCount,
  max: number,
  windowMs = FAILURE_WINDOW_MS,
): number {
  // The share of the previous window still inside the last windowMs.
  const weight = resetMs / windowMs;
  if (count + Math.ceil(previous * weight) < max) return 0;
  // This window alone is at the limit: it becomes the previous one, whose share must fall to max - 1.
  if (count >= max) return resetMs + windowMs * (1 - (max - 1) / count);
  // Else the previous window's share must fall to what this window leaves under the limit.
  return Math.max(1, resetMs - windowMs * ((max - 1 - count) / previous));
}
