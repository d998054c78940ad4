// Accounts: first-start bootstrap, authentication of API keys and passwords, users and keys management.

import { createHash } from 'node:crypto';
import { errors } from '../../errors.ts';
import { LEGACY_MEMBER_ROLE, type Principal, type Role } from '../../http/principal.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import {
  apiKeyMatches,
  generateApiKey,
  hashApiKey,
  hashPassword,
  keyLookup,
  verifyPassword,
} from './credentials.ts';
import * as repo from './repository.ts';

export const DEFAULT_ORGANIZATION = 'default';
export const ADMIN_USERNAME = 'admin';

export interface BootstrapResult {
  created: boolean;
  /** The new admin key when it was generated here (print it once); null when it came from the setting. */
  generatedKey: string | null;
}

/** On an empty store: one organization, an admin user and an admin key (the given one, or a new one). */
export async function bootstrap(db: Db, presetKey?: string): Promise<BootstrapResult> {
  return db.withExclusiveLock('bootstrap', async () => {
    if ((await repo.countOrganizations(db)) > 0) return { created: false, generatedKey: null };
    const key = presetKey ?? generateApiKey();
    await db.transaction(async (tx) => {
      const organizationId = await repo.insertOrganization(tx, DEFAULT_ORGANIZATION);
      const userId = await repo.insertUser(tx, {
        organizationId,
        username: ADMIN_USERNAME,
        passwordHash: null,
        role: 'admin',
      });
      await repo.insertApiKey(tx, {
        organizationId,
        userId,
        name: 'bootstrap',
        prefix: keyLookup(key),
        hash: hashApiKey(key),
      });
    });
    return { created: true, generatedKey: presetKey ? null : key };
  });
}

export async function authenticateKey(db: Db, key: string): Promise<Principal | null> {
  if (key.length < 16) return null;
  const candidates = await repo.findKeysByPrefix(db, keyLookup(key));
  // Every candidate is checked, so the time taken does not depend on which one matches.
  let found: (typeof candidates)[number] | undefined;
  for (const row of candidates) if (apiKeyMatches(key, row.hash) && !found) found = row;
  if (!found || found.user_disabled) return null;
  recordKeyUse(db, found.id, found.last_used_at);
  return {
    organizationId: found.organization_id,
    userId: found.user_id,
    username: found.username,
    role: found.role,
    keyId: found.id,
    sessionId: null,
  };
}

// last_used_at is written at most once a minute per key: a write per request would make every read a
// write. The write does not hold the request up (on SQLite it may wait behind an import's transaction); the
// key listing waits for the writes in flight instead, so that it shows every use this process has answered.
const KEY_USE_RESOLUTION_SECONDS = 60;
/** Per store, when this process last wrote each key's use (requests in flight see the row before it). */
const keyUseWritten = new WeakMap<Db, Map<number, number>>();
/** Per store, this process's key-use writes not yet done. */
const keyUseWrites = new WeakMap<Db, Set<Promise<void>>>();

function recordKeyUse(db: Db, keyId: number, lastUsedAt: number | null) {
  const now = nowSeconds();
  let written = keyUseWritten.get(db);
  if (!written) keyUseWritten.set(db, (written = new Map()));
  const last = Math.max(lastUsedAt ?? 0, written.get(keyId) ?? 0);
  if (now - last < KEY_USE_RESOLUTION_SECONDS) return;
  if (written.size > 10_000) written.clear();
  written.set(keyId, now);
  let writes = keyUseWrites.get(db);
  if (!writes) keyUseWrites.set(db, (writes = new Set()));
  // A failed write (the store closing, say) costs only the timestamp.
  const write = repo.touchApiKey(db, keyId, now).catch(() => {});
  writes.add(write);
  void write.finally(() => writes.delete(write));
}

/** Waits for this process's key-use writes in flight. */
async function keyUsesWritten(db: Db): Promise<void> {
  await Promise.all(keyUseWrites.get(db) ?? []);
}

// A fixed scrypt hash to verify against when the user does not exist, so that a missing user costs the
// same time as a wrong password and user names cannot be probed by timing.
let dummyHash: Promise<string> | undefined;

// A password check costs a scrypt (~50 ms); a client sending Basic user:password on every request would pay
// it each time. A successful check is remembered briefly, by a hash of the credentials (never in clear),
// together with the password hash it was checked against: the user's row is read on every request, so a
// changed password or a disabled user stops a remembered login at once, on every instance.
const PASSWORD_CACHE_MS = 60_000;
const passwordChecks = new Map<string, { passwordHash: string; until: number }>();

