// The shared store: PostgreSQL through a pg connection pool; several Tessera instances may use one database.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { errors, isStoreUnavailable } from '../../errors.ts';
import {
  type Db,
  type InsertOptions,
  insertPrefix,
  insertSuffix,
  isReadOnly,
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

// SQLSTATEs of a server going away: class 08 (connection exception), and 57P01-57P03 (terminated by an
// administrator or a shutdown, a crash, not accepting connections yet).
const LOST_STATES = /^(08...|57P0[123])$/;
// What the driver and the socket say when the connection broke or could not be made.
const LOST_MESSAGES =
  /Connection terminated|not queryable|Client was closed|timeout exceeded when trying to connect|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH/;

/** True when err is the connection to the server lost or refused, rather than a statement's own failure. */
export function isConnectionLost(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (LOST_STATES.test(code) || LOST_MESSAGES.test(code))) return true;
  return LOST_MESSAGES.test(err.message);
}

/** A lost connection becomes the one error callers recognise (503 to a client, a retry to the worker). */
function translated(err: unknown): unknown {
  if (!isConnectionLost(err)) return err;
  const e = err as Error & { code?: string };
  const detail = e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message;
  const lost = errors.storeUnavailable(detail);
  lost.cause = err;
  return lost;
}

/** Runs a statement; a lost connection rejects as StoreUnavailableError. */
async function query(client: pg.Pool | pg.ClientBase, sql: string, params: unknown[]) {
  try {
    return await client.query(sql, params);
  } catch (err) {
    throw translated(err);
  }
}

function clientRunner(client: pg.Pool | pg.ClientBase): Queryable {
  return {
    async all<T>(sql: string, params: readonly SqlParam[] = []) {
      const result = await query(client, toPgSql(sql), params as unknown[]);
      return result.rows as T[];
    },
    async get<T>(sql: string, params: readonly SqlParam[] = []) {
      const result = await query(client, toPgSql(sql), params as unknown[]);
      return result.rows[0] as T | undefined;
    },
    async run(sql: string, params: readonly SqlParam[] = []) {
      const result = await query(client, toPgSql(sql), params as unknown[]);
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
        const result = await query(
          client,
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
  /** The client behind `listener`, connected or connecting. */
  private listening: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closing = false;

  constructor(readonly url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle client's connection error must not crash the process: the pool drops that client, and the
    // next query opens a new connection.
    this.pool.on('error', () => {});
    this.runner = clientRunner(this.pool);
  }

  /**
   * A client of the pool for several statements (a transaction, a lock). A client emits 'error' when its
   * connection breaks — between statements too, while the caller works on something else — and an
   * 'error' nobody listens to ends the process: it is listened to for as long as the client is out, and a
   * client whose connection broke is destroyed on release instead of going back to the pool.
   */
  private async checkout(): Promise<{ client: pg.PoolClient; release(): void }> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw translated(err);
    }
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken ??= err;
    };
    client.on('error', onError);
    return {
      client,
      release() {
        // A broken client keeps the listener: the driver may report its end once more after release.
        if (!broken) client.removeListener('error', onError);
        client.release(broken);
      },
    };
  }

  all<T>(sql: string, params?: readonly SqlParam[]) {
    return this.readAgainIfLost(sql, (runner) => runner.all<T>(sql, params));
  }
  get<T>(sql: string, params?: readonly SqlParam[]) {
    return this.readAgainIfLost(sql, (runner) => runner.get<T>(sql, params));
  }

  /**
   * A read outside a transaction whose connection was lost is sent once more, on a connection of its own. It
   * changes nothing, so sending it again is safe; and the read is often a request's last statement, after
   * its change committed — answering 503 there would tell a client that retries on 503 (as it should) that
   * nothing was done, and its retry would do it twice. Not on the pool: the cut that broke this connection
   * broke its idle ones too, and the pool learns so only as their errors arrive. A second loss (the server
   * down, not a connection cut) is the 503.
   */
  private async readAgainIfLost<T>(sql: string, read: (runner: Queryable) => Promise<T>): Promise<T> {
    try {
      return await read(this.runner);
    } catch (err) {
      if (!isStoreUnavailable(err) || !isReadOnly(sql) || this.closing) throw err;
      const fresh = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
      // An error event on a client nobody listens to would end the process.
      fresh.on('error', () => {});
      try {
        await fresh.connect();
        return await read(clientRunner(fresh));
      } catch (again) {
        throw isStoreUnavailable(again) ? again : translated(again);
      } finally {
        fresh.end().catch(() => {});
      }
    }
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
    const { client, release } = await this.checkout();
    try {
      await query(client, 'BEGIN', []);
      const result = await fn(transactionRunner(client));
      await query(client, 'COMMIT', []);
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      release();
    }
  }

  async withExclusiveLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const { client, release } = await this.checkout();
    const key = lockKey(name);
    try {
      await query(client, 'SELECT pg_advisory_lock($1::bigint)', [key]);
      try {
        return await fn();
      } finally {
        // A lost connection has released the lock with it: nothing left to unlock.
        await query(client, 'SELECT pg_advisory_unlock($1::bigint)', [key]).catch((err: unknown) => {
          if (!isStoreUnavailable(err)) throw err;
        });
      }
    } finally {
      release();
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
    await query(this.pool, 'SELECT pg_notify($1, $2)', [channel, payload]);
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

  /**
   * The listening connection; when it breaks, a new one takes its place and LISTENs again. A break is either
   * event: 'error' (a reset, a terminated backend) or 'end' alone (the server or a proxy closed the socket
   * cleanly) — listening for 'error' only, a clean close left the process deaf to other processes' events.
   */
  private listenerClient(): Promise<pg.Client> {
    if (this.listener) return this.listener;
    // A connection that is not made within this time is a failure (retried by relisten), not a wait without
    // end: through a network that accepts and forwards nothing, connect() would never settle, and close()
    // would wait on it.
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    this.listening = client;
    let broken = false;
    const onBroken = () => {
      if (broken) return;
      broken = true;
      if (this.listening === client) {
        this.listening = undefined;
        this.listener = undefined;
      }
      client.end().catch(() => {});
      this.relisten();
    };
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', onBroken);
    client.on('end', onBroken);
    const connected = client.connect().then(
      () => client,
      (err: unknown) => {
        onBroken();
        throw translated(err);
      },
    );
    this.listener = connected;
    return connected;
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
        // A failed LISTEN leaves a client that is not listening: it is ended, and its end starts the next try.
        .catch(() => this.listening?.end().catch(() => {}));
    }, 1000).unref();
  }

  async ping(): Promise<void> {
    await query(this.pool, 'SELECT 1', []);
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.listening;
    this.listening = undefined;
    this.listener = undefined;
    // Ends a connection still being made too (the driver destroys its socket), so close() never waits on it.
    await client?.end().catch(() => {});
    await this.pool.end();
  }
}
