// Opens the store a configuration names: PostgreSQL for a postgres:// URL, else SQLite under the data dir.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { PostgresDb } from './postgres/postgres-db.ts';
import { SqliteDb } from './sqlite/sqlite-db.ts';

export function openStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Db {
  if (config.databaseUrl) return new PostgresDb(config.databaseUrl);
  return new SqliteDb(join(config.dataDir, 'tessera.db'));
}
