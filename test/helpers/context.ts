// One helper builds the app for a test: a fresh store, migrated, bootstrapped with a known admin key.
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Role } from '../../src/http/principal.ts';
import type { App } from '../../src/http/types.ts';
import { lowerPasswordHashCostForTests } from '../../src/modules/users/credentials.ts';
import { bootstrap, createApiKey, createUser } from '../../src/modules/users/service.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { StoreTarget } from './stores.ts';

// Passwords hashed in a test process cost scrypt N=2^10 instead of 2^15 (~50 ms and 32 MiB each, seconds on a
// busy machine); src/modules/users/credentials.test.ts keeps the production cost tested.
lowerPasswordHashCostForTests(2 ** 10);

export const ADMIN_KEY = 'tsk_test-admin-key-0123456789abcdefghijklmnopqrstuv';

export interface TestContext {
  app: App;
  db: Db;
  config: Config;
  adminKey: string;
  /** Every log line the app wrote, as text. */
  logs(): string;
  close(): Promise<void>;
}

export async function createContext(
  target: StoreTarget,
  env: Record<string, string> = {},
  /** Runs on the app before it is ready, e.g. to add a route that only a test needs. */
  setup?: (app: App) => void,
): Promise<TestContext> {
  const store = await target.create();
  const config = loadConfig({
    TESSERA_DATA_DIR: store.dataDir,
    ...(store.databaseUrl ? { TESSERA_DATABASE_URL: store.databaseUrl } : {}),
    TESSERA_LOG_LEVEL: 'info',
    ...env,
  });
  const db = openStore(config);
  await migrate(db);
  await bootstrap(db, ADMIN_KEY);
  let logText = '';
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logText += chunk.toString();
      done();
    },
  });
  const app = await buildApp({ config, db, logStream });
  setup?.(app);
  await app.ready();
  while (!app.indexes.warm) await new Promise((r) => setTimeout(r, 5));
  return {
    app,
    db,
    config,
    adminKey: ADMIN_KEY,
    logs: () => logText,
    async close() {
      await app.close();
      await db.close();
      await store.cleanup();
    },
  };
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** Creates a user (in the default organization unless named) and answers an API key acting as them. */
export async function userKey(
  ctx: TestContext,
  user: { username: string; password: string; role: Role | 'member'; organization?: string; email?: string },
): Promise<string> {
  const created = await createUser(ctx.db, user);
  return (
    await createApiKey(ctx.db, { userId: created.id, organizationId: created.organizationId, name: 'test' })
  ).key;
}
