// Migration 031 on a store that has users already: `member` becomes `project_manager`, admins stay, their API
// keys stay (SQLite carries the column over without rebuilding the table the keys refer to), and the role's
// CHECK takes the four roles and nothing else. On every store.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { listMigrations } from '../src/store/migrate.ts';
import { openStore } from '../src/store/open-store.ts';
import { storeTargets } from './helpers/stores.ts';

/** The statements of a migration file, as the migrator splits them. */
const statements = (sql: string) =>
  sql
    .replace(/^\s*--.*$/gm, '')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);

for (const target of await storeTargets()) {
  test(`migration 031 keeps users and keys, members become project managers, on ${target.name}`, async () => {
    const store = await target.create();
    const db = openStore(
      loadConfig({
        TESSERA_DATA_DIR: store.dataDir,
        ...(store.databaseUrl ? { TESSERA_DATABASE_URL: store.databaseUrl } : {}),
      }),
    );
    try {
      for (const migration of listMigrations(db.dialect)) {
        if (migration.version.startsWith('031')) {
          // The store as it was before: a member with a key, and an admin.
          await db.run("INSERT INTO organizations (name, created_at) VALUES ('acme', 1)");
          const org = (await db.get<{ id: number }>('SELECT id FROM organizations'))!.id;
          await db.run(
            "INSERT INTO users (organization_id, username, role, created_at) VALUES (?, 'mia', 'member', 1), (?, 'ada', 'admin', 1)",
            [org, org],
          );
          const mia = (await db.get<{ id: number }>("SELECT id FROM users WHERE username = 'mia'"))!.id;
          await db.run(
            "INSERT INTO api_keys (organization_id, user_id, name, prefix, hash, created_at) VALUES (?, ?, 'ci', 'p', 'h', 1)",
            [org, mia],
          );
        }
        await db.transaction(async (tx) => {
          for (const statement of statements(migration.sql)) await tx.run(statement);
        });
      }
      assert.deepEqual(await db.all('SELECT username, role FROM users ORDER BY username'), [
        { username: 'ada', role: 'admin' },
        { username: 'mia', role: 'project_manager' },
      ]);
      assert.deepEqual(await db.all('SELECT name FROM api_keys'), [{ name: 'ci' }]);
      await db.run("UPDATE users SET role = 'reviewer' WHERE username = 'mia'");
      await assert.rejects(db.run("UPDATE users SET role = 'member' WHERE username = 'mia'"));
    } finally {
      await db.close();
      await store.cleanup();
    }
  });
}
