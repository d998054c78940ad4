import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteDb } from './sqlite-db.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('commits leave the log to the checkpoint thread, which copies it into the database', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-checkpoint-'));
  const path = join(dir, 'db.sqlite');
  const db = new SqliteDb(path);
  try {
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    const rows = Array.from({ length: 20_000 }, (_, i) => [i + 1, `row ${i} ${'x'.repeat(100)}`]);
    const before = statSync(path).size;
    await db.insertMany('t', ['id', 'text'], rows);
    // The commit wrote ~2.5 MB to the log; with SQLite's automatic checkpoint it would already be in the
    // database file. The writer's is off: the database file may only grow by the checkpoint thread.
    const [{ wal_autocheckpoint }] = await db.all<{ wal_autocheckpoint: number }>(
      'PRAGMA wal_autocheckpoint',
    );
    assert.equal(wal_autocheckpoint, 0);
    let grown = statSync(path).size;
    for (let waited = 0; grown < before + 2_000_000 && waited < 5000; waited += 50) {
      await sleep(50);
      grown = statSync(path).size;
    }
    assert.ok(grown >= before + 2_000_000, `database file ${before} → ${grown} bytes: no checkpoint ran`);
    const count = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM t');
    assert.equal(count?.n, 20_000);
  } finally {
    // Stops the thread; the test process then ends on its own (a thread left running would hold it).
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
