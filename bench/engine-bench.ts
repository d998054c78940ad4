// Matching-engine benchmark: index build time and memory, query latency by class, agreement with the oracle.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { loadIndexFile, saveIndexFile } from '../src/matching/index-file.ts';
import { MemoryIndex } from '../src/matching/memory-index.ts';
import { bruteForceSearch, type OracleEntry } from '../src/matching/oracle.ts';
import type { Match } from '../src/matching/ranking.ts';
import { buildCorpus, buildDocument, buildQuerySet, type LabelledQuery, QUERY_CLASSES } from './corpus.ts';

/**
 * The warm-up before the timed queries: WARMUP_PASSES passes over WARMUP_PER_CLASS queries of each class,
 * drawn with seed + 2 (bench/compare/export.ts writes the same set, for another engine to look up first).
 */
export const WARMUP_PER_CLASS = 25;
export const WARMUP_PASSES = 4;

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max?: number;
}

export interface EngineBenchOptions {
  /** Entries in the memory (default 1,000,000). */
  size?: number;
  seed?: number;
  /** Timed index queries per class (default 200). */
  perClass?: number;
  /** Queries per class also answered by the brute-force oracle (default 2: it scans every entry). */
  bruteForcePerClass?: number;
  /** Matches asked for (default 10). */
  n?: number;
  threshold?: number;
  /** Segments of the document looked up by the batch path (default 20,000). */
  documentSegments?: number;
  /** Progress lines go here (default: nowhere). */
  log?: (line: string) => void;
  /** Each timed query with what it found, called after its time is taken (bench/compare/tessera.ts). */
  onAnswer?: (query: LabelledQuery, matches: Match[]) => void;
}

export interface EngineBenchResult {
  entries: number;
  corpus_ms: number;
  build_ms: number;
  /** The saved index file: its size, the time to write it, and to be ready from it (read, checked, restored). */
  saved_mb: number;
  save_ms: number;
  load_ms: number;
  /** Resident set size after the build, corpus included. */
  rss_mb: number;
  /** JS heap and array buffers the index holds, its own copy of the sources included (after a GC if possible). */
  index_mb: number;
  /** Milliseconds per query, engine only; `all` is the whole mixed set. */
  classes: Record<string, Percentiles>;
  /** Share of the oracle-checked queries whose indexed answer equals the oracle's exactly (1 = 100 %). */
  oracle_agreement: number;
  oracle_queries: number;
  /** The batch path: a document's segments looked up in one pass, one query per distinct source. */
  batch: { segments: number; distinct: number; segments_per_s: number };
  brute_force: Record<string, Percentiles>;
}