export async function authenticatePassword(
  db: Db,
  username: string,
  password: string,
): Promise<Principal | null> {
  const user = await repo.findUserByName(db, username);
  const checkKey = createHash('sha256').update(`${username}\0${password}`).digest('hex');
  const remembered = passwordChecks.get(checkKey);
  let ok: boolean;
  if (
    user?.password_hash &&
    remembered?.passwordHash === user.password_hash &&
    remembered.until > Date.now()
  ) {
    ok = true;
  } else {
    dummyHash ??= hashPassword('tessera-dummy-password');
    ok = await verifyPassword(password, user?.password_hash ?? (await dummyHash));
    if (ok && user?.password_hash) {
      if (passwordChecks.size > 10_000) passwordChecks.clear();
      passwordChecks.set(checkKey, {
        passwordHash: user.password_hash,
        until: Date.now() + PASSWORD_CACHE_MS,
      });
    }
  }
  if (!user?.password_hash || !ok || user.disabled) return null;
  return {
    organizationId: user.organization_id,
    userId: user.id,
    username: user.username,
    role: user.role,
    keyId: null,
    sessionId: null,
  };
}

/** The role stored for one given on input ('member', the old name of project_manager, becomes it). */
export function storedRole(role: Role | typeof LEGACY_MEMBER_ROLE): Role {
  return role === LEGACY_MEMBER_ROLE ? 'project_manager' : role;
}

/** Creates a user; the organization is created when it does not exist yet (CLI use). */
export async function createUser(
  db: Db,
  input: {
    username: string;
    password: string | null;
    /** 'member' is the old name of project_manager, still accepted. */
    role: Role | typeof LEGACY_MEMBER_ROLE;
    /** An organization's id, or its name (created when missing: the CLI's way); default "default". */
    organization?: string | number;
    email?: string | null;
  },
) {
  if (!/^[\w.@+-]{1,100}$/.test(input.username)) {
    throw errors.badParameter('Parameter "username" must be 1–100 letters, digits or . _ @ + -');
  }
  if (input.password !== null && input.password.length < 8) {
    throw errors.badParameter('Parameter "password" must have at least 8 characters');
  }
  if (await repo.findUserByName(db, input.username)) throw errors.usernameTaken(input.username);
  const role = storedRole(input.role);
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  return db
    .transaction(async (tx) => {
      let organizationId: number;
      if (typeof input.organization === 'number') {
        organizationId = input.organization;
      } else {
        const orgName = input.organization ?? DEFAULT_ORGANIZATION;
        const org = await repo.findOrganizationByName(tx, orgName);
        organizationId = org ? org.id : await repo.insertOrganization(tx, orgName);
      }
      const id = await repo.insertUser(tx, {
        organizationId,
        username: input.username,
        email: input.email ?? null,
        passwordHash,
        role,
      });
      return { id, organizationId, username: input.username, role };
    })
    .catch((err: unknown) => {
      // Two requests creating the same name at once: the second loses at the UNIQUE index.
      throw db.isUniqueViolation(err) ? errors.usernameTaken(input.username) : err;
    });
}

/** Creates a key for a user and answers it in clear — the only time it is ever shown. */
export async function createApiKey(db: Db, input: { userId: number; organizationId: number; name: string }) {
  const key = generateApiKey();
  const id = await repo.insertApiKey(db, {
    organizationId: input.organizationId,
    userId: input.userId,
    name: input.name,
    prefix: keyLookup(key),
    hash: hashApiKey(key),
  });
  return { id, key, name: input.name };
}

export function publicKey(row: repo.ApiKeyRow & { username: string }) {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    prefix: row.prefix,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked: row.revoked_at !== null,
  };
}

export function publicUser(row: repo.UserRow) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    disabled: row.disabled === 1,
    created_at: row.created_at,
  };
}

function requireAdmin(principal: Principal): void {
  if (principal.role !== 'admin') throw errors.forbidden();
}

/** GET /v2/me. */
export function describeCaller(principal: Principal) {
  return {
    user_id: principal.userId,
    username: principal.username,
    role: principal.role,
    organization_id: principal.organizationId,
  };
}

/** The e-mail of each of these users (null for one without); a name no user has is left out. */
export function emailsOfUsers(db: Queryable, usernames: readonly string[]) {
  return repo.emailsOf(db, usernames);
}

/** The enabled users of an organization with these names, as the principal each would sign in as. */
export async function principalsNamed(
  db: Queryable,
  organizationId: number,
  usernames: readonly string[],
): Promise<Principal[]> {
  const rows = await repo.enabledUsersNamed(db, organizationId, usernames);
  return rows.map((row) => ({
    organizationId,
    userId: Number(row.id),
    username: row.username,
    role: row.role,
    keyId: null,
    sessionId: null,
  }));
}

/** GET /v2/users: the users of the caller's organization (admins and project managers, who assign them). */
/** Users of the organization by id, as other modules name them (assignments). */
export async function usersByIds(db: Queryable, organizationId: number, ids: readonly number[]) {
  return (await repo.usersByIds(db, organizationId, ids)).map(publicUser);
}

/** The user of the organization a Lilt client names by e-mail (a username works too), or undefined. */
export async function findUserByEmailOrName(db: Queryable, organizationId: number, emailOrName: string) {
  const row = await repo.findUserByEmailOrName(db, organizationId, emailOrName);
  return row ? publicUser(row) : undefined;
}

