// The one store interface both databases implement: SQL with `?` placeholders, written once for both dialects.
//
// Repositories (src/modules/*/repository.ts) use only this interface and SQL common to SQLite and
// PostgreSQL: INTEGER/BIGINT columns for booleans and Unix-second timestamps, RETURNING, ON CONFLICT.

export type SqlParam = string | number | bigint | null | Buffer;

export interface Queryable {
  /** All rows of a query. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<T | undefined>;
  /** A statement without rows; answers how many rows it changed. */
  run(sql: string, params?: readonly SqlParam[]): Promise<{ changes: number }>;
  /** Inserts many rows of the same columns quickly (prepared statement or multi-row VALUES). */
  insertMany(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlParam[])[],
  ): Promise<void>;
}

export interface Db extends Queryable {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs fn in one transaction: committed when it resolves, rolled back when it throws.
   * Queries inside must go through `tx`; the transaction holds the store's write lock on SQLite.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs fn holding a lock that is exclusive across every process sharing the store. */
  withExclusiveLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Checks the database answers (for /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Unix seconds now: every timestamp column holds these. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
