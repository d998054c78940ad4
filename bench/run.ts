// `npm run bench`: the whole benchmark in one run — server import, restart, HTTP queries, engine, documents.
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { writeTmx } from '../src/formats/tmx/tmx-writer.ts';
import { buildCorpus, buildQuerySet, QUERY_CLASSES } from './corpus.ts';
import { runDocumentBench } from './document-bench.ts';
import { runEngineBench } from './engine-bench.ts';
import { runImportBench, runQueryBench } from './http-bench.ts';
import { formatTable, machine, type Row, writeResults } from './table.ts';

// The engine bench measures its index's heap after a GC when one can be asked for; `npm run bench`
// passes no --expose-gc, so the flag is set here and the function taken from a fresh context.
setFlagsFromString('--expose-gc');
(globalThis as { gc?: () => void }).gc ??= runInNewContext('gc') as () => void;

// A signal ends the process through 'exit', whose handler (http-bench.ts) kills the servers.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '42' },
    'per-class': { type: 'string', default: '200' },
    'oracle-per-class': { type: 'string', default: '4' },
    'doc-segments': { type: 'string', default: '20000' },
    out: { type: 'string', default: join(import.meta.dirname, 'results', 'latest.json') },
  },
});
const count = (name: keyof typeof values, min: number) => {
  const value = Number(values[name]);
  if (!Number.isSafeInteger(value) || value < min) {
    console.error(`--${name} must be an integer of at least ${min}, got "${values[name]}"`);
    process.exit(2);
  }
  return value;
};
const size = count('size', 1000);
const seed = count('seed', 0);
const perClass = count('per-class', 1);
const oraclePerClass = count('oracle-per-class', 0);
const docSegments = count('doc-segments', 1);

const startedAt = performance.now();
const loadAtStart = loadavg()[0];
const log = (line: string) =>
  console.error(`[${((performance.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${line}`);
// Fixed rather than random: the bench's data directories are thrown away after the run.
const apiKey = 'bench-key-0123456789abcdefghijklmnopqrstuvwxyz';
const workDir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
// On every way out, signals included, after http-bench.ts's 'exit' handler (registered first) killed the servers.
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));
const failures: string[] = [];

async function section<T>(name: string, run: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await run();
  } catch (err) {
    const message = (err as Error).stack ?? String(err);
    log(`${name} failed: ${message}`);
    failures.push(`${name}: ${(err as Error).message}`);
    return undefined;
  }
}

/**
 * The corpus as a TMX file, and the query sets. In a function of its own so that the million pairs are
 * garbage once it returns: the bench process is the HTTP client, and its GC pauses would count as latency.
 */
async function prepare() {
  log(`corpus: building ${size} entries (seed ${seed})`);
  const corpus = buildCorpus(size, seed);
  // The engine bench draws its timed set with seed + 1 too, so both time the same queries.
  const queries = buildQuerySet(corpus, seed + 1, perClass);
  const warmup = buildQuerySet(corpus, seed + 2, 25);
  const tmxFile = join(workDir, 'bench.tmx');
  const header = { srclang: 'en', trglang: 'de', creationTool: 'tessera-bench', creationToolVersion: '1' };
  await pipeline(Readable.from(writeTmx(corpus, header)), createWriteStream(tmxFile));
  log(`corpus: TMX written, ${queries.length} queries`);
  return { tmxFile, units: corpus.length, queries, warmup };
}

const prepared = await prepare();
const dataDir = join(workDir, 'memory-data');
mkdirSync(dataDir);
const imported = await section('import', () => runImportBench({ ...prepared, dataDir, apiKey, log }));
rmSync(prepared.tmxFile, { force: true });
const memoryId = imported?.memory_id;
const queried =
  memoryId === undefined
    ? undefined
    : await section('restart and queries', () =>
        runQueryBench({ ...prepared, dataDir, memoryId, apiKey, log }),
      );

