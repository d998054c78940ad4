// The embedded store: better-sqlite3 in WAL mode, one writer connection behind a lock and one reader.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Db, Queryable, SqlParam } from '../db.ts';

/** A FIFO lock: better-sqlite3 is synchronous, but our transactions await between statements. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => {
      release = r;
    });
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    return release;
  }
}

type Connection = InstanceType<typeof Database>;

function statementRunner(conn: Connection): Queryable {
  const cache = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = conn.prepare(sql);
      if (cache.size > 500) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  };
  return {
    async all<T>(sql: string, params: readonly SqlParam[] = []) {
      return prepare(sql).all(...params) as T[];
    },
    async get<T>(sql: string, params: readonly SqlParam[] = []) {
      const stmt = prepare(sql);
      if (stmt.reader) return stmt.get(...params) as T | undefined;
      stmt.run(...params);
      return undefined;
    },
    async run(sql: string, params: readonly SqlParam[] = []) {
      const stmt = prepare(sql);
      if (stmt.reader) {
        stmt.all(...params);
        return { changes: 0 };
      }
      return { changes: stmt.run(...params).changes };
    },
    async insertMany(table, columns, rows) {
      if (rows.length === 0) return;
      const stmt = prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      for (const row of rows) stmt.run(...row);
    },
  };
}

function isReadOnly(sql: string): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(sql);
}

export class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly write: Queryable;
  private readonly read: Queryable;
  private readonly lock = new Mutex();

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.writer = new Database(path);
    this.writer.pragma('journal_mode = WAL');
    this.writer.pragma('synchronous = NORMAL');
    this.writer.pragma('foreign_keys = ON');
    this.writer.pragma('busy_timeout = 5000');
    // 128 MiB of page cache for the writer: bulk imports update large unique indexes.
    this.writer.pragma('cache_size = -131072');
    this.reader = new Database(path, { readonly: true, fileMustExist: true });
    this.reader.pragma('busy_timeout = 5000');
    this.write = statementRunner(this.writer);
    this.read = statementRunner(this.reader);
  }

  // Reads outside a transaction use the reader connection: WAL gives them the last committed state
  // without waiting for a long transaction (an import) on the writer.
  all<T>(sql: string, params?: readonly SqlParam[]) {
    return isReadOnly(sql)
      ? this.read.all<T>(sql, params)
      : this.locked(() => this.write.all<T>(sql, params));
  }
  get<T>(sql: string, params?: readonly SqlParam[]) {
    return isReadOnly(sql)
      ? this.read.get<T>(sql, params)
      : this.locked(() => this.write.get<T>(sql, params));
  }
  run(sql: string, params?: readonly SqlParam[]) {
    return this.locked(() => this.write.run(sql, params));
  }
  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlParam[])[]) {
    return this.transaction((tx) => tx.insertMany(table, columns, rows));
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.locked(async () => {
      this.writer.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.write);
        this.writer.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        throw err;
      }
    });
  }

  // One process owns an SQLite file (the server takes it), so the write lock is exclusive enough.
  withExclusiveLock<T>(_name: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async ping(): Promise<void> {
    this.reader.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    const release = await this.lock.acquire();
    try {
      this.reader.close();
      if (this.writer.open) {
        this.writer.pragma('wal_checkpoint(TRUNCATE)');
        this.writer.close();
      }
    } finally {
      release();
    }
  }

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.lock.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