export async function runEngineBench(opts: EngineBenchOptions = {}): Promise<EngineBenchResult> {
  const size = opts.size ?? 1_000_000;
  const seed = opts.seed ?? 42;
  const n = opts.n ?? 10;
  const threshold = opts.threshold ?? 75;
  const log = opts.log ?? (() => {});

  let t = performance.now();
  const corpus = buildCorpus(size, seed);
  const queries = buildQuerySet(corpus, seed + 1, opts.perClass ?? 200);
  // Looked up untimed before the timed set, as the HTTP bench does (run.ts): every class's code paths
  // compiled, as in a server that has been answering for a while, not the timed queries' data cached.
  const warmup = buildQuerySet(corpus, seed + 2, WARMUP_PER_CLASS);
  const corpus_ms = performance.now() - t;
  log(`corpus: ${corpus.length} entries, ${queries.length} queries in ${Math.round(corpus_ms)} ms`);

  const entries: OracleEntry[] = corpus.map((p, i) => ({
    id: i + 1,
    source: p.source,
    updatedAt: i % 100_000,
  }));
  const before = heapBytes();
  // The index gets strings of its own, as rows read from a database are, so that its size counts them.
  let sources: string[] | null = entries.map((e) => Buffer.from(e.source).toString());
  t = performance.now();
  let built: MemoryIndex | null = new MemoryIndex();
  for (let i = 0; i < entries.length; i++) built.add(entries[i].id, sources[i], entries[i].updatedAt);
  built.refresh();
  const build_ms = performance.now() - t;
  sources = null;
  const index_mb = (heapBytes() - before) / 2 ** 20;
  const rss_mb = process.memoryUsage().rss / 2 ** 20;
  log(`index: built in ${Math.round(build_ms)} ms, ${Math.round(index_mb)} MB, RSS ${Math.round(rss_mb)} MB`);

  // The saved index (index-file.ts): written, then read back into a second index, which is then used for
  // the timed queries (so they also check that the file answers as the index it was saved from).
  const dir = mkdtempSync(join(tmpdir(), 'tessera-engine-'));
  let saved: { save_ms: number; load_ms: number; file_mb: number };
  let index: MemoryIndex = built;
  try {
    const file = join(dir, 'memory.idx');
    t = performance.now();
    await saveIndexFile(file, built, 1);
    const save_ms = performance.now() - t;
    t = performance.now();
    const loaded = await loadIndexFile(file);
    if (!loaded.ok) throw new Error(`the saved index did not load: ${loaded.reason}`);
    loaded.index.refresh();
    const load_ms = performance.now() - t;
    saved = { save_ms, load_ms, file_mb: statSync(file).size / 2 ** 20 };
    index = loaded.index;
    built = null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  log(
    `saved index: ${Math.round(saved.file_mb)} MB written in ${Math.round(saved.save_ms)} ms, ready from it in ${Math.round(saved.load_ms)} ms`,
  );

  const search = (q: LabelledQuery) => index.search(q.query, { n, threshold });
  // The index built first and the file's buffers are garbage now: collected here (when a GC can be
  // asked for), not in the middle of the timed queries — a server holds no such heap of garbage, nor
  // the bench's corpus, which makes each collection here far longer than in a server.
  (globalThis as { gc?: () => void }).gc?.();
  for (let pass = 0; pass < WARMUP_PASSES; pass++) for (const q of warmup) search(q);
  const times = new Map<string, number[]>([['all', []]]);
  for (const q of queries) {
    const start = performance.now();
    const matches = search(q);
    const ms = performance.now() - start;
    opts.onAnswer?.(q, matches);
    times.get('all')!.push(ms);
    if (!times.has(q.cls)) times.set(q.cls, []);
    times.get(q.cls)!.push(ms);
  }
  const classes = Object.fromEntries([...times].map(([cls, ms]) => [cls, percentiles(ms)]));
  log(`index queries: p50 ${classes.all.p50.toFixed(3)} ms, p99 ${classes.all.p99.toFixed(3)} ms`);

  // The batch path of pre-translation and leverage analysis (memories/service.ts searchEach): a document's
  // segments in one pass, the best match (n = 1) of each distinct source once.
  const document = buildDocument(corpus, seed + 3, opts.documentSegments ?? 20_000);
  t = performance.now();
  const answers = new Map<string, unknown>();
  for (const source of document)
    if (!answers.has(source)) answers.set(source, index.search(source, { n: 1, threshold: 75 })[0] ?? null);
  const batch_s = (performance.now() - t) / 1000;
  const batch = {
    segments: document.length,
    distinct: answers.size,
    segments_per_s: document.length / batch_s,
  };
  log(
    `batch path: ${batch.segments} segments (${batch.distinct} distinct) in ${batch_s.toFixed(2)} s, ${Math.round(batch.segments_per_s)} segments/s`,
  );

  const perClass = opts.bruteForcePerClass ?? 2;
  const bfTimes = new Map<string, number[]>([['all', []]]);
  let agree = 0;
  let checked = 0;
  for (const cls of QUERY_CLASSES) {
    for (const q of queries.filter((x) => x.cls === cls).slice(0, perClass)) {
      const start = performance.now();
      const expected = bruteForceSearch(entries, q.query, { n, threshold });
      const ms = performance.now() - start;
      bfTimes.get('all')!.push(ms);
      if (!bfTimes.has(cls)) bfTimes.set(cls, []);
      bfTimes.get(cls)!.push(ms);
      checked++;
      if (isDeepStrictEqual(search(q), expected)) agree++;
      else log(`oracle disagrees on ${cls} query ${JSON.stringify(q.query.slice(0, 80))}`);
    }
  }
  log(`oracle: ${agree}/${checked} agree`);
  return {
    entries: size,
    corpus_ms,
    build_ms,
    saved_mb: saved.file_mb,
    save_ms: saved.save_ms,
    load_ms: saved.load_ms,
    rss_mb,
    index_mb,
    classes,
    oracle_agreement: checked ? agree / checked : 1,
    oracle_queries: checked,
    batch,
    brute_force: Object.fromEntries([...bfTimes].map(([cls, ms]) => [cls, percentiles(ms)])),
  };
}

/** Nearest-rank percentiles. */
function percentiles(ms: number[]): Percentiles {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] ?? 0 };
}

function heapBytes(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

export function printEngineTable(r: EngineBenchResult): void {
  const f = (x: number) => x.toFixed(3).padStart(10);
  console.log(
    `\nentries ${r.entries}  build ${Math.round(r.build_ms)} ms  index ${Math.round(r.index_mb)} MB  RSS ${Math.round(r.rss_mb)} MB`,
  );
  console.log(
    `saved index ${Math.round(r.saved_mb)} MB: written in ${Math.round(r.save_ms)} ms, ready from it in ${Math.round(r.load_ms)} ms`,
  );
  console.log(
    `batch path: ${r.batch.segments} segments (${r.batch.distinct} distinct), ${Math.round(r.batch.segments_per_s)} segments/s`,
  );
  console.log(`oracle agreement ${(r.oracle_agreement * 100).toFixed(1)} % on ${r.oracle_queries} queries\n`);
  console.log(
    `${'class'.padEnd(10)}${'p50 ms'.padStart(10)}${'p95 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'max ms'.padStart(10)}   brute force p50 ms`,
  );
  for (const [cls, p] of Object.entries(r.classes)) {
    const bf = r.brute_force[cls];
    console.log(
      `${cls.padEnd(10)}${f(p.p50)}${f(p.p95)}${f(p.p99)}${f(p.max ?? 0)}   ${bf ? bf.p50.toFixed(0).padStart(10) : ''}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      size: { type: 'string' },
      'per-class': { type: 'string' },
      'brute-force': { type: 'string' },
      n: { type: 'string' },
      threshold: { type: 'string' },
    },
  });
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  printEngineTable(
    await runEngineBench({
      size: num(values.size),
      perClass: num(values['per-class']),
      bruteForcePerClass: num(values['brute-force']),
      n: num(values.n),
      threshold: num(values.threshold),
      log: (line) => console.error(line),
    }),
  );
}
