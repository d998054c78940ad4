// `npm run bench`: the whole benchmark in one run — server import, restart, HTTP queries, engine, documents.
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { writeTmx } from '../src/formats/tmx/tmx-writer.ts';
import { BULK_CACHE_MIB } from '../src/store/sqlite/sqlite-db.ts';
import { runCrashScenarios, sqliteStore } from '../test/helpers/crash-scenarios.ts';
import { buildCorpus, buildQuerySet, CORPORA, chooseCorpus, corpusInUse, QUERY_CLASSES } from './corpus.ts';
import { runDocumentBench } from './document-bench.ts';
import { printEngineTable, runEngineBench } from './engine-bench.ts';
import { runImportBench, runQueryBench } from './http-bench.ts';
import { runJobsBench } from './jobs-bench.ts';
import { type Leverage, runLeverageBench } from './leverage-bench.ts';
import { runLexiconBench } from './lexicon-bench.ts';
import { runLoadBench } from './load-bench.ts';
import { runMtBench } from './mt-bench.ts';
import { type MtTermsBench, runMtTermsBench } from './mt-terms-bench.ts';
import { type RepairBench, runRepairBench } from './repair-bench.ts';
import { runResponsivenessBench } from './responsiveness-bench.ts';
import { formatTable, machine, type Row, writeResults } from './table.ts';
import { runTbxBench } from './tbx-bench.ts';
import { runTermsBench } from './terms-bench.ts';
import { runWebBench } from './web-bench.ts';

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
    // The document parsed, pre-translated and exported while responsiveness is probed.
    'busy-segments': { type: 'string', default: '100000' },
    // The terms the terms section's index holds.
    'terms-count': { type: 'string', default: '100000' },
    // The queries section: concurrent keep-alive clients, one pass of the timed queries for each count.
    'http-clients': { type: 'string', default: '1,8,32' },
    out: { type: 'string' },
    // `--only engine`: the engine section alone, its table printed (no servers; a results file only with --out).
    // `--only responsiveness,load`: those sections (and the import they start from), the table printed
    // and written to bench/results/partial.json unless --out says otherwise.
    only: { type: 'string' },
    // `--corpus real` (the default): the real memories in TESSERA_BENCH_DATA, refused when they are not
    // there; `--corpus samples`: the committed samples, whose figures do not compare.
    corpus: { type: 'string', default: 'real' },
    // The lexicon's training at scale: pairs of the bench corpus (0 leaves it out).
    'lexicon-large': { type: 'string', default: '1000000' },
    // The repair section: held-out en-es entries per score band, and the Apertium APy server to use (else
    // TESSERA_MT_APERTIUM_URL, else apertium-apy is started on a free port as the tests do).
    'repair-per-band': { type: 'string', default: '150' },
    // The mt-terms section: held-out en-es sentences holding a termbase term, translated with and without it.
    'mt-terms-sentences': { type: 'string', default: '500' },
    'apertium-url': { type: 'string' },
  },
});
const corpusRefused = chooseCorpus(values.corpus!);
if (corpusRefused) {
  console.error(`npm run bench: ${corpusRefused}`);
  process.exit(2);
}
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
const busySegments = count('busy-segments', 1);
const lexiconLarge = count('lexicon-large', 0);
const termsCount = count('terms-count', 1);
const repairPerBand = count('repair-per-band', 1);
const mtTermsSentences = count('mt-terms-sentences', 1);
const httpClients = values['http-clients']!.split(',').map((n) => Number(n.trim()));
if (httpClients.some((n) => !Number.isSafeInteger(n) || n < 1)) {
  console.error(
    `--http-clients takes a comma-separated list of client counts, got "${values['http-clients']}"`,
  );
  process.exit(2);
}
// Issue 29's target for the figure users see: HTTP p99 with 8 concurrent clients, on this 2-core machine.
const httpP99Target = size <= 1_000_000 ? 3 : 10;

const SECTIONS = [
  'import',
  'queries',
  'responsiveness',
  'load',
  'web',
  'jobs',
  'engine',
  'documents',
  'leverage',
  'lexicon',
  'terms',
  'tbx',
  'mt',
  'crash',
  'repair',
  'mt-terms',
];
const only = values.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !SECTIONS.includes(name)) ?? [];
if (unknown.length > 0) {
  console.error(`--only takes a comma-separated list of ${SECTIONS.join(', ')}; got "${unknown.join(', ')}"`);
  process.exit(2);
}
/** Whether a section runs: all of them without --only. */
const selected = (name: string) => only === undefined || only.includes(name);
const outFile =
  values.out ?? join(import.meta.dirname, 'results', only === undefined ? 'latest.json' : 'partial.json');

