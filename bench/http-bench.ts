// Server bench over HTTP: the real `tessera serve` process, TMX import rate and RSS, restart to ready, query latency.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { LabelledQuery } from './corpus.ts';
import type { Percentiles } from './engine-bench.ts';
import type { ClientJob, ClientResult } from './http-clients.ts';
import { percentiles } from './table.ts';

/**
 * The server the bench runs is the compiled one users run (`npm start`), built from the current sources
 * into a folder of the bench's own (inside the repository, so that its imports find node_modules). One
 * folder a bench process: the build empties its folder first, and a second bench in the same checkout once
 * emptied it under the first one's server.
 */
const BUILD = join(import.meta.dirname, '..', '.tmp', `bench-build-${process.pid}`);
let built = false;
function compiledMain(): string {
  if (!built) {
    const run = spawnSync(
      process.execPath,
      [join(import.meta.dirname, '..', 'scripts', 'build.mjs'), BUILD],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    if (run.status !== 0) throw new Error('the bench could not build the server (scripts/build.mjs)');
    built = true;
  }
  return join(BUILD, 'cli', 'main.js');
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every server this process started and has not seen exit: killed on the way out, whatever happens. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  if (built) rmSync(BUILD, { recursive: true, force: true });
});

export interface ServerSettings {
  dataDir: string;
  apiKey: string;
  maxUploadBytes?: number;
  /** Further settings of the server (a machine translation engine's URL…). */
  env?: Record<string, string>;
}

/** A `tessera serve` child process on 127.0.0.1 and an ephemeral port, with SQLite under dataDir. */
export class ServerProcess {
  readonly child: ChildProcess;
  private out = '';
  private err = '';
  private readonly exited: Promise<number | null>;
  private readonly dataDir: string;

