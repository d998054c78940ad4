// The embedded store: better-sqlite3 in WAL mode, one writer connection behind a lock and one reader.
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Breather } from '../../pacing.ts';
import {
  type Db,
  type InsertOptions,
  insertPrefix,
  insertSuffix,
  isReadOnly,
  type Queryable,
  type SqlParam,
  type Transaction,
  type TransactionOptions,
} from '../db.ts';
import { Checkpointer } from './checkpointer.ts';

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

// better-sqlite3 answers synchronously, so a task's loop of statements would run as one long task, and no
// request (not even /healthz) would be served until it ended. Every statement of the background view
// (Db.background(): tasks, large exports) first asks the Breather (src/pacing.ts) whether the event loop has
// been held past HOLD_MS, and if so gives it a turn. A request's own statements never give way (it would
// only wait behind the task). Reads beside a long transaction are served by the reader connection (WAL);
// writes wait for the writer, as SQLite has one; checkpoints run on a thread of their own (checkpointer.ts).

/** Rows inserted per statement loop between two chances to breathe. */
const INSERT_SLICE = 500;

function statementRunner(conn: Connection, breather: Breather | null): Queryable {
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
      await breather?.breathe();
      return prepare(sql).all(...params) as T[];
    },
    async get<T>(sql: string, params: readonly SqlParam[] = []) {
      await breather?.breathe();
      const stmt = prepare(sql);
      if (stmt.reader) return stmt.get(...params) as T | undefined;
      stmt.run(...params);
      return undefined;
    },
    async run(sql: string, params: readonly SqlParam[] = []) {
      await breather?.breathe();
      const stmt = prepare(sql);
      if (stmt.reader) {
        stmt.all(...params);
        return { changes: 0 };
      }
      return { changes: stmt.run(...params).changes };
    },
    async insertMany(table, columns, rows, options) {
      if (rows.length === 0) return 0;
      const stmt = prepare(
        `${insertPrefix(table, columns)} (${columns.map(() => '?').join(', ')})${insertSuffix(options)}`,
      );
      let inserted = 0;
      for (let i = 0; i < rows.length; i += INSERT_SLICE) {
        await breather?.breathe();
        for (const row of rows.slice(i, i + INSERT_SLICE)) inserted += stmt.run(...row).changes;
      }
      return inserted;
    },
  };
}

// The shared sequence is memory_entries' AUTOINCREMENT counter: document segments take their ids from it
// too, so an entry inserted later never gets a segment's id.
async function allocateIds(tx: Queryable, count: number): Promise<number[]> {
  if (count === 0) return [];
  const current = await tx.get<{ seq: number }>(
    "SELECT seq FROM sqlite_sequence WHERE name = 'memory_entries'",
  );
  if (!current) {
    const max = await tx.get<{ m: number | null }>('SELECT MAX(id) AS m FROM memory_entries');
    await tx.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('memory_entries', ?)", [max?.m ?? 0]);
  }
  const row = await tx.get<{ seq: number }>(
    "UPDATE sqlite_sequence SET seq = seq + ? WHERE name = 'memory_entries' RETURNING seq",
    [count],
  );
  const end = row!.seq;
  return Array.from({ length: count }, (_, i) => end - count + 1 + i);
}

/** The writer's statements as a transaction's: with allocateIds, which only a transaction may call. */
function transactionOf(writer: Queryable): Transaction {
  return { ...writer, allocateIds: (count) => allocateIds(writer, count) };
}

/** The connections and the write lock, shared by a store and its background view. */
interface Connections {
  writer: Connection;
  reader: Connection;
  lock: Mutex;
  /** Notifications: the embedded store belongs to one process, so they stay in it. */
  channels: EventEmitter;
  checkpointer: Checkpointer;
}

