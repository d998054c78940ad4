// The one store interface both databases implement: SQL with `?` placeholders, written once for both dialects.
//
// Repositories (src/modules/*/repository.ts) use only this interface and SQL common to SQLite and
// PostgreSQL: INTEGER/BIGINT columns for booleans and Unix-second timestamps, RETURNING, ON CONFLICT.
// Where the dialects differ, the difference is a member of this interface, implemented in the dialect's
// folder (store/sqlite, store/postgres): no code outside them asks which database it runs on.
//
// Rows come back with JavaScript numbers for every integer column on both stores (PostgreSQL's BIGINT is
// parsed as a number in store/postgres), so row types are true as declared and need no casts.

export type SqlParam = string | number | bigint | null | Buffer;

export interface Queryable {
  /** All rows of a query. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<T | undefined>;
  /** A statement without rows; answers how many rows it changed. */
  run(sql: string, params?: readonly SqlParam[]): Promise<{ changes: number }>;
  /**
   * Inserts many rows of the same columns quickly (prepared statement or multi-row VALUES); answers how many
   * went in. With `skipConflictsOn` (a unique index's columns), a row that repeats one already stored, or
   * an earlier row of the same call, is skipped rather than refused.
   */
  insertMany(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlParam[])[],
    options?: InsertOptions,
  ): Promise<number>;
}

/**
 * The queryable a transaction's function is given (Db.transaction): what only a transaction may do is on it,
 * so that it cannot be done outside one.
 */
export interface Transaction extends Queryable {
  /**
   * `count` new ids from the one sequence that memory entries and document segments share
   * (GET /v2/segments?id= serves both, so their ids never collide).
   */
  allocateIds(count: number): Promise<number[]>;
}

export interface InsertOptions {
  skipConflictsOn?: readonly string[];
}

/** The INSERT statement of Queryable.insertMany, up to its VALUES. */
/**
 * Whether a statement only reads: a SELECT or WITH that neither writes nor calls a function with an effect
 * (a sequence, a notification, an advisory lock) nor locks rows. The embedded store sends these to its
 * reader connection; the shared store may send them again after a lost connection.
 */
export function isReadOnly(sql: string): boolean {
  return (
    /^\s*(SELECT|WITH)\b/i.test(sql) &&
    !/\b(INSERT|UPDATE|DELETE|nextval|setval|pg_notify|pg_advisory\w*|FOR\s+(KEY\s+)?SHARE)\b/i.test(sql)
  );
}

export function insertPrefix(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES`;
}

/** What follows the VALUES of Queryable.insertMany's statement. */
export function insertSuffix(options: InsertOptions = {}): string {
  return options.skipConflictsOn ? ` ON CONFLICT (${options.skipConflictsOn.join(', ')}) DO NOTHING` : '';
}

export interface TransactionOptions {
  /**
   * A bulk write (a memory import's hundreds of thousands of entries into large unique indexes): the
   * embedded store gives it a page cache eight times larger, which makes imports 20 % faster; its commit
   * then writes more at once, so the interactive paths (edits, pre-translation) keep the small one.
   */
  bulk?: boolean;
}

export interface Db extends Queryable {
  readonly dialect: 'sqlite' | 'postgres';
  /** Several server processes may use this store at once (PostgreSQL); the embedded one is one process's. */
  readonly shared: boolean;
  /**
   * Runs fn in one transaction: committed when it resolves, rolled back when it throws.
   * Queries inside must go through `tx`; the transaction holds the store's write lock on SQLite.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs fn holding a lock that is exclusive across every process sharing the store. */
  withExclusiveLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * What a task claim's row-selecting sub-query ends with, so that concurrent claimers take different rows:
   * `FOR UPDATE SKIP LOCKED` on PostgreSQL; nothing on SQLite, where one writer serialises claims.
   */
  readonly claimLockClause: string;
  /**
   * The same store, for background work (tasks, the streaming of large exports). On the embedded store its
   * statements give the event loop a turn every few milliseconds, so that requests are not held behind a
   * long task; a request's own statements (this object's) run straight through.
   */
  background(): Db;
  /** True when err is this database refusing a row that breaks a UNIQUE constraint (a lost race). */
  isUniqueViolation(err: unknown): boolean;
  /** True when err is this database refusing to delete a row that others still reference. */
  isForeignKeyViolation(err: unknown): boolean;
  /**
   * Sends a notification on a channel to every listener of every process sharing the store (PostgreSQL's
   * NOTIFY; on the embedded store, this process's listeners). Payloads stay under 8000 bytes.
   */
  notify(channel: string, payload: string): Promise<void>;
  /** Receives the channel's notifications until the answered function is called. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** Checks the database answers (for /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Unix seconds now: every timestamp column holds these. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Rows deleted per statement by deleteInSlices. */
const DELETE_SLICE = 2000;

/**
 * Deletes the rows matching `where` a slice at a time (by their `key` column), so that deleting a large
 * memory or document never runs as one long statement holding the embedded store's only thread.
 * Answers how many rows went. Inside a transaction the whole delete stays all or nothing.
 */
export async function deleteInSlices(
  db: Queryable,
  target: { table: string; key: string; where: string; params: readonly SqlParam[] },
): Promise<number> {
  const { table, key, where, params } = target;
  const sql = `DELETE FROM ${table} WHERE ${where} AND ${key} IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${DELETE_SLICE})`;
  let deleted = 0;
  for (;;) {
    const { changes } = await db.run(sql, [...params, ...params]);
    deleted += changes;
    if (changes < DELETE_SLICE) return deleted;
  }
}

/** Rows deleted per statement by deleteStagedRange. */
const STAGED_SLICE = 10_000;

/**
 * Deletes a task's staged rows (a table keyed by task_id and a sequence number seq) a range of seq at a time:
 * cheaper than deleteInSlices, as each statement is a plain range of the primary key.
 */
export async function deleteStaged(db: Queryable, table: string, taskId: number): Promise<void> {
  const range = await db.get<{ lo: number | null; hi: number | null }>(
    `SELECT MIN(seq) AS lo, MAX(seq) AS hi FROM ${table} WHERE task_id = ?`,
    [taskId],
  );
  if (range?.lo === null || range?.lo === undefined || range.hi === null) return;
  for (let from = range.lo; from <= range.hi; from += STAGED_SLICE) {
    await db.run(`DELETE FROM ${table} WHERE task_id = ? AND seq >= ? AND seq < ?`, [
      taskId,
      from,
      from + STAGED_SLICE,
    ]);
  }
}
