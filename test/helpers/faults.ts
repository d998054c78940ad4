// What the fault suite (test/faults.test.ts) cuts the PostgreSQL connection with — terminating the test
// database's backends, or dropping the sockets of a TCP proxy in front of the server — and how its client
// and its own statements ride out a cut, as a well-behaved client does.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { isStoreUnavailable } from '../../src/errors.ts';
import type { App } from '../../src/http/types.ts';
import type { client } from './api.ts';
import type { StoreTarget } from './stores.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Cut {
  name: string;
  /** The app's database URL, given the test database's own. */
  url(direct: string): Promise<string>;
  /** Breaks every connection the app holds to the database. */
  cut(direct: string): Promise<void>;
  close(): Promise<void>;
}

/** pg_terminate_backend on every other backend of the test database, from a connection of its own. */
export const terminate: Cut = {
  name: 'backends terminated',
  url: async (direct) => direct,
  async cut(direct) {
    const admin = new pg.Client({ connectionString: direct });
    await admin.connect();
    try {
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
    } finally {
      await admin.end();
    }
  },
  close: async () => {},
};

export function proxied(): Cut & { proxy(): TcpProxy } {
  let proxy: TcpProxy | undefined;
  return {
    name: 'network cut (TCP proxy)',
    async url(direct) {
      const url = new URL(direct);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.port = String(proxy.port);
      return url.toString();
    },
    async cut() {
      proxy!.dropAll();
    },
    close: async () => proxy?.close(),
    proxy: () => proxy!,
  };
}

/** The PostgreSQL target, its app connecting through `cut`'s URL; `direct` is the database's own. */
export function through(target: StoreTarget, cut: Cut, urls: { direct: string }): StoreTarget {
  return {
    name: 'postgres',
    async create() {
      const store = await target.create();
      urls.direct = store.databaseUrl!;
      return {
        ...store,
        databaseUrl: await cut.url(store.databaseUrl!),
        cleanup: async () => {
          await cut.close();
          await store.cleanup();
        },
      };
    },
  };
}

/**
 * The test's own statements and requests, retried as a client does after a 503 STORE_UNAVAILABLE: right
 * after a cut, a statement may still be sent on a pooled connection the driver has not yet seen die.
 */
export async function again<T>(fn: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await fn();
    } catch (err) {
      if (!isStoreUnavailable(err) || tries === 5) throw err;
      await sleep(50);
    }
  }
}

export function retrying(api: ReturnType<typeof client>): ReturnType<typeof client> {
  const wrap =
    <A extends unknown[]>(send: (...args: A) => ReturnType<ReturnType<typeof client>['get']>) =>
    async (...args: A) => {
      for (let tries = 1; ; tries++) {
        const res = await send(...args);
        if (res.statusCode !== 503 || tries === 5) return res;
        assert.equal(res.json().code, 'STORE_UNAVAILABLE', res.body);
        await sleep(50);
      }
    };
  return {
    ...api,
    get: wrap(api.get),
    delete: wrap(api.delete),
    post: wrap(api.post),
    put: wrap(api.put),
    upload: wrap(api.upload),
  };
}

/** The events of a GET /v2/events stream on a listening app, parsed as they arrive. */
export async function eventStream(app: App, path: string, key: string) {
  const { port } = app.server.address() as AddressInfo;
  const events: { event: string; data: Record<string, unknown> }[] = [];
  const request = http.get({
    host: '127.0.0.1',
    port,
    path,
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
  });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  });
  let raw = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    raw += chunk;
    for (let end = raw.indexOf('\n\n'); end >= 0; end = raw.indexOf('\n\n')) {
      const block = raw.slice(0, end);
      raw = raw.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) });
    }
  });
  response.on('error', () => {});
  return {
    async next(test: (e: (typeof events)[number]) => boolean, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(test);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(events)}`);
        await sleep(20);
      }
    },
    close: () => request.destroy(),
  };
}