if (only?.length === 1 && only[0] === 'engine') {
  const log = (line: string) => console.error(line);
  const engine = await runEngineBench({ size, seed, perClass, bruteForcePerClass: oraclePerClass, log });
  printEngineTable(engine);
  // With --out, the figures too (bench/compare/compare.ts reads them).
  if (values.out) writeFileSync(values.out, `${JSON.stringify({ engine }, null, 2)}\n`);
  process.exit(0);
}
// The server sections start from the imported memory.
const needsMemory = ['import', 'queries', 'responsiveness', 'load', 'web', 'jobs'].some(selected);

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
  const blank = corpus.reduce((n, p) => n + (p.source.trim() === '' ? 1 : 0), 0);
  log(`corpus: built ${corpus.length} entries from ${CORPORA[corpusInUse().name]} (${blank} blank sources)`);
  // The engine bench draws its timed set with seed + 1 too, so both time the same queries.
  const queries = buildQuerySet(corpus, seed + 1, perClass);
  const warmup = buildQuerySet(corpus, seed + 2, 25);
  const tmxFile = join(workDir, 'bench.tmx');
  const header = { srclang: 'en', trglang: 'de', creationTool: 'tessera-bench', creationToolVersion: '1' };
  await pipeline(Readable.from(writeTmx(corpus, header)), createWriteStream(tmxFile));
  log(`corpus: TMX written, ${queries.length} queries`);
  return { tmxFile, units: corpus.length, queries, warmup };
}

const prepared = needsMemory ? await prepare() : undefined;
const dataDir = join(workDir, 'memory-data');
mkdirSync(dataDir);
const imported = prepared
  ? await section('import', () => runImportBench({ ...prepared, dataDir, apiKey, log }))
  : undefined;
if (prepared) rmSync(prepared.tmxFile, { force: true });
const memoryId = imported?.memory_id;
const queried =
  memoryId === undefined || !prepared || !selected('queries')
    ? undefined
    : await section('restart and queries', () =>
        runQueryBench({ ...prepared, dataDir, memoryId, apiKey, clients: httpClients, log }),
      );

const responsiveness =
  memoryId === undefined || !prepared || !selected('responsiveness')
    ? undefined
    : await section('responsiveness', () =>
        runResponsivenessBench({
          dataDir,
          workDir,
          memoryId,
          apiKey,
          queries: prepared.queries,
          segments: busySegments,
          seed,
          log,
        }),
      );

const load =
  memoryId === undefined || !prepared || !selected('load')
    ? undefined
    : await section('load', () =>
        runLoadBench({ dataDir, workDir, memoryId, apiKey, queries: prepared.queries, log }),
      );

const web =
  memoryId === undefined || !prepared || !selected('web')
    ? undefined
    : await section('web', () =>
        runWebBench({ dataDir, workDir, memoryId, apiKey, segments: docSegments, seed, log }),
      );

const jobs =
  memoryId === undefined || !prepared || !selected('jobs')
    ? undefined
    : await section('jobs', () =>
        runJobsBench({ dataDir, workDir, memoryId, apiKey, segments: docSegments, seed, log }),
      );

const engine = !selected('engine')
  ? undefined
  : await section('engine', () => {
      log('engine: building its own index in this process');
      return runEngineBench({ size, seed, perClass, bruteForcePerClass: oraclePerClass, log });
    });

const tbx = !selected('tbx')
  ? undefined
  : await section('tbx', async () => {
      const tbxDataDir = join(workDir, 'tbx-data');
      mkdirSync(tbxDataDir);
      return runTbxBench({ dataDir: tbxDataDir, workDir, apiKey, log });
    });
const lexicon = !selected('lexicon')
  ? undefined
  : await section('lexicon', () => runLexiconBench({ largeSize: lexiconLarge, seed, log }));
const leverage = !selected('leverage')
  ? undefined
  : await section('leverage', async () => {
      const leverageDataDir = join(workDir, 'leverage-data');
      mkdirSync(leverageDataDir);
      return runLeverageBench({ dataDir: leverageDataDir, workDir, apiKey, seed, log });
    });

const documents = !selected('documents')
  ? undefined
  : await section('documents', async () => {
      const docDataDir = join(workDir, 'document-data');
      mkdirSync(docDataDir);
      return runDocumentBench({ dataDir: docDataDir, workDir, apiKey, segments: docSegments, seed, log });
    });

const terms = !selected('terms')
  ? undefined
  : await section('terms', () => runTermsBench({ terms: termsCount, seed, log }));
const mt = !selected('mt')
  ? undefined
  : await section('mt', async () => {
      const mtDataDir = join(workDir, 'mt-data');
      mkdirSync(mtDataDir);
      return runMtBench({ dataDir: mtDataDir, workDir, apiKey, segments: docSegments, seed, log });
    });

// The crash suite of the tests (test/crash-recovery.test.ts), at full size, on the embedded store.
const crashSizes = { units: 200_000, segments: 50_000 };
const crash = !selected('crash')
  ? undefined
  : await section('crash recovery', async () => {
      const started = performance.now();
      const crashDir = join(workDir, 'crash-data');
      mkdirSync(crashDir);
      await runCrashScenarios(sqliteStore(crashDir), crashSizes, (line) => log(`crash: ${line}`));
      return { seconds: (performance.now() - started) / 1000 };
    });