  constructor(settings: ServerSettings) {
    this.dataDir = settings.dataDir;
    // BENCH_SERVER_NODE_ARGS: flags for the server's node, e.g. `--cpu-prof --cpu-prof-dir=.tmp/prof` to
    // find what holds its event loop (scripts/long-tasks.mjs reads the profile).
    const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    this.child = spawn(process.execPath, [...nodeArgs, compiledMain(), 'serve'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TESSERA_DATA_DIR: settings.dataDir,
        TESSERA_HOST: '127.0.0.1',
        TESSERA_PORT: '0',
        TESSERA_API_KEY: settings.apiKey,
        TESSERA_LOG_LEVEL: 'warn',
        // The bench's own polling and query loops are one client; the per-key limit is not under test.
        TESSERA_RATE_LIMIT: '10000000',
        ...(settings.maxUploadBytes ? { TESSERA_MAX_UPLOAD_BYTES: String(settings.maxUploadBytes) } : {}),
        ...settings.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(this.child);
    // Only the tail is kept: enough for an error message, bounded however chatty the server gets.
    this.child.stdout!.on('data', (d) => {
      this.out = (this.out + d).slice(-65_536);
    });
    this.child.stderr!.on('data', (d) => {
      this.err = (this.err + d).slice(-65_536);
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code) => {
        live.delete(this.child);
        resolve(code);
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /**
   * The process that serves: `tessera serve` starts it again with the server's Node flags
   * (src/cli/server-node-flags.ts), so the child spawned here may be only its launcher. The serving process
   * holds the data directory's lock file, which names its pid.
   */
  servingPid(): number {
    try {
      const held = JSON.parse(readFileSync(join(this.dataDir, 'tessera.lock'), 'utf8')) as { pid?: number };
      if (typeof held.pid === 'number') return held.pid;
    } catch {}
    return this.pid;
  }

  /** The Node flags the serving process runs with (from /proc/<pid>/cmdline). */
  nodeFlags(): string[] {
    const argv = readFileSync(`/proc/${this.servingPid()}/cmdline`, 'utf8').split('\0').slice(1);
    // Node's own flags come before the script's path.
    return argv.slice(
      0,
      argv.findIndex((arg) => !arg.startsWith('-')),
    );
  }

  /** Waits for "Tessera listening on URL" and answers the URL. */
  async listening(timeoutMs = 60_000): Promise<string> {
    const started = performance.now();
    for (;;) {
      const match = /Tessera listening on (http:\/\/\S+)/.exec(this.err);
      if (match) return match[1];
      if (this.child.exitCode !== null) throw new Error(`server exited early: ${this.out}${this.err}`);
      if (performance.now() - started > timeoutMs) throw new Error(`server did not listen: ${this.err}`);
      await sleep(5);
    }
  }

  /** Resident set size now, and its high-water mark since start, in MB (from /proc/<pid>/status). */
  memory(): { rssMb: number; hwmMb: number } {
    const status = readFileSync(`/proc/${this.servingPid()}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  }

  /** SIGTERM and wait for a clean exit; SIGKILL after `graceMs`. Answers the exit code. */
  async stop(graceMs = 30_000): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The last `chars` characters of what the server wrote to stdout and stderr. */
  output(chars: number): string {
    return `${this.out.slice(-chars)}${this.err.slice(-chars)}`;
  }
}

export interface Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A keep-alive HTTP/1.1 client for one server, authenticating with a Bearer key. */
export class Api {
  private readonly agent = new Agent({ keepAlive: true });
  private readonly url: URL;

  constructor(
    readonly base: string,
    private readonly key: string,
  ) {
    this.url = new URL(base);
  }

  request(
    method: string,
    path: string,
    options: { json?: unknown; body?: Readable; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}`, ...options.headers };
    const payload = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: this.url.hostname, port: this.url.port, method, path, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (options.body) {
        options.body.on('error', (err) => req.destroy(err));
        options.body.pipe(req);
      } else req.end(payload);
    });
  }

  /** A JSON request that must answer 2xx; answers the parsed body. */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request(method, path, { json: body });
    if (res.status < 200 || res.status > 299) {
      throw new HttpError(res.status, `${method} ${path} answered ${res.status}: ${res.body}`);
    }
    return JSON.parse(res.body.toString('utf8')) as T;
  }

  /** Streams a file as a raw upload body, with the parameters in the LILT-API header. */
  async upload<T>(path: string, file: string, params: Record<string, unknown>): Promise<T> {
    const res = await this.request('POST', path, {
      body: createReadStream(file, { highWaterMark: 1024 * 1024 }),
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(statSync(file).size),
        'lilt-api': JSON.stringify(params),
      },
    });
    if (res.status < 200 || res.status > 299)
      throw new HttpError(res.status, `POST ${path} answered ${res.status}: ${res.body}`);
    return JSON.parse(res.body.toString('utf8')) as T;
  }

  /** Polls GET /v2/tasks until the task ends; `onPoll` sees each state. A failed task throws its error. */
  async waitForTask(id: number, onPoll: (task: Task) => void = () => {}, everyMs = 50): Promise<Task> {
    for (;;) {
      const task = await this.json<Task>('GET', `/v2/tasks?id=${id}`);
      onPoll(task);
      if (task.state === 'succeeded') return task;
      if (task.state === 'failed') throw new Error(`task ${id} failed: ${task.error}`);
      await sleep(everyMs);
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface Task {
  id: number;
  state: string;
  progress: { done: number; total: number };
  result: unknown;
  error: string | null;
}

/** Starts a server and its client; `run` gets both, and the server is stopped whatever happens. */
export async function withServer<T>(
  settings: ServerSettings,
  run: (server: ServerProcess, api: Api, spawnedAt: number) => Promise<T>,
): Promise<T> {
  const spawnedAt = performance.now();
  const server = new ServerProcess(settings);
  let api: Api | undefined;
  try {
    api = new Api(await server.listening(), settings.apiKey);
    return await run(server, api, spawnedAt);
  } catch (err) {
    // The server's own log says why it answered 500 or died: keep its last lines with the error.
    if (err instanceof Error) err.message += `\n--- server output (last lines) ---\n${server.output(3000)}`;
    throw err;
  } finally {
    api?.close();
    await server.stop();
  }
}

/** One RSS reading during the import, with the task's progress as last polled. */
export interface RssSample {
  ms: number;
  rss_mb: number;
  phase: 'upload' | 'task';
  /** Bytes of the file the task had parsed. */
  bytes_done: number;
}

export interface ImportBenchOptions {
  /** The TMX file to import, and the units in it. */
  tmxFile: string;
  units: number;
  dataDir: string;
  apiKey: string;
  log?: (line: string) => void;
}

export interface ImportBenchResult {
  units: number;
  tmx_mb: number;
  memory_id: number;
  /** Upload start to the upload's answer, and to the task seen succeeded. */
  upload_s: number;
  import_s: number;
  import_units_per_s: number;
  job_result: unknown;
  num_segments: number;
  rss_before_import_mb: number;
  rss_peak_import_mb: number;
  /** RSS a fifth of the way through the task (by time), and the peak after it: flat when memory is bounded. */
  rss_at_fifth_mb: number;
  rss_peak_after_fifth_mb: number;
  /** Longest time between two answers to the task-status poll (sent every 50 ms) during the import. */
  longest_poll_gap_s: number;
  /** From the task's success to the memory's match index file written (built, then saved). */
  index_saved_s: number;
  /** The slowest /healthz answer while the index was built and saved after the import. */
  index_build_slowest_healthz_ms: number;
  rss_samples: RssSample[];
}

/** The server's upload size limit for this file: the default, or twice the file when that is larger. */
function uploadLimit(file: string): number {
  return Math.max(512 * 2 ** 20, statSync(file).size * 2);
}

/** Creates an en-de memory in a fresh server and imports the TMX over HTTP, sampling the server's RSS. */
export async function runImportBench(opts: ImportBenchOptions): Promise<ImportBenchResult> {
  const log = opts.log ?? (() => {});
  const tmxBytes = statSync(opts.tmxFile).size;
  const settings = { dataDir: opts.dataDir, apiKey: opts.apiKey, maxUploadBytes: uploadLimit(opts.tmxFile) };
  const imported = await withServer(settings, async (server, api) => {
    const memory = await api.json<{ id: number }>('POST', '/v2/memories', {
      name: 'bench',
      srclang: 'en',
      trglang: 'de',
    });
    const rssBefore = server.memory().rssMb;
    const samples: RssSample[] = [];
    let phase: RssSample['phase'] = 'upload';
    let bytesDone = 0;
    const started = performance.now();
    const sampler = setInterval(() => {
      samples.push({
        ms: Math.round(performance.now() - started),
        rss_mb: server.memory().rssMb,
        phase,
        bytes_done: bytesDone,
      });
    }, 100);
    try {
      log(`import: uploading ${(tmxBytes / 2 ** 20).toFixed(0)} MB TMX (${opts.units} units)`);
      const { job_id } = await api.upload<{ job_id: number }>('/v2/memories/import', opts.tmxFile, {
        memory_id: memory.id,
        name: 'bench.tmx',
      });
      const uploadS = (performance.now() - started) / 1000;
      phase = 'task';
      let lastLog = 0;
      let lastAnswer = performance.now();
      let longestGap = 0;
      const task = await api.waitForTask(job_id, (j) => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - lastAnswer);
        lastAnswer = now;
        bytesDone = j.progress.done;
        if (now - lastLog > 5000) {
          lastLog = now;
          log(
            `import: task ${j.state}, ${(j.progress.done / 2 ** 20).toFixed(0)} of ${(j.progress.total / 2 ** 20).toFixed(0)} MB parsed`,
          );
        }
      });
      const importS = (performance.now() - started) / 1000;
      clearInterval(sampler);
      samples.push({
        ms: Math.round(importS * 1000),
        rss_mb: server.memory().rssMb,
        phase,
        bytes_done: bytesDone,
      });
      const [after] = await api.json<{ num_segments: number }[]>('GET', `/v2/memories?id=${memory.id}`);
      log(`import: ${opts.units} units in ${importS.toFixed(1)} s (upload ${uploadS.toFixed(1)} s)`);
      // After an import the server brings the memory's match index up to date and saves its file, in the
      // background; a user's next restart starts from that file. Stopping before it is written would make
      // the restart below rebuild the index (and time that instead).
      // Meanwhile /healthz is asked every 200 ms: the longest answer says how long the index build held
      // the event loop (it reads and builds in slices).
      const indexFile = join(opts.dataDir, 'match-index', `memory-${memory.id}.idx`);
      let slowestHealthz = 0;
      while (!existsSync(indexFile)) {
        if (performance.now() - started > 1000 * importS + 20 * 60_000)
          throw new Error(`the index file ${indexFile} was not written within 20 minutes of the import`);
        const asked = performance.now();
        await api.json('GET', '/healthz');
        slowestHealthz = Math.max(slowestHealthz, performance.now() - asked);
        await sleep(200);
      }
      const indexSavedS = (performance.now() - started) / 1000 - importS;
      log(
        `import: match index built and saved ${indexSavedS.toFixed(1)} s after the task; slowest /healthz meanwhile ${slowestHealthz.toFixed(0)} ms`,
      );
      return {
        memoryId: memory.id,
        uploadS,
        importS,
        task,
        longestGap,
        rssBefore,
        samples,
        numSegments: after.num_segments,
        indexSavedS,
        slowestHealthz,
      };
    } finally {
      clearInterval(sampler);
    }
  });

  // By time, not by the task's progress: a server busy parsing may not answer progress polls at all.
  const fifthMs = 1000 * (imported.uploadS + (imported.importS - imported.uploadS) / 5);
  const fifth = imported.samples.findIndex((s) => s.ms >= fifthMs);
  const afterFifth = imported.samples.slice(fifth).map((s) => s.rss_mb);
  return {
    units: opts.units,
    tmx_mb: tmxBytes / 2 ** 20,
    memory_id: imported.memoryId,
    upload_s: imported.uploadS,
    import_s: imported.importS,
    import_units_per_s: opts.units / imported.importS,
    job_result: imported.task.result,
    num_segments: imported.numSegments,
    rss_before_import_mb: imported.rssBefore,
    rss_peak_import_mb: Math.max(imported.rssBefore, ...imported.samples.map((s) => s.rss_mb)),
    rss_at_fifth_mb: imported.samples[fifth].rss_mb,
    rss_peak_after_fifth_mb: Math.max(...afterFifth),
    longest_poll_gap_s: imported.longestGap / 1000,
    index_saved_s: imported.indexSavedS,
    index_build_slowest_healthz_ms: imported.slowestHealthz,
    rss_samples: imported.samples,
  };
}

export interface QueryBenchOptions {
  /** The data directory an import left, and the memory in it. */
  dataDir: string;
  memoryId: number;
  apiKey: string;
  /** Timed queries (their classes label the per-class figures) and the warm-up queries before them. */
  queries: readonly LabelledQuery[];
  warmup: readonly LabelledQuery[];
  /** Concurrent keep-alive clients, one pass of the timed queries each (default 1, 8 and 32). */
  clients?: readonly number[];
  n?: number;
  log?: (line: string) => void;
}

/** Per class (and `all`): client-side milliseconds per query, p50/p95/p99/max. */
export type ClassTimes = Record<string, Percentiles & { max: number }>;

export interface ConcurrencyResult {
  clients: number;
  classes: ClassTimes;
  /** The slowest timed query: its milliseconds, class and length in characters. */
  slowest: { ms: number; cls: string; chars: number };
  queries_per_s: number;
  errors: string[];
  /** 1-minute load average when the pass started: other work on the 2 cores lengthens the tail. */
  load_at_start: number;
  /**
   * From the server's /metrics before and after the pass: its CPU time per query (user and system), and its
   * garbage collections (count and total milliseconds) by kind — what the load average does not change much.
   */
  server: ServerPass;
}

export interface ServerPass {
  cpu_ms_per_query: number;
  gc: Record<string, { count: number; ms: number }>;
}

/** The server's own counters (prom-client's default metrics) that a pass is judged by. */
interface ServerCounters {
  cpuS: number;
  gc: Map<string, { count: number; s: number }>;
}

async function serverCounters(api: Api): Promise<ServerCounters> {
  const res = await api.request('GET', '/metrics');
  if (res.status !== 200) throw new HttpError(res.status, `GET /metrics answered ${res.status}`);
  const text = res.body.toString('utf8');
  const cpuS = Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
  const gc = new Map<string, { count: number; s: number }>();
  for (const m of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)$/gm)) {
    const entry = gc.get(m[2]) ?? { count: 0, s: 0 };
    if (m[1] === 'sum') entry.s = Number(m[3]);
    else entry.count = Number(m[3]);
    gc.set(m[2], entry);
  }
  return { cpuS, gc };
}

