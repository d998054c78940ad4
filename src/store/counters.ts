// Counters in fixed time windows, kept in the store so that every process sharing it counts together.
import type { Queryable } from './db.ts';

/** Counts one more for key in the window starting at windowStart (ms); answers the count so far. */
export async function incrementCounter(db: Queryable, key: string, windowStart: number): Promise<number> {
  const row = await db.get<{ count: number }>(
    `INSERT INTO counters (key, window_start, count) VALUES (?, ?, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = counters.count + 1
     RETURNING count`,
    [key, windowStart],
  );
  return row!.count;
}

export async function readCounter(db: Queryable, key: string, windowStart: number): Promise<number> {
  const row = await db.get<{ count: number }>(
    'SELECT count FROM counters WHERE key = ? AND window_start = ?',
    [key, windowStart],
  );
  return row?.count ?? 0;
}

/** Forgets windows that started before `before` (ms). */
export async function deleteCountersBefore(db: Queryable, before: number): Promise<number> {
  const { changes } = await db.run('DELETE FROM counters WHERE window_start < ?', [before]);
  return changes;
}