const repair = !selected('repair')
  ? undefined
  : await section('repair', () =>
      runRepairBench({
        perBand: repairPerBand,
        seed,
        apertiumUrl: values['apertium-url'] ?? (process.env.TESSERA_MT_APERTIUM_URL || undefined),
        log,
      }),
    );

const mtTerms = !selected('mt-terms')
  ? undefined
  : await section('mt-terms', () =>
      runMtTermsBench({
        sentences: mtTermsSentences,
        seed,
        apertiumUrl: values['apertium-url'] ?? (process.env.TESSERA_MT_APERTIUM_URL || undefined),
        log,
      }),
    );

const rows: Row[] = [];
if (imported) {
  const h = imported;
  const growth = h.rss_peak_after_fifth_mb - h.rss_at_fifth_mb;
  const fileLeftMb = h.tmx_mb * 0.8;
  // Memory is bounded when the last four fifths of the file add little: a server that held the file or
  // its units would grow by about as much as it read. 64 MB is room for what does not scale with the file
  // (V8's young generation and heap growth steps, statement caches); the import's transaction fills the
  // store's bulk page cache, a fixed size, as it goes (BULK_CACHE_MIB: at a million units RSS rose by
  // about 115 MB over the task, then levelled off).
  const allowedMb = 64 + BULK_CACHE_MIB + 0.1 * fileLeftMb;
  const bounded = growth < allowedMb;
  rows.push(
    {
      figure: `TMX import rate (${h.units.toLocaleString('en-US')} units)`,
      value: h.import_units_per_s,
      unit: 'units/s',
      target: { op: '>=', value: 50_000 },
      note: `${h.tmx_mb.toFixed(0)} MB TMX: upload ${h.upload_s.toFixed(1)} s, upload start → task succeeded ${h.import_s.toFixed(1)} s; task result ${JSON.stringify(h.job_result)}, num_segments ${h.num_segments}`,
    },
    {
      figure: 'import: server RSS peak',
      value: h.rss_peak_import_mb,
      unit: 'MB',
      targetText: 'bounded',
      metText: bounded ? 'yes' : 'no',
      note: `RSS ${h.rss_before_import_mb.toFixed(0)} MB before, ${h.rss_at_fifth_mb.toFixed(0)} MB a fifth into the task, peak ${h.rss_peak_after_fifth_mb.toFixed(0)} MB after it (bounded: grows < 64 MB + the ${BULK_CACHE_MIB} MiB bulk page cache + 10 % of the ${fileLeftMb.toFixed(0)} MB of file left = ${allowedMb.toFixed(0)} MB; grew ${growth.toFixed(0)} MB)`,
    },
    {
      figure: 'import: longest wait for a task-status answer',
      value: h.longest_poll_gap_s,
      unit: 's',
      note: 'GET /v2/tasks is polled every 50 ms during the import; a long wait means the server answered nothing meanwhile',
    },
    {
      figure: 'import: match index built and saved after it',
      value: h.index_saved_s,
      unit: 's',
      note: "task succeeded → the memory's index file written (the server does it in the background; the restart below loads it)",
    },
    {
      figure: 'import: slowest /healthz while the index was built',
      value: h.index_build_slowest_healthz_ms,
      unit: 'ms',
      note: 'asked every 200 ms until the index file was written: the index is read and built in slices',
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
    {
      figure: 'HTTP: the server process',
      value: null,
      unit: '',
      note: `\`tessera serve\` as users start it (the compiled build), running with node ${h.server_node_flags.join(' ') || '(no flags)'}; ${h.query_count} queries a pass (${QUERY_CLASSES.length} classes), after ${25 * QUERY_CLASSES.length} warm-up queries by the same clients; ${h.blank_queries} blank queries of the set not sent (400 by contract); the clients run in a process of their own, keep-alive, closed loop${h.query_errors.length ? `; ${h.query_errors.length} errors, first: ${h.query_errors[0]}` : ''}`,
    },
    ...h.by_clients.flatMap((c): Row[] => {
      const who = `${c.clients} client${c.clients === 1 ? '' : 's'}`;
      const ms = (x: number) => `${x.toFixed(3)} ms`;
      return [
        {
          figure: `HTTP query p99, ${who}`,
          value: c.classes.all.p99,
          unit: 'ms',
          ...(c.clients === 8
            ? { target: { op: '<=', value: httpP99Target } as const }
            : c.clients === 1
              ? { target: { op: '<=', value: 15 } as const }
              : {}),
          note: `p50 ${ms(c.classes.all.p50)}, p95 ${ms(c.classes.all.p95)}, max ${ms(c.classes.all.max)} (a ${c.slowest.cls} query of ${c.slowest.chars} characters); ${Math.round(c.queries_per_s).toLocaleString('en-US')} queries/s; load average ${c.load_at_start.toFixed(2)} when the pass started${c.clients === 8 ? '; target (issue 29): ≤ 3 ms at 1M entries, ≤ 10 ms at 10M' : ''}`,
        },
        ...QUERY_CLASSES.map(
          (cls): Row => ({
            figure: `HTTP query p99 · ${cls}, ${who}`,
            value: c.classes[cls]?.p99 ?? null,
            unit: 'ms',
            note: c.classes[cls]
              ? `p50 ${ms(c.classes[cls].p50)}, max ${ms(c.classes[cls].max)}`
              : 'no queries of this class',
          }),
        ),
      ];
    }),
    {
      figure: 'HTTP GET /v2/languages p99, 8 clients',
      value: h.languages.p99,
      unit: 'ms',
      note: `p50 ${h.languages.p50.toFixed(2)} ms; ${Math.round(h.languages.per_s).toLocaleString('en-US')} requests/s; the server's CPU ${h.languages.server.cpu_ms_per_query.toFixed(3)} ms a request; the 337 KB answer as made once at start, not gzip-compressed (the clients do not ask for it)${h.languages.errors.length ? `; ${h.languages.errors.length} errors, first: ${h.languages.errors[0]}` : ''}`,
    },
    {
      figure: 'HTTP GET /healthz p99, 8 clients (the floor)',
      value: h.floor.p99,
      unit: 'ms',
      note: `p50 ${h.floor.p50.toFixed(2)} ms; ${Math.round(h.floor.per_s).toLocaleString('en-US')} requests/s; load average ${h.floor.load_at_start.toFixed(2)} when the pass started; no key check, no statement, no work: what this machine, the framework and the clients cost any route, below which no query's p99 can go`,
    },
    { figure: 'server RSS after queries', value: h.rss_after_queries_mb, unit: 'MB' },
  );
}
if (responsiveness) {
  const r = responsiveness;
  const queryBudget = r.idle.query_p99_ms + 10;
  rows.push({
    figure: 'idle: /healthz p99 · query p99',
    value: r.idle.query_p99_ms,
    unit: 'ms',
    note: `/healthz p99 ${r.idle.healthz_p99_ms.toFixed(2)} ms; the baseline of the rows below (queries sent back to back on their own connection, /healthz every 20 ms)`,
  });
  for (const d of r.during) {
    rows.push(
      {
        figure: `during ${d.operation}: /healthz max`,
        value: d.healthz_max_ms,
        unit: 'ms',
        target: { op: '<=', value: 50 },
        note: `${d.seconds.toFixed(1)} s of ${d.operation} (${r.document_segments.toLocaleString('en-US')}-segment document; the memory's ${size.toLocaleString('en-US')} entries), ${d.probes} probes`,
      },
      {
        figure: `during ${d.operation}: query p99`,
        value: d.query_p99_ms,
        unit: 'ms',
        target: { op: '<=', value: Number(queryBudget.toFixed(2)) },
        note: `${d.queries} queries, max ${d.query_max_ms.toFixed(1)} ms; target: idle p99 + 10 ms`,
      },
    );
  }
}
if (load) {
  const l = load;
  rows.push(
    {
      figure: `load: ${l.connections} connections, ${l.seconds} s — errors`,
      value: l.errors + l.non_2xx,
      unit: '',
      target: { op: '==', value: 0 },
      note: `${l.requests.toLocaleString('en-US')} requests (${l.confirmations.toLocaleString('en-US')} confirmations, the rest memory queries): ${l.errors} socket errors or timeouts, ${l.non_2xx} non-2xx answers`,
    },
    { figure: 'load: requests/s', value: l.requests_per_s, unit: 'req/s' },
    { figure: 'load: latency p50', value: l.latency_p50_ms, unit: 'ms' },
    {
      figure: 'load: latency p99',
      value: l.latency_p99_ms,
      unit: 'ms',
      note: `max ${l.latency_max_ms.toFixed(0)} ms; 32 requests in flight at all times, so a request waits for the others`,
    },
    {
      figure: 'load: server RSS after',
      value: l.rss_after_mb,
      unit: 'MB',
      note: `${l.rss_before_mb.toFixed(0)} MB before the run`,
    },
  );
}
if (web && 'skipped' in web) {
  rows.push({ figure: 'web', value: null, unit: '', note: `skipped: ${web.skipped}` });
} else if (web) {
  const w = web;
  const moves = (f: typeof w.matches_cached) =>
    `${f.n} moves, p95 ${f.p95.toFixed(1)} ms, max ${f.max.toFixed(1)} ms`;
  rows.push(
    {
      figure: `web: editor first paint (${w.document_segments.toLocaleString('en-US')} segments)`,
      value: w.first_paint_median_ms,
      unit: 'ms',
      target: { op: '<=', value: 1000 },
      note: `navigation start → first rows painted (tessera:segments-painted), median of ${w.first_paint_ms.map((ms) => ms.toFixed(0)).join(', ')} ms; headless Chromium`,
    },
    {
      figure: 'web: Alt+↓ → matches painted, from cache p50',
      value: w.matches_cached.p50,
      unit: 'ms',
      target: { op: '<=', value: 50 },
      note: `${moves(w.matches_cached)}; the next 5 segments' matches are prefetched`,
    },
    {
      figure: 'web: Alt+↓ → matches painted, uncached p50',
      value: w.matches_uncached.p50,
      unit: 'ms',
      target: { op: '<=', value: 100 },
      note: `${moves(w.matches_uncached)}; the 1M-entry memory, its prefetch held back by the bench`,
    },
    {
      figure: 'web: rows in the DOM',
      value: w.rows_in_dom,
      unit: 'rows',
      target: { op: '<=', value: 200 },
      note: 'grid rows (header included) with the editor open on a 1440×900 window',
    },
    {
      figure: 'web: JS of the editor route, gzipped',
      value: w.editor_js_gzip_kb,
      unit: 'kB',
      note: w.editor_js_files.join(', '),
    },
  );
  const big = w.large;
  if (big) {
    const n = big.segments.toLocaleString('en-US');
    rows.push(
      {
        figure: `web: editor first paint (${n} segments)`,
        value: big.first_paint_ms,
        unit: 'ms',
        target: { op: '<=', value: 1500 },
        note: 'navigation start → first rows painted, one load',
      },
      {
        figure: `web: Alt+G to segment ${n}, its editor on screen`,
        value: big.scroll_to_end_ms,
        unit: 'ms',
        target: { op: '<=', value: 1000 },
        note: 'the scroll to the end of the document and the page of segments there',
      },
      {
        figure: `web: replace preview over ${n} segments`,
        value: big.replace_preview_ms,
        unit: 'ms',
        note: `"the" → "THE" in sources, case-sensitive: ${big.replace_preview_changes.toLocaleString('en-US')} changes; Preview clicked → count shown`,
      },
      {
        figure: `web: QA of ${n} segments (GET /v2/documents/qa)`,
        value: big.qa_ms,
        unit: 'ms',
        note: `${big.qa_issues.toLocaleString('en-US')} issues; the same module over every segment in-process: ${big.qa_module_ms.toFixed(0)} ms`,
      },
      {
        figure: `web: ${big.deep_links.n} random ?seg=N links (${n} segments), segment in view and focused`,
        value: Math.min(big.deep_links.in_view, big.deep_links.focused),
        unit: 'links',
        target: { op: '>=', value: big.deep_links.n },
        note: `${big.deep_links.in_view} in view, ${big.deep_links.focused} focused, ${big.deep_links.top_third} a third down (row top at ${(big.deep_links.top_min * 100).toFixed(0)}–${(big.deep_links.top_max * 100).toFixed(0)} % of the list's height)`,
      },
      {
        figure: `web: ?seg=N link → its segment placed and focused, p50`,
        value: big.deep_links.ready.p50,
        unit: 'ms',
        note: `navigation start → focus in the target, the row in view; p95 ${big.deep_links.ready.p95.toFixed(0)} ms, max ${big.deep_links.ready.max.toFixed(0)} ms`,
      },
    );
  }
}
if (jobs) {
  const j = jobs;
  const b = j.bands;
  rows.push(
    {
      figure: `job leverage analysis (${j.segments.toLocaleString('en-US')} segments)`,
      value: j.stats_s,
      unit: 's',
      target: { op: '<=', value: 10 },
      note: `POST /v2/jobs/{id}/stats against ${j.memory_entries.toLocaleString('en-US')} entries, ${Math.round(j.segments_per_s).toLocaleString('en-US')} segments/s (again: ${j.stats_again_s.toFixed(2)} s); ${j.source_words.toLocaleString('en-US')} words: 101% ${b.context}, 100% ${b.exact}, 95–99 ${b.fuzzy95}, 85–94 ${b.fuzzy85}, 75–84 ${b.fuzzy75}, repetitions ${b.repetitions}, new ${b.new}`,
    },
    {
      figure: 'job created (file → COMPLETE)',
      value: j.create_s,
      unit: 's',
      note: 'POST /v2/jobs with one pair until creationStatus COMPLETE: the document made from the uploaded file and parsed',
    },
    {
      figure: 'job export (zip of merged files)',
      value: j.export_s,
      unit: 's',
      note: `GET export?type=files until isProcessing 0; ${j.zip_kb.toFixed(0)} kB zip`,
    },
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
    ...QUERY_CLASSES.flatMap((cls): Row[] =>
      (['p50', 'p95'] as const).map((p) => ({
        figure: `engine query ${p} · ${cls}`,
        value: e.classes[cls]?.[p] ?? null,
        unit: 'ms',
        bruteForce: e.brute_force[cls]?.[p],
      })),
    ),
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
    ...QUERY_CLASSES.map(
      (cls): Row => ({ figure: `engine query max · ${cls}`, value: e.classes[cls]?.max ?? null, unit: 'ms' }),
    ),
    { figure: 'engine index build', value: e.build_ms / 1000, unit: 's' },
    {
      figure: 'engine batch path (pre-translation, leverage)',
      value: e.batch.segments_per_s,
      unit: 'segments/s',
      note: `${e.batch.segments}-segment document, ${e.batch.distinct} distinct sources, best match each`,
    },
    {
      figure: 'engine ready from saved index',
      value: e.load_ms / 1000,
      unit: 's',
      target: { op: '<=', value: 2 },
      note: `${e.saved_mb.toFixed(0)} MB file read, checksum verified, restored; written in ${(e.save_ms / 1000).toFixed(1)} s`,
    },
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
if (tbx) {
  rows.push({
    figure: `TBX import (${tbx.concepts.toLocaleString('en-US')} concepts, ${tbx.terms.toLocaleString('en-US')} terms), embedded store`,
    value: tbx.concepts_per_s,
    unit: 'concepts/s',
    note: `${tbx.file_mb.toFixed(1)} MB of TBX-Basic v3 through POST /v2/memories/terms/import, all or nothing, in ${tbx.import_s.toFixed(1)} s`,
  });
}
if (lexicon) {
  const x = lexicon;
  const pct = (v: number) => 100 * v;
  rows.push(
    {
      figure: `lexicon learned from the en-de memory: top-1 on its one- and two-word entries held out (${x.seen} of ${x.gold_sources} seen in training)`,
      value: pct(x.top1),
      unit: '%',
      target: { op: '>=', value: 60 },
      note: `top-3 ${pct(x.top3).toFixed(1)} %; one word ${pct(x.one_word.top1).toFixed(1)} % of ${x.one_word.n}, two words ${pct(x.two_words.top1).toFixed(1)} % of ${x.two_words.n}`,
    },
    {
      figure: `lexicon training on ${x.train_pairs.toLocaleString('en-US')} real pairs (the memory less its gold entries)`,
      value: x.train_ms / 1000,
      unit: 's',
      note: `${x.parameters.toLocaleString('en-US')} word pairs per direction, RSS +${x.train_rss_mb.toFixed(0)} MB`,
    },
    {
      figure: `lexicon training on the whole en-de memory (${x.full.pairs.toLocaleString('en-US')} pairs)`,
      value: x.full.train_ms / 1000,
      unit: 's',
      note: `${x.full.parameters.toLocaleString('en-US')} word pairs per direction, RSS +${x.full.train_rss_mb.toFixed(0)} MB`,
    },
    {
      figure: 'lexicon query (a word or two-word phrase), p99',
      value: x.query_ms.p99,
      unit: 'ms',
      note: `p50 ${x.query_ms.p50.toFixed(3)} ms, p95 ${x.query_ms.p95.toFixed(3)} ms`,
    },
  );
  if (x.large) {
    rows.push({
      figure: `lexicon training on ${x.large.pairs.toLocaleString('en-US')} pairs (bench corpus)`,
      value: x.large.train_ms / 1000,
      unit: 's',
      note: `${x.large.parameters.toLocaleString('en-US')} word pairs per direction, RSS +${x.large.train_rss_mb.toFixed(0)} MB`,
    });
  }
}
if (leverage) {
  const l = leverage;
  const pct = (n: number, of: number) => (of === 0 ? 0 : (100 * n) / of);
  const words = (x: Leverage) =>
    `${x.exact_segments}/${x.segments} segments, ${x.exact_words}/${x.words} words (${pct(x.exact_words, x.words).toFixed(1)} %) exact`;
  rows.push(
    {
      figure: `leverage: PO catalog in the memory word for word (${l.messages} messages, ${l.multi_sentence_messages} of several sentences), segments exact`,
      value: pct(l.po_default.exact_segments, l.po_default.segments),
      unit: '%',
      target: { op: '>=', value: 100 },
      note: `per-format default, one segment per entry: ${words(l.po_default)}; memory of ${l.memory_entries} entries`,
    },
    {
      figure: 'leverage: the same PO forced to sentences (the cut before issue 25), segments exact',
      value: pct(l.po_sentence.exact_segments, l.po_sentence.segments),
      unit: '%',
      note: words(l.po_sentence),
    },
    {
      figure: 'leverage: the messages as prose paragraphs, TM-driven segmentation, segments exact',
      value: pct(l.text_default.exact_segments, l.text_default.segments),
      unit: '%',
      target: { op: '>=', value: 100 },
      note: `${words(l.text_default)}; by sentence without it: ${words(l.text_sentence)}`,
    },
  );
}
if (terms) {
  const t = terms;
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  rows.push(
    {
      figure: `terms: recognition per segment p50 (${t.terms.toLocaleString('en-US')} terms)`,
      value: t.find.p50,
      unit: 'ms',
      note: `${t.segments.toLocaleString('en-US')} en source segments of the memory, each alone, leftmost-longest; ${t.segments_with_terms.toLocaleString('en-US')} with terms, ${t.matches.toLocaleString('en-US')} found`,
    },
    {
      figure: `terms: recognition per segment p99 (${t.terms.toLocaleString('en-US')} terms)`,
      value: t.find.p99,
      unit: 'ms',
      target: { op: '<=', value: 1 },
      note: `max ${us(t.find.max ?? 0)}; every occurrence (term QA's target scan): p50 ${us(t.find_overlapping.p50)}, p99 ${us(t.find_overlapping.p99)}`,
    },
    {
      figure: 'terms: term QA per segment p99 (en→de)',
      value: t.qa.p99,
      unit: 'ms',
      target: { op: '<=', value: 1 },
      note: `checkTerms: the source recognized, the German target scanned (every occurrence), ${t.terms.toLocaleString('en-US')} terms a side; p50 ${us(t.qa.p50)}, max ${us(t.qa.max ?? 0)}; ${t.qa_issues.toLocaleString('en-US')} issues`,
    },
    {
      figure: 'terms: index build',
      value: t.build_ms,
      unit: 'ms',
      note: `${t.by_words.join(' / ')} terms of one / two / three words from the memory's sources (${t.case_sensitive} case-sensitive), seed ${seed}`,
    },
    {
      figure: 'terms: index memory',
      value: t.heap_mb,
      unit: 'MB',
      note: `heap and array buffers held after a GC; its own count of arrays and keys: ${t.index_mb.toFixed(1)} MB`,
    },
    {
      figure: `terms: en-de glossary (${(2 * t.terms).toLocaleString('en-US')} terms) memory`,
      value: t.glossary_mb,
      unit: 'MB',
      note: `both indexes and the term records, held after a GC; built in ${t.glossary_build_ms.toFixed(0)} ms`,
    },
  );
}
if (mt && 'skipped' in mt) {
  rows.push({ figure: 'mt', value: null, unit: '', note: `skipped: ${mt.skipped}` });
} else if (mt) {
  const t = mt;
  const ms = (p: { p50: number; p99: number }) => `p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms`;
  rows.push(
    {
      figure: 'MT suggestion overhead p50 (Tessera − APy direct)',
      value: t.overhead_p50_ms,
      unit: 'ms',
      target: { op: '<=', value: 2 },
      note: `GET /v2/translate/suggestion for ${t.texts} distinct texts not in the cache, answered by app.inject in one process: ${ms(t.inject_ms)}; the same texts straight to APy (/translate, the provider's parameters, a keep-alive node:http client) from that process: ${ms(t.inject_direct_ms)}; the median of the per-text differences ${t.paired_overhead_p50_ms.toFixed(2)} ms. Through the real server process over keep-alive HTTP: ${ms(t.http.tessera_ms)} against APy's ${ms(t.http.direct_ms)} (two more process wake-ups, which the machine's load lengthens)`,
    },
    {
      figure: 'MT suggestion overhead p99 (Tessera − APy direct)',
      value: t.overhead_p99_ms,
      unit: 'ms',
      target: { op: '<=', value: 2 },
    },
    {
      figure: 'MT suggestion, cache hit, p50',
      value: t.cache_hit_ms.p50,
      unit: 'ms',
      target: { op: '<=', value: 1 },
      note: `the same ${t.texts} texts three times more, answered from the store's cache, timed around app.inject (the server's whole handling: authentication, the memory, the cache's read, the usage counted in memory and written a second later); GET /healthz timed between them: ${ms(t.healthz_ms)}; through the real server process over keep-alive HTTP: ${ms(t.http.cache_hit_ms)}`,
    },
    {
      figure: 'MT suggestion, cache hit, p99',
      value: t.cache_hit_ms.p99,
      unit: 'ms',
      target: { op: '<=', value: 1 },
    },
    {
      figure: `tm+mt pre-translation (${t.document_segments.toLocaleString('en-US')} segments), MT from APy`,
      value: t.pretranslate_cold_segments_per_s,
      unit: 'seg/s',
      note: `${t.pretranslate_cold_s.toFixed(1)} s: ${t.tm_segments} segments from the memory (${t.memory_units} units, half the document's sentences), ${t.mt_segments} by MT of ${t.mt_distinct_texts} distinct texts (each sent to APy once, one request a text)`,
    },
    {
      figure: `tm+mt pre-translation (${t.document_segments.toLocaleString('en-US')} segments), MT cached`,
      value: t.pretranslate_cached_segments_per_s,
      unit: 'seg/s',
      note: `${t.pretranslate_cached_s.toFixed(1)} s: the same pre-translation again, every MT answered from the cache (Tessera's own path)`,
    },
  );
}
if (selected('crash'))
  rows.push({
    figure: 'crash recovery: kill -9 at each stage, restart',
    value: crash?.seconds ?? null,
    unit: 's',
    targetText: 'before or after',
    metText: crash ? 'yes' : 'no',
    note: `a ${crashSizes.units.toLocaleString('en-US')}-unit import (while uploaded, while parsed), a ${crashSizes.segments.toLocaleString('en-US')}-segment document (while uploaded, pre-translated, exported), on SQLite: after each restart the state was the one before or after, nothing stuck, no orphan rows or files`,
  });
if (repair) rows.push(...repairRows(repair));
if (mtTerms) rows.push(...mtTermsRows(mtTerms));
// The full messages (with the server's last output lines) are in the log above and in the JSON.
for (const failure of failures) {
  rows.push({ figure: 'section failed', value: null, unit: '', note: failure.split('\n')[0] });
}

const m = machine(loadAtStart);
const heading = `Tessera bench: ${size.toLocaleString('en-US')} entries of the ${corpusInUse().name} corpus, seed ${seed}, ${((performance.now() - startedAt) / 1000).toFixed(0)} s`;
console.log(formatTable(rows, m, heading));
writeResults(outFile, rows, m, {
  options: {
    corpus: corpusInUse().name,
    size,
    seed,
    per_class: perClass,
    oracle_per_class: oraclePerClass,
    doc_segments: docSegments,
    busy_segments: busySegments,
    lexicon_large: lexiconLarge,
    terms_count: termsCount,
    http_clients: httpClients,
  },
  finished_at: new Date().toISOString(),
  runtime_s: (performance.now() - startedAt) / 1000,
  import: imported ?? null,
  queries: queried ?? null,
  responsiveness: responsiveness ?? null,
  load: load ?? null,
  jobs: jobs ?? null,
  web: web ?? null,
  engine: engine ?? null,
  documents: documents ?? null,
  leverage: leverage ?? null,
  lexicon: lexicon ?? null,
  tbx: tbx ?? null,
  terms: terms ?? null,
  repair: repair ?? null,
  mt: mt ?? null,
  mt_terms: mtTerms ?? null,
  failures,
});
console.log(`\nwritten: ${outFile}`);
process.exitCode = failures.length ? 1 : 0;

/**
 * The repair section's rows, per score band: edits and chrF of the raw match, the full-sentence MT and the
 * repair where offered (against the raw match on the same entries: the target), and the translator's first
 * suggestion overall (the repair where offered, else the raw match).
 */
function repairRows(r: RepairBench): Row[] {
  const out: Row[] = [];
  const f = (x: { edits: number; chrf: number }) => `${x.edits.toFixed(1)} edits, chrF ${x.chrf.toFixed(1)}`;
  for (const b of r.bands) {
    const fewer = b.offered === 0 ? null : 100 * (1 - b.repaired.edits / b.rawWhereOffered.edits);
    out.push({
      figure: `repair ${b.band} %: fewer character edits than the raw match, where offered (${b.offered}/${b.n})`,
      value: fewer,
      unit: '%',
      // The issue's target: 20 % fewer in the lowest band, never worse in any.
      target: { op: '>=', value: b.band.startsWith('75') ? 20 : 0 },
      note: `raw ${f(b.rawWhereOffered)} → repaired ${f(b.repaired)}`,
    });
    const m = b.mtOnly;
    out.push({
      figure: `repair ${b.band} %: the same located by MT alone, without the memory's alignments (${m.offered}/${b.n})`,
      value: m.offered === 0 ? null : 100 * (1 - m.repaired.edits / m.rawWhereOffered.edits),
      unit: '%',
      note: `raw ${f(m.rawWhereOffered)} → repaired ${f(m.repaired)}; repaired-or-raw over all ${f(m.offeredOrRaw)}`,
    });
    out.push({
      figure: `repair ${b.band} %: offered only by the alignments (${b.addedByAlignment}), fewer edits than raw there`,
      value: b.addedByAlignment === 0 ? null : 100 * (1 - b.added.repaired.edits / b.added.raw.edits),
      unit: '%',
      note: `raw ${f(b.added.raw)} → repaired ${f(b.added.repaired)}; ${b.changedByAlignment} of MT's repairs placed otherwise by them`,
    });
    out.push({
      figure: `repair ${b.band} %: all ${b.n} held out, raw | full MT | repaired-or-raw`,
      value: b.offeredOrRaw.edits,
      unit: 'edits',
      note: `raw ${f(b.raw)} | MT ${f(b.mt)} | repaired-or-raw ${f(b.offeredOrRaw)}`,
    });
  }
  return out;
}

/** The mt-terms section's rows: termbase terms rendered as the termbase says, and chrF, without and with it. */
function mtTermsRows(t: MtTermsBench): Row[] {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const scope = `${t.occurrences} term occurrences in ${t.sentences} held-out en-es sentences, termbase of ${t.termbase_concepts} concepts learned from ${t.trained_on.toLocaleString('en-US')} pairs`;
  return [
    {
      figure: 'MT (Apertium) terms rendered as the termbase says, without it',
      value: Number((100 * t.without.share).toFixed(1)),
      unit: '%',
      note: `${t.without.rendered} of ${scope}; the human reference: ${pct(t.reference_share)}`,
    },
    {
      figure: 'MT (Apertium) terms rendered as the termbase says, protected and substituted',
      value: Number((100 * t.with.share).toFixed(1)),
      unit: '%',
      note: `${t.with.rendered} of ${t.occurrences}; ${t.with.refused} outputs refused (an element lost) against ${t.without.refused} without`,
    },
    {
      figure: 'MT (Apertium) chrF to the reference, without | with the termbase',
      value: Number(t.with.chrf.toFixed(1)),
      unit: 'chrF',
      note: `without ${t.without.chrf.toFixed(1)} | with ${t.with.chrf.toFixed(1)} (mean sentence chrF over the ${t.sentences} sentences)`,
    },
  ];
}