function serverPass(before: ServerCounters, after: ServerCounters, queries: number): ServerPass {
  const gc: ServerPass['gc'] = {};
  for (const [kind, a] of after.gc) {
    const b = before.gc.get(kind) ?? { count: 0, s: 0 };
    if (a.count > b.count) gc[kind] = { count: a.count - b.count, ms: 1000 * (a.s - b.s) };
  }
  return { cpu_ms_per_query: (1000 * (after.cpuS - before.cpuS)) / queries, gc };
}

export interface QueryBenchResult {
  /** From spawn of the restarted server: its "listening" line, /readyz 200, and its first query answered. */
  startup_listening_s: number;
  startup_readyz_s: number;
  startup_first_query_s: number;
  rss_after_start_mb: number;
  /** The Node flags the serving process ran with (its command line), as `tessera serve` chose them. */
  server_node_flags: string[];
  query_count: number;
  /** Queries of the set left out because they are blank (the API answers 400 to those). */
  blank_queries: number;
  query_errors: string[];
  /** One client: the figures of `by_clients[0]` when it is 1 (kept for the rows and results that read them). */
  classes: ClassTimes;
  slowest: { ms: number; cls: string; chars: number };
  /** Each concurrency in turn, on the same server and the same timed queries. */
  by_clients: ConcurrencyResult[];
  rss_after_queries_mb: number;
  /** GET /v2/languages by 8 clients, plain (no gzip asked): its latency and the server's CPU per request. */
  languages: Percentiles & {
    clients: number;
    requests: number;
    errors: string[];
    per_s: number;
    server: ServerPass;
  };
  /**
   * GET /healthz by 8 clients: no key check, no statement, no work — the floor under any route's latency
   * that this machine, this server's framework and these clients give, against which the queries' figures
   * (and their target) are read.
   */
  floor: Percentiles & {
    clients: number;
    requests: number;
    errors: string[];
    per_s: number;
    load_at_start: number;
    server: ServerPass;
  };
}

