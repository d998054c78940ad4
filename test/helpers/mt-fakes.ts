// A loopback HTTP server standing in for a machine translation engine that cannot be reached from the test
// machine (DeepL, Google, Azure, Amazon, ModernMT, LibreTranslate, an OpenAI-compatible server). Each test
// gives it a handler that checks the request as the engine's documentation specifies and answers in the
// engine's documented format; every request is kept for the test to look at afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../src/modules/users/service.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { openStore } from '../../src/store/open-store.ts';

export interface FakeRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as text. */
  text: string;
  /** The body parsed as JSON, or as a form (URLSearchParams) when it is one; undefined when empty. */
  json: unknown;
  form: URLSearchParams | undefined;
}

export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is a string. */
  body?: unknown;
}

export type FakeHandler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeEngine {
  url: string;
  port: number;
  requests: FakeRequest[];
  /** Why the handler refused requests (a failed check): a test asserts there were none. */
  problems: string[];
  /** What the server answers; a test sets it before calling the provider. */
  handler: FakeHandler;
  close(): Promise<void>;
}

export async function startFakeEngine(handler: FakeHandler = () => ({ status: 404 })): Promise<FakeEngine> {
  const fake = { requests: [] as FakeRequest[], problems: [] as string[], handler };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const type = req.headers['content-type'] ?? '';
      const url = new URL(req.url ?? '/', 'http://fake');
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        text,
        json: text && type.includes('json') ? JSON.parse(text) : undefined,
        form: type.includes('x-www-form-urlencoded') ? new URLSearchParams(text) : undefined,
      };
      fake.requests.push(request);
      let answer: FakeAnswer;
      try {
        answer = await fake.handler(request);
      } catch (err) {
        // A failed check is kept for the test to report, and refused as a bad request.
        fake.problems.push((err as Error).message);
        answer = { status: 400, body: { message: (err as Error).message } };
      }
      res.statusCode = answer.status ?? 200;
      for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
      if (typeof answer.body === 'string') {
        res.end(answer.body);
      } else {
        if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer.body ?? {}));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** What a fake engine "translates" to: recognizably changed words, the markup left exactly as it came. */
export function fakeTranslation(masked: string): string {
  return masked.replace(/&[a-z]+;|<[^>]*>|[^&<]+/g, (s) =>
    s.startsWith('&') || s.startsWith('<') ? s : s.toUpperCase(),
  );
}

/**
 * A migrated SQLite store with one organization, for round trips through the engine (its cache and usage
 * counters write to it). Every provider's suite uses its own.
 */
export async function engineStore(): Promise<{ db: Db; organizationId: number; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-mt-'));
  const db = openStore({ databaseUrl: undefined, dataDir });
  await migrate(db);
  await bootstrap(db);
  const org = await db.get<{ id: number }>('SELECT id FROM organizations ORDER BY id LIMIT 1');
  return {
    db,
    organizationId: org!.id,
    async close() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