export async function listUsers(db: Db, principal: Principal) {
  return (await repo.listUsers(db, principal.organizationId)).map(publicUser);
}

/** POST /v2/users: an admin adds a user to their own organization. */
export async function addUser(
  db: Db,
  principal: Principal,
  input: { username: string; password: string; role?: Role | typeof LEGACY_MEMBER_ROLE; email?: string },
) {
  requireAdmin(principal);
  const { id } = await createUser(db, {
    username: input.username,
    password: input.password,
    role: input.role ?? 'project_manager',
    email: input.email ?? null,
    organization: principal.organizationId,
  });
  return publicUser((await repo.findUserById(db, id))!);
}

/**
 * PUT /v2/users: an admin changes a user of their organization — role, disabled, password. A disabled user's
 * sessions end and their keys stop working at once; a new password ends their sessions too. Admins cannot
 * disable or demote themselves (the organization would risk having no admin left).
 */
export async function updateUser(
  db: Db,
  principal: Principal,
  input: { id: number; role?: Role | typeof LEGACY_MEMBER_ROLE; disabled?: boolean; password?: string },
) {
  requireAdmin(principal);
  const role = input.role === undefined ? undefined : storedRole(input.role);
  const user = await repo.findUserById(db, input.id);
  if (!user || user.organization_id !== principal.organizationId) throw errors.notFound('User', input.id);
  if (user.id === principal.userId && (input.disabled === true || (role && role !== 'admin'))) {
    throw errors.badParameter('An admin cannot disable or demote themselves; ask another admin');
  }
  const passwordHash =
    input.password === undefined ? undefined : await hashPassword(requirePassword(input.password));
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, { role, disabled: input.disabled, passwordHash });
    if (input.disabled === true || passwordHash !== undefined) await repo.deleteSessionsOf(tx, user.id);
  });
  return publicUser((await repo.findUserById(db, user.id))!);
}

function requirePassword(password: string): string {
  if (password.length < 8)
    throw errors.badParameter('Parameter "new_password" must have at least 8 characters');
  return password;
}

/**
 * PUT /v2/me/password: the caller changes their own password, proving the current one (a user who has none
 * yet — the bootstrap admin — sets one). Their other sessions stay signed in.
 */
export async function changeOwnPassword(
  db: Db,
  principal: Principal,
  input: { current_password: string; new_password: string },
) {
  const user = await repo.findUserById(db, principal.userId);
  if (!user) throw errors.notFound('User', principal.userId);
  if (user.password_hash && !(await verifyPassword(input.current_password, user.password_hash))) {
    throw errors.badParameter('Parameter "current_password" is not your current password');
  }
  const passwordHash = await hashPassword(requirePassword(input.new_password));
  await repo.updateUser(db, user.id, { passwordHash });
  return { changed: true };
}

/** GET /v2/keys: an admin sees the keys of the organization, a member their own (never the keys themselves). */
export async function listKeys(db: Db, principal: Principal) {
  await keyUsesWritten(db);
  const keys = await repo.listApiKeys(db, principal.organizationId);
  return keys.filter((k) => principal.role === 'admin' || k.user_id === principal.userId).map(publicKey);
}

/** POST /v2/keys: members make keys for themselves; admins for any user of their organization. */
export async function addKey(db: Db, principal: Principal, input: { name?: string; user_id?: number }) {
  let userId = principal.userId;
  if (input.user_id !== undefined && input.user_id !== principal.userId) {
    requireAdmin(principal);
    const user = await repo.findUserById(db, input.user_id);
    if (!user || user.organization_id !== principal.organizationId)
      throw errors.notFound('User', input.user_id);
    userId = user.id;
  }
  return createApiKey(db, { userId, organizationId: principal.organizationId, name: input.name ?? 'api' });
}

/** DELETE /v2/keys: an admin revokes any key of their organization, a member their own; 401 from then on. */
export async function revokeKey(db: Db, principal: Principal, id: number) {
  const ownerOnly = principal.role === 'admin' ? null : principal.userId;
  if (!(await repo.revokeApiKey(db, id, principal.organizationId, ownerOnly)))
    throw errors.notFound('API key', id);
  return { id, deleted: true };
}

/** The CLI's `keys create --user NAME`: a key for a user found by name, in their organization. */
export async function createKeyForUser(db: Db, username: string, name: string) {
  const user = await repo.findUserByName(db, username);
  if (!user) throw errors.notFound('User', username);
  return createApiKey(db, { userId: user.id, organizationId: user.organization_id, name });
}

/** The CLI's `keys list`: every key of every organization. */
export async function listAllKeys(db: Db) {
  await keyUsesWritten(db);
  return (await repo.listApiKeys(db, null)).map(publicKey);
}

/** The CLI's `keys revoke ID`: any organization's key; answers whether one was revoked. */
export function revokeAnyKey(db: Db, id: number): Promise<boolean> {
  return repo.revokeApiKey(db, id, null);
}
