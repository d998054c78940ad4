// The shared store: PostgreSQL through a pg connection pool; several Tessera instances may use one database.
import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  type Db,
  type InsertOptions,
  insertPrefix,
  insertSuffix,
  type Queryable,
  type SqlParam,
  type Transaction,
} from '../db.ts';

// BIGINT (ids, counts, timestamps) comes back as a string by default; all of ours fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

/** `?` placeholders to `$1…`; our SQL never holds a literal question mark. */
export function toPgSql(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

// Multi-row VALUES lists stay under PostgreSQL's 65,535-parameter limit.
const MAX_PARAMS = 60_000;

function clientRunner(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async all<T>(sql: string, params: readonly SqlParam[] = []) {
      const result = await client.query(toPgSql(sql), params as unknown[]);
      return result.rows as T[];
    },
    async get<T>(sql: string, params: readonly SqlParam[] = []) {
      const result = await client.query(toPgSql(sql), params as unknown[]);
      return result.rows[0] as T | undefined;
    },
    async run(sql: string, params: readonly SqlParam[] = []) {
      const result = await client.query(toPgSql(sql), params as unknown[]);
      return { changes: result.rowCount ?? 0 };
    },
    async insertMany(table, columns, rows, options) {
      const perBatch = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
      let inserted = 0;
      for (let i = 0; i < rows.length; i += perBatch) {
        const batch = rows.slice(i, i + perBatch);
        const params: SqlParam[] = [];
        const tuples = batch.map((row) => {
          const start = params.length;
          params.push(...row);
          return `(${row.map((_, j) => `$${start + j + 1}`).join(', ')})`;
        });
        const result = await client.query(
          `${insertPrefix(table, columns)} ${tuples.join(', ')}${insertSuffix(options)}`,
          params,
        );
        inserted += result.rowCount ?? 0;
      }
      return inserted;
    },
  };
}

/** A transaction's statements on its client: with allocateIds, which only a transaction may call. */
function transactionRunner(client: pg.PoolClient): Transaction {
  const runner = clientRunner(client);
  return {
    ...runner,
    async allocateIds(count) {
      if (count === 0) return [];
      const rows = await runner.all<{ id: number }>(
        "SELECT nextval('segment_ids') AS id FROM generate_series(1, ?::int)",
        [count],
      );
      return rows.map((r) => r.id);
    },
  };
}

/** A 64-bit advisory lock key from a name, stable across processes. */
function lockKey(name: string): string {
  return createHash('sha256').update(`tessera:${name}`).digest().readBigInt64BE(0).toString();
}

export class PostgresDb implements Db {
  readonly dialect = 'postgres' as const;
  readonly shared = true;
  readonly claimLockClause = 'FOR UPDATE SKIP LOCKED';
  private readonly pool: pg.Pool;
  private readonly runner: Queryable;
  /** The one connection LISTENing for this process, opened on the first listen(). */
  private listener: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closing = false;

  constructor(readonly url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle client's connection error must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
    this.runner = clientRunner(this.pool);
  }

  all<T>(sql: string, params?: readonly SqlParam[]) {
    return this.runner.all<T>(sql, params);
  }
  get<T>(sql: string, params?: readonly SqlParam[]) {
    return this.runner.get<T>(sql, params);
  }
  run(sql: string, params?: readonly SqlParam[]) {
    return this.runner.run(sql, params);
  }
  insertMany(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlParam[])[],
    options?: InsertOptions,
  ) {
    return this.runner.insertMany(table, columns, rows, options);
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(transactionRunner(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async withExclusiveLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const key = lockKey(name);
    try {
      await client.query('SELECT pg_advisory_lock($1::bigint)', [key]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
      }
    } finally {
      client.release();
    }
  }

  // Every query awaits the server: background work gives the event loop its turns by itself.
  background(): Db {
    return this;
  }

  isUniqueViolation(err: unknown): boolean {
    return (err as { code?: string }).code === '23505';
  }

  isForeignKeyViolation(err: unknown): boolean {
    return (err as { code?: string }).code === '23503';
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  async listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    const client = await this.listenerClient();
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      this.handlers.set(channel, (handlers = new Set()));
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    handlers.add(handler);
    return async () => {
      handlers.delete(handler);
    };
  }

  /** The listening connection; when it breaks, a new one takes its place and LISTENs again. */
  private listenerClient(): Promise<pg.Client> {
    this.listener ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on('notification', (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', () => {
        this.listener = undefined;
        client.end().catch(() => {});
        this.relisten();
      });
      try {
        await client.connect();
      } catch (err) {
        this.listener = undefined;
        throw err;
      }
      return client;
    })();
    return this.listener;
  }

  /** After the listening connection broke: a new one LISTENs to every channel again, retried until it does. */
  private relisten(): void {
    if (this.closing || this.handlers.size === 0) return;
    setTimeout(() => {
      if (this.closing) return;
      this.listenerClient()
        .then(async (next) => {
          for (const channel of this.handlers.keys()) {
            await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
          }
        })
        .catch(() => this.relisten());
    }, 1000).unref();
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    this.closing = true;
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await (await listener.catch(() => null))?.end().catch(() => {});
    await this.pool.end();
  }
}
