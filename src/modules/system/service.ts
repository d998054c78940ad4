// Readiness: the store answers, its schema is current, and every memory's index is loaded.
import type { Db } from '../../store/db.ts';
import { isMigrated } from '../../store/migrate.ts';

export type Readiness = { status: 'ready' } | { status: 'not ready'; message: string; code: string };

export async function readiness(db: Db, isWarm: () => boolean): Promise<Readiness> {
  try {
    await db.ping();
    if (!(await isMigrated(db)))
      return { status: 'not ready', message: 'Store is not migrated', code: 'NOT_MIGRATED' };
  } catch {
    return { status: 'not ready', message: 'Store is unreachable', code: 'STORE_UNAVAILABLE' };
  }
  if (!isWarm()) return { status: 'not ready', message: 'Loading memory indexes', code: 'WARMING_UP' };
  return { status: 'ready' };
}
