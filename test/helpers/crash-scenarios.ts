// kill -9 at each stage of the long operations, on a real server process, then a restart: the state must be
// the one before or the one after, never in between; nothing stays stuck; no orphan rows or files. Used by
// test/crash-recovery.test.ts (small, in CI) and by the bench (full size).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type Run, runTessera, waitForListening } from './process.ts';

export interface CrashStore {
  name: string;
  env: Record<string, string>;
  /** Rows of a query against the store, read while or after the server runs. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export function sqliteStore(dataDir: string): CrashStore {
  return {
    name: 'sqlite',
    env: { TESSERA_DATA_DIR: dataDir },
    async query<T>(sql: string, params: unknown[] = []) {
      const db = new Database(join(dataDir, 'tessera.db'), { readonly: true, fileMustExist: true });
      try {
        return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as T[];
      } finally {
        db.close();
      }
    },
  };
}

export function postgresStore(url: string, dataDir: string): CrashStore {
  return {
    name: 'postgres',
    // A restarted process must learn quickly that its killed predecessor is dead.
    env: { TESSERA_DATABASE_URL: url, TESSERA_DATA_DIR: dataDir, TESSERA_INSTANCE_TIMEOUT: '3' },
    async query<T>(sql: string, params: unknown[] = []) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class CrashServer {
  private run: Run | undefined;
  url = '';

  constructor(
    readonly store: CrashStore,
    readonly key: string,
  ) {}

  async start(): Promise<void> {
    this.run = runTessera(['serve'], {
      ...this.store.env,
      TESSERA_PORT: '0',
      TESSERA_API_KEY: this.key,
      TESSERA_LOG_LEVEL: 'warn',
    });
    this.url = await waitForListening(this.run);
  }

  async kill(): Promise<void> {
    this.run?.child.kill('SIGKILL');
    await this.run?.exit;
  }

  async stop(): Promise<void> {
    if (!this.run || this.run.child.exitCode !== null || this.run.child.signalCode !== null) return;
    this.run.child.kill('SIGTERM');
    assert.equal(await this.run.exit, 0, this.run.stderr());
  }

  async api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path} → ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }

  async upload<T>(path: string, body: Buffer, params: Record<string, unknown>): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.key}`,
        'content-type': 'application/octet-stream',
        'lilt-api': JSON.stringify(params),
      },
      body,
    });
    const text = await res.text();
    assert.ok(res.ok, `POST ${path} → ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }

  /** Sends the first `sent` bytes of a `total`-byte upload, then leaves the request hanging. */
  startUpload(path: string, head: Buffer, total: number, params: Record<string, unknown>): void {
    const url = new URL(`${this.url}${path}`);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.key}`,
        'content-type': 'application/octet-stream',
        'content-length': String(total),
        'lilt-api': JSON.stringify(params),
      },
    });
    req.on('error', () => {});
    req.write(head);
  }

  /** Starts a download and answers once `bytes` have arrived (the rest is left unread). */
  startDownload(path: string, bytes: number): Promise<void> {
    const url = new URL(`${this.url}${path}`);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          headers: { authorization: `Bearer ${this.key}` },
        },
        (res) => {
          let got = 0;
          res.on('data', (chunk: Buffer) => {
            got += chunk.length;
            if (got >= bytes) {
              res.pause();
              resolve();
            }
          });
          res.on('end', () => resolve());
          res.on('error', () => {});
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** Polls `path` until `done` holds (or fails after `ms`). */
  async until<T>(path: string, done: (value: T) => boolean, ms = 60_000): Promise<T> {
    const started = Date.now();
    for (;;) {
      const value = await this.api<T>('GET', path);
      if (done(value)) return value;
      if (Date.now() - started > ms)
        throw new Error(`${path} never reached the state: ${JSON.stringify(value)}`);
      await sleep(50);
    }
  }
}

export function tmxOf(units: number, tag: string): Buffer {
  const tus = Array.from(
    { length: units },
    (_, i) =>
      `<tu><tuv xml:lang="en"><seg>${tag} sentence number ${i} of the crash test</seg></tuv><tuv xml:lang="de"><seg>${tag} Satz Nummer ${i}</seg></tuv></tu>`,
  );
  return Buffer.from(
    `<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="en"/><body>\n${tus.join('\n')}\n</body></tmx>\n`,
  );
}

export interface Sizes {
  /** Units of the TMX imported. */
  units: number;
  /** Segments of the document pre-translated and exported. */
  segments: number;
}

/**
 * What must hold after any crash once the restarted server has settled: nothing stuck, nothing orphaned.
 * An import deletes its uploaded file after its commit (the task is seen to succeed first), so
 * this is checked until it holds, for a few seconds.
 */
async function assertNothingLeft(server: CrashServer, label: string) {
  const started = Date.now();
  for (;;) {
    try {
      return await checkNothingLeft(server, label);
    } catch (err) {
      if (Date.now() - started > 10_000) throw err;
      await sleep(100);
    }
  }
}

async function checkNothingLeft(server: CrashServer, label: string) {
  const q = (sql: string) =>
    server.store.query<{ n: number | string }>(sql).then((rows) => Number(rows[0].n));
  assert.equal(
    await q(`SELECT COUNT(*) AS n FROM documents WHERE import_state = 'uploading'`),
    0,
    `${label}: uploading documents`,
  );
  assert.equal(
    await q(`SELECT COUNT(*) AS n FROM tasks WHERE state IN ('uploading', 'running')`),
    0,
    `${label}: stuck tasks`,
  );
  assert.equal(
    await q(
      `SELECT COUNT(*) AS n FROM task_files f WHERE NOT EXISTS (SELECT 1 FROM tasks j WHERE j.id = f.task_id AND j.state = 'queued')`,
    ),
    0,
    `${label}: orphan task files`,
  );
  assert.equal(
    await q('SELECT COUNT(*) AS n FROM pretranslate_staging'),
    0,
    `${label}: pre-translation staging rows`,
  );
  assert.equal(
    await q(
      'SELECT COUNT(*) AS n FROM document_files f WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = f.document_id)',
    ),
    0,
    `${label}: orphan document files`,
  );
  assert.equal(
    await q('SELECT COUNT(*) AS n FROM documents WHERE export_started_at IS NOT NULL'),
    0,
    `${label}: export marks`,
  );
  assert.equal(
    await q("SELECT COUNT(*) AS n FROM file_translations WHERE status = 'InProgress'"),
    0,
    `${label}: file translations in progress`,
  );
}

interface MemoryView {
  id: number;
  num_segments: number;
  is_processing: boolean;
}

interface DocumentView {
  id: number;
  num_segments: number;
  import_in_progress: boolean;
  import_succeeded: boolean;
  is_pretranslating: boolean;
  export_in_progress: boolean;
  segments?: { target: string | null }[];
}

/** Every scenario in turn on one store; `log` tells what happens. */
export async function runCrashScenarios(
  store: CrashStore,
  sizes: Sizes,
  log: (line: string) => void = () => {},
) {
  const server = new CrashServer(store, 'crash-test-admin-key-0123456789-abcdefgh');
  await server.start();
  try {
    const memory = await server.api<MemoryView>('POST', '/v2/memories', {
      name: 'Crash',
      srclang: 'en',
      trglang: 'de',
    });
    const project = await server.api<{ id: number }>('POST', '/v2/projects', {
      name: 'Crash',
      memory_id: memory.id,
    });
    const tmx = tmxOf(sizes.units, 'First');

    log('kill -9 while a memory import is being uploaded');
    server.startUpload('/v2/memories/import', tmx.subarray(0, tmx.length >> 1), tmx.length, {
      memory_id: memory.id,
      name: 'half.tmx',
    });
    await server.until<MemoryView[]>(`/v2/memories?id=${memory.id}`, ([m]) => m.is_processing);
    await server.kill();
    await server.start();
    const afterUpload = await server.until<MemoryView[]>(
      `/v2/memories?id=${memory.id}`,
      ([m]) => !m.is_processing,
      30_000,
    );
    assert.equal(afterUpload[0].num_segments, 0, 'before: nothing of the half upload');
    await assertNothingLeft(server, 'memory upload');

    log('kill -9 while the import task runs');
    const started = await server.upload<{ job_id: number }>('/v2/memories/import', tmx, {
      memory_id: memory.id,
      name: 'first.tmx',
    });
    await server.until<{ state: string; progress: { done: number } }>(
      `/v2/tasks?id=${started.job_id}`,
      (j) => (j.state === 'running' && j.progress.done > 0) || j.state === 'succeeded',
    );
    await server.kill();
    const between = await store.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM memory_entries WHERE memory_id = $1',
      [memory.id],
    );
    assert.ok(
      [0, sizes.units].includes(Number(between[0].n)),
      `before or after, never between: ${between[0].n}`,
    );
    await server.start();
    const task = await server.until<{ state: string; result: { imported: number } }>(
      `/v2/tasks?id=${started.job_id}`,
      (j) => j.state === 'succeeded' || j.state === 'failed',
    );
    assert.equal(task.state, 'succeeded');
    const [imported] = await server.api<MemoryView[]>('GET', `/v2/memories?id=${memory.id}`);
    assert.equal(imported.num_segments, sizes.units, 'after: every unit, once');
    await assertNothingLeft(server, 'memory import');

    log('kill -9 while a document is being uploaded');
    const lines = Array.from({ length: sizes.segments }, (_, i) =>
      i % 2 === 0 ? `First sentence number ${i} of the crash test` : `Nothing to find here ${i}.`,
    );
    const text = Buffer.from(`${lines.join('\n\n')}\n`);
    server.startUpload('/v2/documents/files', text.subarray(0, text.length >> 1), text.length, {
      name: 'half.txt',
      project_id: project.id,
    });
    for (let i = 0; i < 200; i++) {
      const [{ n }] = await store.query<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM documents WHERE import_state = 'uploading'",
      );
      if (Number(n) > 0) break;
      await sleep(25);
    }
    await server.kill();
    await server.start();
    await server.until<{ document: unknown[] }[]>(
      `/v2/projects?id=${project.id}`,
      ([p]) => p.document.length === 0,
      30_000,
    );
    for (let i = 0; i < 200; i++) {
      const [{ n }] = await store.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM documents');
      if (Number(n) === 0) break;
      await sleep(50);
    }
    await assertNothingLeft(server, 'document upload');

    log('kill -9 while a document is pre-translated');
    const doc = await server.upload<DocumentView>('/v2/documents/files', text, {
      name: 'doc.txt',
      project_id: project.id,
    });
    await server.until<DocumentView>(`/v2/documents?id=${doc.id}`, (d) => !d.import_in_progress);
    await server.api('POST', '/v2/documents/pretranslate', { id: [doc.id] });
    for (let i = 0; i < 400; i++) {
      const [{ n }] = await store.query<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM tasks WHERE document_id = $1 AND type = 'pretranslate' AND (state = 'succeeded' OR (state = 'running' AND progress_done > 0))`,
        [doc.id],
      );
      if (Number(n) > 0) break;
      await sleep(10);
    }
    await server.kill();
    const translated = async () =>
      Number(
        (
          await store.query<{ n: number | string }>(
            'SELECT COUNT(*) AS n FROM document_segments WHERE document_id = $1 AND target IS NOT NULL',
            [doc.id],
          )
        )[0].n,
      );
    const expected = sizes.segments / 2;
    assert.ok([0, expected].includes(await translated()), 'before or after, never between');
    await server.start();
    await server.until<DocumentView>(`/v2/documents?id=${doc.id}`, (d) => !d.is_pretranslating);
    assert.equal(await translated(), expected, 'after: every match written');
    await assertNothingLeft(server, 'pre-translation');

    log('kill -9 while a document is exported');
    await server.startDownload(`/v2/documents/files?id=${doc.id}&is_xliff=true`, 1);
    await server.kill();
    await server.start();
    await server.until<DocumentView>(`/v2/documents?id=${doc.id}`, (d) => !d.export_in_progress, 30_000);
    const res = await fetch(`${server.url}/v2/documents/files?id=${doc.id}&is_xliff=false`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    assert.equal(res.status, 200);
    assert.equal((await res.text()).split('\n\n').length, sizes.segments);
    await assertNothingLeft(server, 'export');

    log('kill -9 while a file is translated (Instant Translate)');
    const held = lines.filter((_, i) => i % 2 === 0);
    const file = await server.upload<{ id: number }>('/v2/files', Buffer.from(`${held.join('\n\n')}\n`), {
      name: 'instant.txt',
    });
    const startedTranslation = await fetch(
      `${server.url}/v2/translate/file?fileId=${file.id}&memoryId=${memory.id}`,
      { method: 'POST', headers: { authorization: `Bearer ${server.key}` } },
    );
    assert.equal(startedTranslation.status, 200, await startedTranslation.clone().text());
    const [{ id: translationId }] = (await startedTranslation.json()) as { id: number }[];
    for (let i = 0; i < 400; i++) {
      const [{ n }] = await store.query<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM tasks WHERE type = 'file_translation' AND (state = 'succeeded' OR (state = 'running' AND progress_done > 0))`,
      );
      if (Number(n) > 0) break;
      await sleep(10);
    }
    await server.kill();
    const [state] = await store.query<{ status: string; chunks: number | string }>(
      'SELECT status, (SELECT COUNT(*) FROM file_translation_chunks c WHERE c.translation_id = t.id) AS chunks FROM file_translations t WHERE id = $1',
      [translationId],
    );
    assert.ok(
      (state.status === 'InProgress' && Number(state.chunks) === 0) ||
        (state.status === 'ReadyForDownload' && Number(state.chunks) > 0),
      `before or after, never between: ${JSON.stringify(state)}`,
    );
    await server.start();
    await server.until<{ status: string }[]>(
      `/v2/translate/file?translationIds=${translationId}`,
      ([t]) => t.status !== 'InProgress',
      60_000,
    );
    const translatedFile = await fetch(`${server.url}/v2/translate/files?id=${translationId}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    assert.equal(translatedFile.status, 200);
    const paragraphs = (await translatedFile.text()).trimEnd().split('\n\n');
    assert.equal(paragraphs.length, held.length);
    assert.ok(
      paragraphs.every((p) => /^First Satz Nummer \d+$/.test(p)),
      'every paragraph from the memory',
    );
    await assertNothingLeft(server, 'file translation');
  } finally {
    await server.stop().catch(() => server.kill());
  }
}
