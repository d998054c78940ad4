// Responsiveness under long work: while the server parses, pre-translates and exports a large document,
// exports the whole memory, and finds and replaces in every target of the document (dry run, a regular
// expression's dry run, apply, undo),
// /healthz is probed every 20 ms and memory queries are sent back to back on
// connections of their own. No request should wait behind the work (issue 8: /healthz ≤ 50 ms, query p99
// within 10 ms of the idle p99).

import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LabelledQuery } from './corpus.ts';
import { buildDocument } from './document-bench.ts';
import { type Api, withServer } from './http-bench.ts';
import { percentiles } from './table.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ResponsivenessOptions {
  /** The data directory holding the imported bench memory. */
  dataDir: string;
  workDir: string;
  memoryId: number;
  apiKey: string;
  queries: LabelledQuery[];
  segments: number;
  seed: number;
  log?: (line: string) => void;
}

export interface ProbeFigures {
  operation: string;
  seconds: number;
  healthz_p99_ms: number;
  healthz_max_ms: number;
  query_p99_ms: number;
  query_max_ms: number;
  probes: number;
  queries: number;
}

export interface ResponsivenessResult {
  document_segments: number;
  idle: ProbeFigures;
  during: ProbeFigures[];
}

/** A worker thread running probe-worker.ts (TypeScript, loaded through tsx as this process is). */
function startProbe(data: unknown): Worker {
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./probe-worker.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then((tsx) => { tsx.register(); return import(${entry}); })`, {
    eval: true,
    workerData: data,
  });
}

/** Probes /healthz and sends queries (from a thread of their own) until `work` settles. */
async function probeDuring(
  base: string,
  opts: ResponsivenessOptions,
  operation: string,
  work: () => Promise<unknown>,
): Promise<ProbeFigures> {
  const queries = opts.queries.map((q) => q.query).filter((q) => q.trim() !== '');
  const probe = startProbe({ base, apiKey: opts.apiKey, memoryId: opts.memoryId, queries });
  const measured = once(probe, 'message') as Promise<[{ health: number[]; query: number[] }]>;
  const started = performance.now();
  await sleep(200);
  try {
    await work();
  } finally {
    probe.postMessage('stop');
  }
  const seconds = (performance.now() - started) / 1000;
  const [{ health, query }] = await measured;
  await probe.terminate();
  const h = percentiles(health);
  const q = percentiles(query);
  return {
    operation,
    seconds,
    healthz_p99_ms: h.p99,
    healthz_max_ms: Math.max(0, ...health),
    query_p99_ms: q.p99,
    query_max_ms: Math.max(0, ...query),
    probes: health.length,
    queries: query.length,
  };
}

async function waitFor(api: Api, path: string, done: (body: Record<string, unknown>) => boolean) {
  for (;;) {
    const body = await api.json<Record<string, unknown>>('GET', path);
    if (body.import_error_message) throw new Error(String(body.import_error_message));
    if (done(body)) return body;
    await sleep(50);
  }
}

/** Downloads and discards a file (holding it would add the bench's own work to the measurement). */
function download(base: string, key: string, path: string): Promise<void> {
  const url = new URL(`${base}${path}`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: { authorization: `Bearer ${key}` },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
        res.resume();
        res.on('end', () => resolve());
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export async function runResponsivenessBench(opts: ResponsivenessOptions): Promise<ResponsivenessResult> {
  const log = opts.log ?? (() => {});
  const doc = buildDocument(opts.segments, opts.seed + 7);
  const docFile = join(opts.workDir, 'responsiveness.txt');
  writeFileSync(docFile, doc.text);
  log(`responsiveness: a ${doc.segments}-segment document against memory ${opts.memoryId}`);
  return withServer(
    { dataDir: opts.dataDir, apiKey: opts.apiKey, maxUploadBytes: 2 * Buffer.byteLength(doc.text) + 2 ** 20 },
    async (server, api) => {
      const base = await server.listening();
      await waitFor(api, '/v2', () => true);
      for (;;) {
        const ready = await fetch(`${base}/readyz`);
        if (ready.status === 200) break;
        await sleep(100);
      }
      const idle = await probeDuring(base, opts, 'idle', () => sleep(5000));
      log(`responsiveness: idle query p99 ${idle.query_p99_ms.toFixed(2)} ms`);
      const project = await api.json<{ id: number }>('POST', '/v2/projects', {
        name: 'Responsiveness',
        memory_id: opts.memoryId,
      });
      let docId = 0;
      const during: ProbeFigures[] = [];
      const step = async (operation: string, work: () => Promise<unknown>) => {
        const figures = await probeDuring(base, opts, operation, work);
        log(
          `responsiveness: ${operation} ${figures.seconds.toFixed(1)} s: /healthz max ${figures.healthz_max_ms.toFixed(1)} ms, query p99 ${figures.query_p99_ms.toFixed(1)} ms`,
        );
        during.push(figures);
      };
      await step('document upload and parse', async () => {
        docId = (
          await api.upload<{ id: number }>('/v2/documents/files', docFile, {
            name: 'big.txt',
            project_id: project.id,
          })
        ).id;
        await waitFor(api, `/v2/documents?id=${docId}`, (d) => d.import_in_progress === false);
      });
      await step('pre-translation', async () => {
        await api.json('POST', '/v2/documents/pretranslate', { id: [docId] });
        await waitFor(api, `/v2/documents?id=${docId}`, (d) => d.is_pretranslating === false);
      });
      await step('XLIFF export', () =>
        download(base, opts.apiKey, `/v2/documents/files?id=${docId}&is_xliff=true`),
      );
      await step('original-format export', () =>
        download(base, opts.apiKey, `/v2/documents/files?id=${docId}&is_xliff=false`),
      );
      await step('TMX export of the memory', () =>
        download(base, opts.apiKey, `/v2/memories/export?id=${opts.memoryId}`),
      );
      // A common pair of letters in every pre-translated target: the replace touches most of the document.
      const replace = { id: docId, find: 'en', replace: 'EN', case_sensitive: true };
      let batchId = 0;
      await step('find and replace dry run', async () => {
        const preview = await api.json<{ changed: number }>('POST', '/v2/documents/replace', {
          ...replace,
          dry_run: true,
        });
        log(`responsiveness: find and replace would change ${preview.changed} segments`);
      });
      // The same as a regular expression: it runs on the replace pool's thread, a slice of texts at a time.
      await step('find and replace dry run, regular expression', async () => {
        const preview = await api.json<{ changed: number }>('POST', '/v2/documents/replace', {
          id: docId,
          find: '(e)n\\b',
          replace: '$1N',
          regex: true,
          case_sensitive: true,
          dry_run: true,
        });
        log(`responsiveness: the regular expression would change ${preview.changed} segments`);
      });
      await step('find and replace apply', async () => {
        batchId = (await api.json<{ batch_id: number }>('POST', '/v2/documents/replace', replace)).batch_id;
      });
      await step('find and replace undo', () =>
        api.json('POST', '/v2/documents/replace/undo', { id: docId, batch_id: batchId }),
      );
      return { document_segments: doc.segments, idle, during };
    },
  );
}
