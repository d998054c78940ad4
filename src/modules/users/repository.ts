// SQL for organizations, users, API keys and sessions: the one owner of their tables.
import type { Role } from '../../http/principal.ts';
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export interface UserRow {
  id: number;
  organization_id: number;
  username: string;
  email: string | null;
  password_hash: string | null;
  role: Role;
  disabled: number;
  created_at: number;
}

export interface ApiKeyRow {
  id: number;
  organization_id: number;
  user_id: number;
  name: string;
  prefix: string;
  hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** "?, ?, ?" for a list of values (never empty: callers ask only about something). */
function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

export async function countOrganizations(db: Queryable): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM organizations');
  return row?.n ?? 0;
}

export async function findOrganizationByName(db: Queryable, name: string) {
  return db.get<{ id: number; name: string }>('SELECT id, name FROM organizations WHERE name = ?', [name]);
}

export async function insertOrganization(db: Queryable, name: string): Promise<number> {
  const row = await db.get<{ id: number }>(
    'INSERT INTO organizations (name, created_at) VALUES (?, ?) RETURNING id',
    [name, nowSeconds()],
  );
  return row!.id;
}

export async function insertUser(
  db: Queryable,
  user: {
    organizationId: number;
    username: string;
    email?: string | null;
    passwordHash: string | null;
    role: Role;
  },
): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO users (organization_id, username, email, password_hash, role, created_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    [user.organizationId, user.username, user.email ?? null, user.passwordHash, user.role, nowSeconds()],
  );
  return row!.id;
}

export async function findUserByName(db: Queryable, username: string) {
  return db.get<UserRow>('SELECT * FROM users WHERE username = ?', [username]);
}

export async function findUserById(db: Queryable, id: number) {
  return db.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
}

/** The e-mail of each of these users (null for one without); a name no user has is left out. */
export async function emailsOf(
  db: Queryable,
  usernames: readonly string[],
): Promise<Map<string, string | null>> {
  if (usernames.length === 0) return new Map();
  const rows = await db.all<{ username: string; email: string | null }>(
    `SELECT username, email FROM users WHERE username IN (${usernames.map(() => '?').join(', ')})`,
    usernames,
  );
  return new Map(rows.map((r) => [r.username, r.email]));
}

/** Of these users, the ones not disabled. */
export async function enabledUserIds(db: Queryable, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM users WHERE disabled = 0 AND id IN (${placeholders(ids)})`,
    ids,
  );
  return new Set(rows.map((r) => r.id));
}

/** The enabled users of an organization with these names (a name no user of it has is left out). */
export async function enabledUsersNamed(db: Queryable, organizationId: number, usernames: readonly string[]) {
  if (usernames.length === 0) return [];
  return db.all<UserRow>(
    `SELECT * FROM users WHERE organization_id = ? AND disabled = 0 AND username IN (${placeholders(usernames)})`,
    [organizationId, ...usernames],
  );
}

/** Users of the organization by id (those that exist). */
export async function usersByIds(db: Queryable, organizationId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.all<UserRow>(
    `SELECT * FROM users WHERE organization_id = ? AND id IN (${ids.map(() => '?').join(', ')})`,
    [organizationId, ...ids],
  );
}

/** The user of the organization with this e-mail address (or, failing that, this username). */
export async function findUserByEmailOrName(db: Queryable, organizationId: number, emailOrName: string) {
  return (
    (await db.get<UserRow>(
      'SELECT * FROM users WHERE organization_id = ? AND LOWER(email) = LOWER(?) ORDER BY id',
      [organizationId, emailOrName],
    )) ??
    (await db.get<UserRow>('SELECT * FROM users WHERE organization_id = ? AND username = ?', [
      organizationId,
      emailOrName,
    ]))
  );
}

export async function listUsers(db: Queryable, organizationId: number) {
  return db.all<UserRow>('SELECT * FROM users WHERE organization_id = ? ORDER BY id', [organizationId]);
}

export async function insertApiKey(
  db: Queryable,
  key: { organizationId: number; userId: number; name: string; prefix: string; hash: string },
): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO api_keys (organization_id, user_id, name, prefix, hash, created_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    [key.organizationId, key.userId, key.name, key.prefix, key.hash, nowSeconds()],
  );
  return row!.id;
}

/** Live keys whose clear prefix matches, with their user. */
export async function findKeysByPrefix(db: Queryable, prefix: string) {
  return db.all<ApiKeyRow & { role: Role; username: string; user_disabled: number }>(
    `SELECT k.*, u.role, u.username, u.disabled AS user_disabled
     FROM api_keys k JOIN users u ON u.id = k.user_id
     WHERE k.prefix = ? AND k.revoked_at IS NULL`,
    [prefix],
  );
}

/** Of these keys, the ones not revoked. */
export async function liveKeyIds(db: Queryable, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM api_keys WHERE revoked_at IS NULL AND id IN (${placeholders(ids)})`,
    ids,
  );
  return new Set(rows.map((r) => r.id));
}

