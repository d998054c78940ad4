// The stores every integration suite runs against: SQLite always, PostgreSQL when a server answers
// (in CI, CI=true, it must). Each test context gets its own fresh database, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const TEST_PG_URL =
  process.env.TESSERA_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface StoreTarget {
  name: 'sqlite' | 'postgres';
  /** Creates an empty database; answers the settings that select it and a cleanup. */
  create(): Promise<{ databaseUrl: string | undefined; dataDir: string; cleanup(): Promise<void> }>;
}

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const sqlite: StoreTarget = {
  name: 'sqlite',
  async create() {
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-test-'));
    return {
      databaseUrl: undefined,
      dataDir,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};

const postgres: StoreTarget = {
  name: 'postgres',
  async create() {
    const name = `tessera_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(TEST_PG_URL);
    url.pathname = `/${name}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-test-'));
    return {
      databaseUrl: url.toString(),
      dataDir,
      async cleanup() {
        rmSync(dataDir, { recursive: true, force: true });
        const client = new pg.Client({ connectionString: TEST_PG_URL });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  },
};

let cached: Promise<StoreTarget[]> | undefined;

/** SQLite, plus PostgreSQL when reachable; outside CI a missing server skips it with one visible line. */
export function storeTargets(): Promise<StoreTarget[]> {
  cached ??= (async () => {
    if (await postgresAnswers()) return [sqlite, postgres];
    if (process.env.CI === 'true') {
      throw new Error(
        `PostgreSQL at ${TEST_PG_URL} does not answer, and CI=true requires the PostgreSQL suite`,
      );
    }
    // Each test file runs in its own process; the line is printed by the first of them only.
    try {
      closeSync(openSync(join(tmpdir(), `tessera-pg-skip-${process.ppid}`), 'wx'));
      process.stdout.write(`# SKIP PostgreSQL suite: no server answers at ${TEST_PG_URL}\n`);
    } catch {}
    return [sqlite];
  })();
  return cached;
}