// The writer's page cache, in KiB (negative: SQLite's unit for a size). A commit writes every page its
// transaction dirtied and still holds in the cache, on the server's thread: with 128 MiB, committing a
// pre-translation of 100,000 segments took 70 ms, with 16 MiB 27 ms (the rest spilled to the log during the
// statements, between which the event loop gets its turns). Bulk imports get 128 MiB: 36k → 44k units/s at
// one million units. 256 MiB applied ten million staged units faster in better-sqlite3 alone (127 s against
// 183), but not measurably in the server, where its commit held the thread 1.6 s (a million units) and the
// import's RSS grew past the bench's bounded check; inserting while parsing, ten million units ran at
// 43,686 units/s with it against 44,266 with 128 MiB (one run each, the first CPU-profiled).
const CACHE_KIB = -16384;
/** The page cache of a bulk transaction, in MiB: an import's RSS grows by up to this while it runs. */
export const BULK_CACHE_MIB = 128;
const BULK_CACHE_KIB = -BULK_CACHE_MIB * 1024;

function openConnections(path: string): Connections {
  mkdirSync(dirname(path), { recursive: true });
  const writer = new Database(path);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = NORMAL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  writer.pragma(`cache_size = ${CACHE_KIB}`);
  // Checkpoints run on a thread of their own, not inside the commits of this one (checkpointer.ts).
  writer.pragma('wal_autocheckpoint = 0');
  const reader = new Database(path, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  const channels = new EventEmitter();
  channels.setMaxListeners(0);
  return { writer, reader, lock: new Mutex(), channels, checkpointer: new Checkpointer(path) };
}

export class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  readonly shared = false;
  readonly claimLockClause = '';
  private readonly connections: Connections;
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly write: Queryable;
  private readonly writeTransaction: Transaction;
  private readonly read: Queryable;
  private readonly lock: Mutex;
  private backgroundView: SqliteDb | undefined;

  constructor(
    readonly path: string,
    shared?: { connections: Connections; breather: Breather },
  ) {
    this.connections = shared?.connections ?? openConnections(path);
    this.writer = this.connections.writer;
    this.reader = this.connections.reader;
    this.lock = this.connections.lock;
    const breather = shared?.breather ?? null;
    this.write = statementRunner(this.writer, breather);
    this.writeTransaction = transactionOf(this.write);
    this.read = statementRunner(this.reader, breather);
  }

  background(): Db {
    this.backgroundView ??= new SqliteDb(this.path, {
      connections: this.connections,
      breather: new Breather(),
    });
    return this.backgroundView;
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
  insertMany(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlParam[])[],
    options?: InsertOptions,
  ) {
    return this.transaction((tx) => tx.insertMany(table, columns, rows, options));
  }

  // Delivered on a later turn of the event loop, as a notification from another process would be.
  async notify(channel: string, payload: string): Promise<void> {
    setImmediate(() => this.connections.channels.emit(channel, payload));
  }

  async listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    this.connections.channels.on(channel, handler);
    return async () => {
      this.connections.channels.off(channel, handler);
    };
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.locked(async () => {
      if (options.bulk) this.writer.pragma(`cache_size = ${BULK_CACHE_KIB}`);
      try {
        return await this.inTransaction(fn);
      } finally {
        // Shrinking the cache lets go of the pages past the new size.
        if (options.bulk) this.writer.pragma(`cache_size = ${CACHE_KIB}`);
      }
    });
  }

  private async inTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    this.writer.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn(this.writeTransaction);
      this.writer.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
      throw err;
    }
  }

  // One process owns an SQLite file (the server takes it), so the write lock is exclusive enough.
  withExclusiveLock<T>(_name: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  isUniqueViolation(err: unknown): boolean {
    const code = (err as { code?: string }).code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  }

  isForeignKeyViolation(err: unknown): boolean {
    return (err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
  }

  async ping(): Promise<void> {
    this.reader.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    const release = await this.lock.acquire();
    try {
      await this.connections.checkpointer.stop();
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
