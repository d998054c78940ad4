// Browser sessions of the web application: a sign-in with a username and password (or an API key) gives a
// random token, kept by the browser in an HttpOnly cookie and by the store only as its SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../../http/principal.ts';
import type { Db } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import * as repo from './repository.ts';
import { authenticateKey, authenticatePassword, describeCaller } from './service.ts';

/** A session lasts this long after its last extension. */
export const SESSION_SECONDS = 12 * 3600;
/** A session in use is extended when less than this is left (so that its row is written rarely). */
const EXTEND_BELOW_SECONDS = SESSION_SECONDS - 600;

function sessionId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type SignIn = { username: string; password: string } | { key: string };

/** Creates a session for valid credentials; answers its token (for the cookie) and the caller, or null. */
export async function signIn(db: Db, credentials: SignIn) {
  const principal =
    'key' in credentials
      ? await authenticateKey(db, credentials.key)
      : await authenticatePassword(db, credentials.username, credentials.password);
  if (!principal) return null;
  const token = randomBytes(32).toString('base64url');
  await repo.insertSession(db, {
    id: sessionId(token),
    userId: principal.userId,
    // A session signed in with a key lasts no longer than the key: revoking it ends the session.
    apiKeyId: principal.keyId,
    expiresAt: nowSeconds() + SESSION_SECONDS,
  });
  return { token, caller: describeCaller(principal) };
}

/** The principal of a session token, or null when it is unknown, expired, or its user or key ended. */
export async function authenticateSession(db: Db, token: string): Promise<Principal | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const id = sessionId(token);
  const now = nowSeconds();
  const user = await repo.findSession(db, id, now);
  if (!user) return null;
  if (user.session_expires_at - now < EXTEND_BELOW_SECONDS) {
    await repo.extendSession(db, id, now + SESSION_SECONDS);
  }
  return {
    organizationId: user.organization_id,
    userId: user.id,
    username: user.username,
    role: user.role,
    keyId: user.session_key_id,
    sessionId: id,
  };
}

export async function signOut(db: Db, token: string | undefined): Promise<void> {
  if (token) await repo.deleteSession(db, sessionId(token));
}

/** Ids asked about in one statement at most (far under SQLite's and PostgreSQL's limits on parameters). */
const IDS_PER_QUERY = 500;

async function inChunks<T extends string | number>(
  ids: readonly T[],
  query: (chunk: readonly T[]) => Promise<Set<T>>,
): Promise<Set<T>> {
  const found = new Set<T>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += IDS_PER_QUERY) {
    for (const id of await query(unique.slice(i, i + IDS_PER_QUERY))) found.add(id);
  }
  return found;
}

/**
 * For each principal, whether the credentials it came from still stand: its user is enabled, its key (if
 * any) not revoked, its session (if any) still there. Open event streams are checked with this.
 */
export async function credentialsStillValid(db: Db, principals: readonly Principal[]): Promise<boolean[]> {
  const now = nowSeconds();
  const keyIds = principals.flatMap((p) => (p.keyId === null ? [] : [p.keyId]));
  const sessionIds = principals.flatMap((p) => (p.sessionId === null ? [] : [p.sessionId]));
  const users = await inChunks(
    principals.map((p) => p.userId),
    (ids) => repo.enabledUserIds(db, ids),
  );
  const keys = await inChunks(keyIds, (ids) => repo.liveKeyIds(db, ids));
  const sessions = await inChunks(sessionIds, (ids) => repo.liveSessionIds(db, ids, now));
  return principals.map(
    (p) =>
      users.has(p.userId) &&
      (p.keyId === null || keys.has(p.keyId)) &&
      (p.sessionId === null || sessions.has(p.sessionId)),
  );
}

/** The instances' sweep of sessions: expired ones go. */
export function sweepSessions(db: Db): Promise<number> {
  return repo.deleteExpiredSessions(db, nowSeconds());
}
