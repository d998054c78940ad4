// The server processes sharing a store. Each registers itself and beats a heartbeat while it lives; what a
// process holds (an upload being stored, an export being streamed, a running task) names it, so that others
// can tell a holder that died from one still at work, and release what it held.
import type { Queryable } from './db.ts';
import { nowSeconds } from './db.ts';

/**
 * A process whose heartbeat is older than its timeout (TESSERA_INSTANCE_TIMEOUT, 30 s by default) is dead;
 * a live one beats six times per timeout, so it is never taken for dead by a pause we cause.
 */
export const BEATS_PER_TIMEOUT = 6;

/** SQL condition: the instance named by `column` is alive (one `?`: the cutoff, from liveCutoff()). */
export function isLive(column: string): string {
  return `EXISTS (SELECT 1 FROM instances i WHERE i.id = ${column} AND i.heartbeat_at >= ?)`;
}

/**
 * SQL condition: the instance named by `column` is known and dead (one `?`: the cutoff, from liveCutoff()).
 * A name no instance has (a tool's) is neither live nor dead.
 */
export function isDead(column: string): string {
  return `EXISTS (SELECT 1 FROM instances i WHERE i.id = ${column} AND i.heartbeat_at < ?)`;
}

/** The oldest heartbeat that still counts as alive. */
export function liveCutoff(timeoutSeconds: number, now = nowSeconds()): number {
  return now - timeoutSeconds;
}

export async function registerInstance(db: Queryable, id: string): Promise<void> {
  const now = nowSeconds();
  await db.run('INSERT INTO instances (id, started_at, heartbeat_at) VALUES (?, ?, ?)', [id, now, now]);
}

export async function beat(db: Queryable, id: string): Promise<void> {
  await db.run('UPDATE instances SET heartbeat_at = ? WHERE id = ?', [nowSeconds(), id]);
}

export async function removeInstance(db: Queryable, id: string): Promise<void> {
  await db.run('DELETE FROM instances WHERE id = ?', [id]);
}

/**
 * Declares every other instance dead (their heartbeat is zeroed): for a store only one process can hold,
 * as the embedded SQLite store is once its data directory is locked.
 */
export async function declareOthersDead(db: Queryable, id: string): Promise<void> {
  await db.run('UPDATE instances SET heartbeat_at = 0 WHERE id <> ?', [id]);
}

/** Forgets instances dead for a day: nothing can still name them. */
export async function forgetLongDead(db: Queryable, now = nowSeconds()): Promise<void> {
  await db.run('DELETE FROM instances WHERE heartbeat_at < ?', [now - 86_400]);
}
