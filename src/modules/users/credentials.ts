// API keys and passwords: generation, hashing and constant-time checks. Nothing here logs a secret.
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'tsk_';
/** Characters of a key stored in clear to find its row; the rest stays secret. */
export const KEY_LOOKUP_LENGTH = 12;

/** A new API key: 32 random bytes (256 bits), base64url, with a recognisable prefix. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** The part of a key used to find its row. */
export function keyLookup(key: string): string {
  return key.slice(0, KEY_LOOKUP_LENGTH);
}

// Keys carry 256 bits of entropy, so a fast hash is enough: no dictionary can reach them. Passwords do not,
// and get scrypt below.
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKey(key), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

// scrypt N=2^15, r=8, p=1: ~50 ms and 32 MiB per check (OWASP's recommended floor is N=2^17 with r=8,
// p=1 for interactive logins at higher cost; we keep a login under 100 ms on a small server).
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keylen: 32, maxmem: 64 * 1024 * 1024 };
/** The cost new password hashes get: SCRYPT, unless a test process lowered it. */
let hashCost = SCRYPT;

/**
 * For test processes only (test/helpers/context.ts calls it): new password hashes get N=`n` instead of 2^15.
 * At the production cost a hash takes ~50 ms of CPU and 32 MiB, and several seconds on a busy CI machine; the
 * suite creates and checks hundreds of passwords. A hash names its own cost, so checking is unchanged.
 * `credentials.test.ts` proves that the production cost is the default.
 */
export function lowerPasswordHashCostForTests(n: number): void {
  hashCost = { ...SCRYPT, N: n };
}

function scryptAsync(password: string, salt: Buffer, params: typeof SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password,
      salt,
      params.keylen,
      { N: params.N, r: params.r, p: params.p, maxmem: params.maxmem },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, hashCost);
  return [
    'scrypt',
    hashCost.N,
    hashCost.r,
    hashCost.p,
    salt.toString('base64'),
    hash.toString('base64'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), {
    ...SCRYPT,
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keylen: expected.length,
  });
  return timingSafeEqual(actual, expected);
}
