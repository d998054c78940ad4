// Guessing is slowed per credential and per client address, over a sliding five minutes. Used by the API's
// authentication and by the web application's sign-in.
//
// Passwords can be guessed: past 10 failures for a user name, or 50 password failures from an address, every
// password attempt of that name or from that address (right or wrong) answers 429, so that a guess cannot be
// confirmed. API keys cannot be guessed (256 bits): the throttle there only stops waste. A key that failed 10
// times answers 429 from then on (a stale key in a script retried forever), and past 100 key failures from an
// address its wrong keys answer 429 instead of 401 (so do they from an address throttled for guessing
// passwords: a guesser does not get a second, slower door); a valid key always passes, so that other
// clients' wrong keys from the same address (a NAT, a CI fleet, a proxy) never lock it out.
//
// User names are one namespace for the whole server (a sign-in with a user name names no organization), so
// creating a user whose name another organization holds must be refused, and that refusal tells the name
// exists. What keeps names from being listed that way: past 10 refusals in an hour, every user creation of
// the organization (a free name too, so the answer tells nothing) answers 429 until the count slides under.
//
// The windows slide: the previous fixed window's failures count in proportion to how much of it is still
// within the window's length of now (rounded up). With fixed windows alone, a guesser would get twice the attempts across a
// window's end, and a count would drop to nothing at an arbitrary moment.
import { createHash } from 'node:crypto';
import { AppError, errors } from '../errors.ts';
import type { Counters, WindowedCount } from './counters.ts';

const FAILURE_WINDOW_MS = 5 * 60_000;
export const MAX_FAILURES_PER_USER = 10;
export const MAX_FAILURES_PER_KEY = 10;
export const MAX_PASSWORD_FAILURES_PER_ADDRESS = 50;
export const MAX_KEY_FAILURES_PER_ADDRESS = 100;
const TAKEN_USERNAME_WINDOW_MS = 60 * 60_000;
export const MAX_TAKEN_USERNAMES_PER_ORGANIZATION = 10;

/**
 * One attempt to authenticate: from an address, with a key (or a credential that could not be read,
 * counted as a wrong key), or with a user name and password.
 */
export type Attempt = { address: string } & ({ key: string } | { username: string });

/** Counters hold a hash of the credential, never the credential. */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

export class SignInThrottle {
  constructor(private readonly counters: Counters) {}

  /**
   * Runs an authentication under the throttle; answers its result, null when the credentials were wrong.
   * Throws 429 before it when the credential, or for a password the address, has failed too often; and
   * instead of a wrong key's null when the address has (a refused attempt is not counted again).
   */
  async guard<T>(attempt: Attempt, authenticate: () => Promise<T | null>): Promise<T | null> {
    const byKey = 'key' in attempt;
    const credential: [string, number] = byKey
      ? [`authfail:key:${digest(attempt.key)}`, MAX_FAILURES_PER_KEY]
      : [`authfail:user:${digest(attempt.username.toLowerCase())}`, MAX_FAILURES_PER_USER];
    const address: [string, number] = byKey
      ? [`authfail:keyaddr:${attempt.address}`, MAX_KEY_FAILURES_PER_ADDRESS]
      : [`authfail:addr:${attempt.address}`, MAX_PASSWORD_FAILURES_PER_ADDRESS];
    await this.refuseOver(...credential);
    if (!byKey) await this.refuseOver(...address);
    const result = await authenticate();
    if (result !== null) return result;
    if (byKey) {
      await this.refuseOver(...address);
      await this.refuseOver(`authfail:addr:${attempt.address}`, MAX_PASSWORD_FAILURES_PER_ADDRESS);
    }
    for (const [key] of [credential, address]) await this.counters.increment(key, FAILURE_WINDOW_MS);
    return null;
  }

  /**
   * Runs the creation of a user by an organization's admin: 429 before it when the organization's names
   * were refused as taken too often lately; counts its refusal (USERNAME_TAKEN) when it is one.
   */
  async guardNewUsername<T>(organizationId: number, create: () => Promise<T>): Promise<T> {
    const key = `nametaken:org:${organizationId}`;
    const count = await this.counters.read(key, TAKEN_USERNAME_WINDOW_MS);
    const waitMs = blockedFor(count, MAX_TAKEN_USERNAMES_PER_ORGANIZATION, TAKEN_USERNAME_WINDOW_MS);
    if (waitMs > 0) throw errors.tooManyTakenUsernames(seconds(waitMs));
    try {
      return await create();
    } catch (err) {
      if (err instanceof AppError && err.code === 'USERNAME_TAKEN') {
        await this.counters.increment(key, TAKEN_USERNAME_WINDOW_MS);
      }
      throw err;
    }
  }

  /** Throws 429 when the count under this key is at its limit. */
  private async refuseOver(key: string, max: number): Promise<void> {
    const waitMs = blockedFor(await this.counters.read(key, FAILURE_WINDOW_MS), max);
    if (waitMs > 0) throw errors.tooManyFailures(seconds(waitMs));
  }
}

/** A wait as whole seconds for Retry-After, at least one. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
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