const CLIENTS_SCRIPT = join(import.meta.dirname, 'http-clients.ts');

/**
 * Runs the clients in a process of their own (bench/http-clients.ts), so that neither the bench process's
 * garbage collections (it held the corpus) nor its event loop count as the server's latency. The clients'
 * process gets a 64 MB young generation: it allocates a little per answer, and its own scavenges would be
 * counted too.
 */
async function runClients(job: ClientJob): Promise<ClientResult> {
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', CLIENTS_SCRIPT], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err = (err + d).slice(-4000);
  });
  child.stdin!.end(JSON.stringify(job));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the HTTP clients' process exited with ${code}: ${err}`);
  return JSON.parse(out) as ClientResult;
}

function classTimes(times: Map<string, number[]>): ClassTimes {
  return Object.fromEntries(
    [...times].map(([cls, ms]) => [cls, { ...percentiles(ms), max: Math.max(...ms) }]),
  );
}

/**
 * Starts a server on the imported data: time to ready, then query latency from 1, 8 and 32 concurrent
 * keep-alive clients (closed loop: each sends its next query when the last is answered).
 */
export async function runQueryBench(opts: QueryBenchOptions): Promise<QueryBenchResult> {
  const log = opts.log ?? (() => {});
  // The API refuses a blank query with 400 by contract; the engine answers it with nothing. Not timed.
  const timed = opts.queries.filter((q) => q.query.trim() !== '');
  const path = (q: LabelledQuery) =>
    `/v2/memories/query?id=${opts.memoryId}&n=${opts.n ?? 10}&query=${encodeURIComponent(q.query)}`;
  log('restart: same data dir, timing spawn → /readyz 200 → first query');
  return withServer({ dataDir: opts.dataDir, apiKey: opts.apiKey }, async (server, api, spawnedAt) => {
    const listeningS = (performance.now() - spawnedAt) / 1000;
    for (;;) {
      const res = await api.request('GET', '/readyz');
      if (res.status === 200) break;
      await sleep(10);
    }
    const readyzS = (performance.now() - spawnedAt) / 1000;
    const first = await api.request('GET', path(timed[0]));
    if (first.status !== 200) {
      throw new HttpError(first.status, `first query answered ${first.status}: ${first.body}`);
    }
    const firstQueryS = (performance.now() - spawnedAt) / 1000;
    const rssAfterStart = server.memory().rssMb;
    const flags = server.nodeFlags();
    log(
      `restart: readyz ${readyzS.toFixed(2)} s, first query ${firstQueryS.toFixed(2)} s; server's node flags: ${flags.join(' ') || 'none'}`,
    );

    const byClients: ConcurrencyResult[] = [];
    for (const clients of opts.clients ?? [1, 8, 32]) {
      const loadAtStart = loadavg()[0];
      // Read before the warm-up too: the pass's counters include its warm-up queries.
      const before = await serverCounters(api);
      const result = await runClients({
        url: api.base,
        key: opts.apiKey,
        clients,
        warmup: opts.warmup.filter((q) => q.query.trim() !== '').map(path),
        timed: timed.map(path),
      });
      const times = new Map<string, number[]>([['all', []]]);
      let slowest = { ms: 0, cls: '', chars: 0 };
      result.ms.forEach((ms, i) => {
        if (ms === null) return;
        const q = timed[i];
        times.get('all')!.push(ms);
        if (!times.has(q.cls)) times.set(q.cls, []);
        times.get(q.cls)!.push(ms);
        if (ms > slowest.ms) slowest = { ms, cls: q.cls, chars: q.query.length };
      });
      const classes = classTimes(times);
      const sent = timed.length + opts.warmup.filter((q) => q.query.trim() !== '').length;
      const server = serverPass(before, await serverCounters(api), sent);
      byClients.push({
        clients,
        classes,
        slowest,
        queries_per_s: (1000 * times.get('all')!.length) / result.wall_ms,
        errors: result.errors,
        load_at_start: loadAtStart,
        server,
      });
      log(
        `queries over HTTP, ${clients} client${clients === 1 ? '' : 's'}: p50 ${classes.all.p50.toFixed(3)} ms, p99 ${classes.all.p99.toFixed(3)} ms, max ${classes.all.max.toFixed(1)} ms (load ${loadAtStart.toFixed(2)}); server CPU ${server.cpu_ms_per_query.toFixed(3)} ms a query, GC ${JSON.stringify(server.gc)}`,
      );
    }
    /** One path sent over and over by 8 clients: its latencies, rate, and the server's CPU a request. */
    const repeated = async (path: string, warmup: number, timedCount: number) => {
      const loadAtStart = loadavg()[0];
      const before = await serverCounters(api);
      const run = await runClients({
        url: api.base,
        key: opts.apiKey,
        clients: 8,
        warmup: Array.from({ length: warmup }, () => path),
        timed: Array.from({ length: timedCount }, () => path),
      });
      const ms = run.ms.filter((x): x is number => x !== null);
      return {
        clients: 8,
        requests: ms.length,
        errors: run.errors,
        ...percentiles(ms),
        per_s: (1000 * ms.length) / run.wall_ms,
        load_at_start: loadAtStart,
        server: serverPass(before, await serverCounters(api), warmup + timedCount),
      };
    };
    // GET /v2/languages, Lilt's first call: 337 KB answered to clients that do not ask for gzip (the bench's
    // clients do not), the heaviest case; 8 clients, as the queries' target figure.
    const languages = await repeated('/v2/languages', 200, 2000);
    log(
      `GET /v2/languages, 8 clients: p50 ${languages.p50.toFixed(2)} ms, p99 ${languages.p99.toFixed(2)} ms, ${Math.round(languages.per_s)}/s; server CPU ${languages.server.cpu_ms_per_query.toFixed(3)} ms a request`,
    );
    const floor = await repeated('/healthz', 400, 3000);
    log(
      `GET /healthz, 8 clients (the floor): p50 ${floor.p50.toFixed(2)} ms, p99 ${floor.p99.toFixed(2)} ms, ${Math.round(floor.per_s)}/s`,
    );
    const one = byClients.find((c) => c.clients === 1) ?? byClients[0];
    return {
      languages,
      floor,
      startup_listening_s: listeningS,
      startup_readyz_s: readyzS,
      startup_first_query_s: firstQueryS,
      rss_after_start_mb: rssAfterStart,
      server_node_flags: flags,
      query_count: timed.length,
      blank_queries: opts.queries.length - timed.length,
      query_errors: byClients.flatMap((c) => c.errors),
      classes: one.classes,
      slowest: one.slowest,
      by_clients: byClients,
      rss_after_queries_mb: server.memory().rssMb,
    };
  });
}
