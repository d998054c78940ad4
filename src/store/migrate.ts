// Schema migrations: numbered SQL files per dialect, applied in order and recorded in schema_migrations.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db.ts';
import { nowSeconds } from './db.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

export interface Migration {
  version: string;
  sql: string;
}

export function listMigrations(dialect: Db['dialect']): Migration[] {
  const dir = join(MIGRATIONS_DIR, dialect);
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(join(dir, f), 'utf8') }));
}

/**
 * Applies the migrations not yet recorded; answers the versions applied now. On PostgreSQL this runs
 * under an advisory lock, so instances starting together apply each migration exactly once.
 */
export async function migrate(db: Db): Promise<string[]> {
  return db.withExclusiveLock('migrations', async () => {
    await db.run(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)',
    );
    const done = new Set(
      (await db.all<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version),
    );
    const applied: string[] = [];
    for (const migration of listMigrations(db.dialect)) {
      if (done.has(migration.version)) continue;
      await db.transaction(async (tx) => {
        for (const statement of splitStatements(migration.sql)) await tx.run(statement);
        await tx.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [
          migration.version,
          nowSeconds(),
        ]);
      });
      applied.push(migration.version);
    }
    return applied;
  });
}

/** True when every migration is applied (for /readyz). */
export async function isMigrated(db: Db): Promise<boolean> {
  try {
    const rows = await db.all<{ version: string }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    return listMigrations(db.dialect).every((m) => done.has(m.version));
  } catch {
    return false;
  }
}

// Statements are separated by ";" at a line end; our migration files hold no procedural bodies.
function splitStatements(sql: string): string[] {
  return sql
    .replace(/^\s*--.*$/gm, '')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}