export async function listApiKeys(db: Queryable, organizationId: number | null) {
  return db.all<ApiKeyRow & { username: string }>(
    `SELECT k.*, u.username FROM api_keys k JOIN users u ON u.id = k.user_id
     ${organizationId === null ? '' : 'WHERE k.organization_id = ?'} ORDER BY k.id`,
    organizationId === null ? [] : [organizationId],
  );
}

/**
 * Revokes a key of the organization (any organization when null), of one user when `userId` is given;
 * answers whether one was revoked.
 */
export async function revokeApiKey(
  db: Queryable,
  id: number,
  organizationId: number | null,
  userId: number | null = null,
): Promise<boolean> {
  const params: number[] = [nowSeconds(), id];
  let sql = 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL';
  if (organizationId !== null) {
    sql += ' AND organization_id = ?';
    params.push(organizationId);
  }
  if (userId !== null) {
    sql += ' AND user_id = ?';
    params.push(userId);
  }
  const result = await db.run(sql, params);
  return result.changes > 0;
}

/** Changes what is given of a user's role, disabled flag and password hash. */
export async function updateUser(
  db: Queryable,
  id: number,
  change: { role?: Role; disabled?: boolean; passwordHash?: string },
) {
  const sets: string[] = [];
  const params: (string | number)[] = [];
  if (change.role !== undefined) {
    sets.push('role = ?');
    params.push(change.role);
  }
  if (change.disabled !== undefined) {
    sets.push('disabled = ?');
    params.push(change.disabled ? 1 : 0);
  }
  if (change.passwordHash !== undefined) {
    sets.push('password_hash = ?');
    params.push(change.passwordHash);
  }
  if (sets.length === 0) return;
  await db.run(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`, [...params, id]);
}

export async function deleteSessionsOf(db: Queryable, userId: number) {
  await db.run('DELETE FROM sessions WHERE user_id = ?', [userId]);
}

/** Records that a key was used now (callers throttle this: it is a write). */
export async function touchApiKey(db: Queryable, id: number, now: number): Promise<void> {
  await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [now, id]);
}

// ---- Browser sessions.

export async function insertSession(
  db: Queryable,
  s: { id: string; userId: number; apiKeyId: number | null; expiresAt: number },
) {
  await db.run(
    'INSERT INTO sessions (id, user_id, api_key_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    [s.id, s.userId, s.apiKeyId, nowSeconds(), s.expiresAt],
  );
}

/**
 * A live session with its user and the key it was signed in with (none when expired, when the user is
 * disabled, or when that key is revoked).
 */
export async function findSession(db: Queryable, id: string, now: number) {
  return db.get<UserRow & { session_expires_at: number; session_key_id: number | null }>(
    `SELECT u.*, s.expires_at AS session_expires_at, s.api_key_id AS session_key_id
     FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN api_keys k ON k.id = s.api_key_id
     WHERE s.id = ? AND s.expires_at > ? AND u.disabled = 0
       AND (s.api_key_id IS NULL OR k.revoked_at IS NULL)`,
    [id, now],
  );
}

/** Of these sessions, the ones that exist and have not expired. */
export async function liveSessionIds(
  db: Queryable,
  ids: readonly string[],
  now: number,
): Promise<Set<string>> {
  const rows = await db.all<{ id: string }>(
    `SELECT id FROM sessions WHERE expires_at > ? AND id IN (${placeholders(ids)})`,
    [now, ...ids],
  );
  return new Set(rows.map((r) => r.id));
}

export async function extendSession(db: Queryable, id: string, expiresAt: number) {
  await db.run('UPDATE sessions SET expires_at = ? WHERE id = ?', [expiresAt, id]);
}

export async function deleteSession(db: Queryable, id: string) {
  await db.run('DELETE FROM sessions WHERE id = ?', [id]);
}

export async function deleteExpiredSessions(db: Queryable, now: number): Promise<number> {
  const { changes } = await db.run('DELETE FROM sessions WHERE expires_at <= ?', [now]);
  return changes;
}