const engine = await section('engine', () => {
  log('engine: building its own index in this process');
  return runEngineBench({ size, seed, perClass, bruteForcePerClass: oraclePerClass, log });
});

const documents = await section('documents', async () => {
  const docDataDir = join(workDir, 'document-data');
  mkdirSync(docDataDir);
  return runDocumentBench({ dataDir: docDataDir, workDir, apiKey, segments: docSegments, seed, log });
});

const rows: Row[] = [];
if (imported) {
  const h = imported;
  const growth = h.rss_peak_after_fifth_mb - h.rss_at_fifth_mb;
  const fileLeftMb = h.tmx_mb * 0.8;
  // Memory is bounded when the last four fifths of the file add little: a server that held the file or
  // its units would grow by about as much as it read. 64 MB is room for what does not scale with the file
  // (V8's young generation and heap growth steps, SQLite's page cache, statement caches).
  const bounded = growth < 64 + 0.1 * fileLeftMb;
  rows.push(
    {
      figure: `TMX import rate (${h.units.toLocaleString('en-US')} units)`,
      value: h.import_units_per_s,
      unit: 'units/s',
      target: { op: '>=', value: 50_000 },
      note: `${h.tmx_mb.toFixed(0)} MB TMX: upload ${h.upload_s.toFixed(1)} s, upload start → job succeeded ${h.import_s.toFixed(1)} s; job result ${JSON.stringify(h.job_result)}, num_segments ${h.num_segments}`,
    },
    {
      figure: 'import: server RSS peak',
      value: h.rss_peak_import_mb,
      unit: 'MB',
      targetText: 'bounded',
      metText: bounded ? 'yes' : 'no',
      note: `RSS ${h.rss_before_import_mb.toFixed(0)} MB before, ${h.rss_at_fifth_mb.toFixed(0)} MB a fifth into the job, peak ${h.rss_peak_after_fifth_mb.toFixed(0)} MB after it (bounded: grows < 64 MB + 10 % of the ${fileLeftMb.toFixed(0)} MB of file left)`,
    },
    {
      figure: 'import: longest wait for a job-status answer',
      value: h.longest_poll_gap_s,
      unit: 's',
      note: 'GET /v2/jobs is polled every 50 ms during the import; a long wait means the server answered nothing meanwhile',
    },
  );
}
if (queried) {
  const h = queried;
  rows.push(
    {
      figure: 'start-up to ready (first query answered)',
      value: h.startup_first_query_s,
      unit: 's',
      target: { op: '<=', value: 10 },
      note: `spawn → "listening" ${h.startup_listening_s.toFixed(2)} s, → /readyz 200 ${h.startup_readyz_s.toFixed(2)} s, → first query answered ${h.startup_first_query_s.toFixed(2)} s; RSS then ${h.rss_after_start_mb.toFixed(0)} MB`,
    },
    { figure: 'HTTP query p50', value: h.classes.all.p50, unit: 'ms' },
    { figure: 'HTTP query p95', value: h.classes.all.p95, unit: 'ms' },
    {
      figure: 'HTTP query p99',
      value: h.classes.all.p99,
      unit: 'ms',
      target: { op: '<=', value: 15 },
      note: `${h.query_count} queries, one keep-alive client on loopback, after ${25 * QUERY_CLASSES.length} warm-up queries; ${h.blank_queries} blank queries of the set not sent (400 by contract)${h.query_errors.length ? `; ${h.query_errors.length} errors, first: ${h.query_errors[0]}` : ''}`,
    },
    ...QUERY_CLASSES.map(
      (cls): Row => ({ figure: `HTTP query p99 · ${cls}`, value: h.classes[cls]?.p99 ?? null, unit: 'ms' }),
    ),
    {
      figure: 'HTTP query max',
      value: h.slowest.ms,
      unit: 'ms',
      note: `a ${h.slowest.cls} query of ${h.slowest.chars} characters`,
    },
    { figure: 'server RSS after queries', value: h.rss_after_queries_mb, unit: 'MB' },
  );
}
if (engine) {
  const e = engine;
  const bf = e.brute_force.all;
  rows.push(
    {
      figure: 'engine query p50',
      value: e.classes.all.p50,
      unit: 'ms',
      bruteForce: bf?.p50,
      target: { op: '<=', value: 1 },
    },
    { figure: 'engine query p95', value: e.classes.all.p95, unit: 'ms', bruteForce: bf?.p95 },
    {
      figure: 'engine query p99',
      value: e.classes.all.p99,
      unit: 'ms',
      bruteForce: bf?.p99,
      target: { op: '<=', value: 10 },
    },
    ...QUERY_CLASSES.map(
      (cls): Row => ({
        figure: `engine query p99 · ${cls}`,
        value: e.classes[cls]?.p99 ?? null,
        unit: 'ms',
        bruteForce: e.brute_force[cls]?.p99,
      }),
    ),
    {
      figure: 'agreement with brute-force oracle',
      value: e.oracle_agreement * 100,
      unit: '%',
      target: { op: '==', value: 100 },
      note: `${e.oracle_queries} queries (${oraclePerClass} a class) answered by both; brute-force column: the same scan's latency`,
    },
    { figure: 'engine index build', value: e.build_ms / 1000, unit: 's' },
    {
      figure: 'engine index size',
      value: e.index_mb,
      unit: 'MB',
      note: `bench process RSS ${e.rss_mb.toFixed(0)} MB with the corpus held`,
    },
  );
}
if (documents && 'skipped' in documents) {
  rows.push({ figure: 'documents', value: null, unit: '', note: `skipped: ${documents.skipped}` });
} else if (documents) {
  const d = documents;
  rows.push(
    {
      figure: `document upload parse (${d.document_segments.toLocaleString('en-US')} segments)`,
      value: d.upload_segments_per_s,
      unit: 'seg/s',
      target: { op: '>=', value: 10_000 },
      note: `plain text, ${d.document_paragraphs} paragraphs, ${d.document_mb.toFixed(1)} MB: upload → import_succeeded ${d.upload_s.toFixed(2)} s`,
    },
    {
      figure: 'document pre-translation',
      value: d.pretranslate_segments_per_s,
      unit: 'seg/s',
      target: { op: '>=', value: 2_000 },
      note: `${d.pretranslate_s.toFixed(2)} s against en-de (${d.memory_units} units, imported in ${d.memory_import_s.toFixed(1)} s); ${d.pretranslated} segments got a match, ${d.exact_matches} of them 100`,
    },
    {
      figure: 'document XLIFF export',
      value: d.xliff_export_s,
      unit: 's',
      target: { op: '<=', value: 2 },
      note: `${d.xliff_mb.toFixed(1)} MB`,
    },
    {
      figure: 'document original-format export',
      value: d.original_export_s,
      unit: 's',
      note: `${d.original_mb.toFixed(1)} MB`,
    },
  );
}
// The full messages (with the server's last output lines) are in the log above and in the JSON.
for (const failure of failures) {
  rows.push({ figure: 'section failed', value: null, unit: '', note: failure.split('\n')[0] });
}

const m = machine(loadAtStart);
const heading = `Tessera bench: ${size.toLocaleString('en-US')} entries, seed ${seed}, ${((performance.now() - startedAt) / 1000).toFixed(0)} s`;
console.log(formatTable(rows, m, heading));
writeResults(values.out!, rows, m, {
  options: { size, seed, per_class: perClass, oracle_per_class: oraclePerClass, doc_segments: docSegments },
  finished_at: new Date().toISOString(),
  runtime_s: (performance.now() - startedAt) / 1000,
  import: imported ?? null,
  queries: queried ?? null,
  engine: engine ?? null,
  documents: documents ?? null,
  failures,
});
console.log(`\nwritten: ${values.out}`);
process.exitCode = failures.length ? 1 : 0;
