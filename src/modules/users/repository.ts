// SQL for organizations, users and API keys.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export type Role = 'admin' | 'member';

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

export async function countOrganizations(db: Queryable): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM organizations');
  return Number(row?.n ?? 0);
}

export async function findOrganizationByName(db: Queryable, name: string) {
  return db.get<{ id: number; name: string }>('SELECT id, name FROM organizations WHERE name = ?', [name]);
}

export async function insertOrganization(db: Queryable, name: string): Promise<number> {
  const row = await db.get<{ id: number }>(
    'INSERT INTO organizations (name, created_at) VALUES (?, ?) RETURNING id',
    [name, nowSeconds()],
  );
  return Number(row!.id);
}

export async function firstOrganization(db: Queryable) {
  return db.get<{ id: number; name: string }>('SELECT id, name FROM organizations ORDER BY id LIMIT 1');
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
  return Number(row!.id);
}

export async function findUserByName(db: Queryable, username: string) {
  return db.get<UserRow>('SELECT * FROM users WHERE username = ?', [username]);
}

export async function findUserById(db: Queryable, id: number) {
  return db.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
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
  return Number(row!.id);
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

export async function listApiKeys(db: Queryable, organizationId: number | null) {
  return db.all<ApiKeyRow & { username: string }>(
    `SELECT k.*, u.username FROM api_keys k JOIN users u ON u.id = k.user_id
     ${organizationId === null ? '' : 'WHERE k.organization_id = ?'} ORDER BY k.id`,
    organizationId === null ? [] : [organizationId],
  );
}

/** Revokes a key of the organization (any organization when null); answers whether one was revoked. */
export async function revokeApiKey(
  db: Queryable,
  id: number,
  organizationId: number | null,
): Promise<boolean> {
  const result = await db.run(
    `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL
     ${organizationId === null ? '' : 'AND organization_id = ?'}`,
    organizationId === null ? [nowSeconds(), id] : [nowSeconds(), id, organizationId],
  );
  return result.changes > 0;
}

export async function touchApiKey(db: Queryable, id: number): Promise<void> {
  await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [nowSeconds(), id]);
}
