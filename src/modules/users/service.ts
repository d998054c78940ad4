// Accounts: first-start bootstrap, authentication of API keys and passwords, users and keys management.
import { errors } from '../../errors.ts';
import type { Db } from '../../store/db.ts';
import {
  apiKeyMatches,
  generateApiKey,
  hashApiKey,
  hashPassword,
  keyLookup,
  verifyPassword,
} from './credentials.ts';
import type { Role } from './repository.ts';
import * as repo from './repository.ts';

/** Who is calling: resolved once per request by the auth plugin. */
export interface Principal {
  organizationId: number;
  userId: number;
  username: string;
  role: Role;
  /** The API key used, or null for a username/password login. */
  keyId: number | null;
}

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
  return {
    organizationId: Number(found.organization_id),
    userId: Number(found.user_id),
    username: found.username,
    role: found.role,
    keyId: Number(found.id),
  };
}

// A fixed scrypt hash to verify against when the user does not exist, so that a missing user costs the
// same time as a wrong password and user names cannot be probed by timing.
let dummyHash: Promise<string> | undefined;

export async function authenticatePassword(
  db: Db,
  username: string,
  password: string,
): Promise<Principal | null> {
  const user = await repo.findUserByName(db, username);
  dummyHash ??= hashPassword('tessera-dummy-password');
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyHash));
  if (!user?.password_hash || !ok || user.disabled) return null;
  return {
    organizationId: Number(user.organization_id),
    userId: Number(user.id),
    username: user.username,
    role: user.role,
    keyId: null,
  };
}

/** Creates a user; the organization is created when it does not exist yet (CLI use). */
export async function createUser(
  db: Db,
  input: {
    username: string;
    password: string | null;
    role: Role;
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
  if (await repo.findUserByName(db, input.username)) {
    throw errors.conflict(`User "${input.username}" already exists`);
  }
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  return db.transaction(async (tx) => {
    let organizationId: number;
    if (typeof input.organization === 'number') {
      organizationId = input.organization;
    } else {
      const orgName = input.organization ?? DEFAULT_ORGANIZATION;
      const org = await repo.findOrganizationByName(tx, orgName);
      organizationId = org ? Number(org.id) : await repo.insertOrganization(tx, orgName);
    }
    const id = await repo.insertUser(tx, {
      organizationId,
      username: input.username,
      email: input.email ?? null,
      passwordHash,
      role: input.role,
    });
    return { id, organizationId, username: input.username, role: input.role };
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
    id: Number(row.id),
    name: row.name,
    username: row.username,
    prefix: row.prefix,
    created_at: Number(row.created_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
    revoked: row.revoked_at !== null,
  };
}

export function publicUser(row: repo.UserRow) {
  return {
    id: Number(row.id),
    username: row.username,
    email: row.email,
    role: row.role,
    created_at: Number(row.created_at),
  };
}
