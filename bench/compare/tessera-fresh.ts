// Tessera's side of a comparison timed as the server answers: in a fresh Node process that holds only the
// saved index, not the corpus it was built from nor the garbage of building it (tessera.ts times the index
// in the process that built it).
//
// Two steps, each its own process:
//
//   node --max-old-space-size=16384 --import tsx bench/compare/tessera-fresh.ts --save --size 1000000 --dir DIR
//     builds the engine bench's corpus index and writes, in DIR: tessera.idx (src/matching/index-file.ts),
//     tessera-queries.json (the timed and warm-up queries exactly as the engine bench draws them, with the
//     answers of the index that was saved) and tessera-build.json (build time, file size).
//
//   node --import tsx bench/compare/tessera-fresh.ts --time --dir DIR --out FILE.json
//     loads DIR/tessera.idx as the server does (src/modules/memories/index-cache.ts: read, checked,
//     restored, refreshed, then src/matching/warm-up.ts's warm-up of every search path), looks up the engine
//     bench's warm-up untimed (four passes, as every engine of the comparison does), then each timed query
//     alone, and writes the JSON compare.ts reads (as tessera.ts's). After the timed queries it checks that
//     the loaded index answers every query as the index it was saved from did; a difference fails the run.
//
// DIR is best export.ts's directory for the same --size and --seed: compare.ts then checks that the classes
// and their order are the same as the other engines'.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { loadIndexFile, saveIndexFile } from '../../src/matching/index-file.ts';
import { MemoryIndex } from '../../src/matching/memory-index.ts';
import type { Match } from '../../src/matching/ranking.ts';
import { warmUpSearchPaths } from '../../src/matching/warm-up.ts';
import { buildCorpus, buildQuerySet, chooseCorpus, type LabelledQuery } from '../corpus.ts';
import {
  type EngineBenchResult,
  type Percentiles,
  WARMUP_PASSES,
  WARMUP_PER_CLASS,
} from '../engine-bench.ts';

const { values } = parseArgs({
  options: {
    save: { type: 'boolean', default: false },
    time: { type: 'boolean', default: false },
    dir: { type: 'string' },
    out: { type: 'string' },
    size: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '42' },
    corpus: { type: 'string', default: 'real' },
    'per-class': { type: 'string', default: '200' },
    n: { type: 'string', default: '10' },
    threshold: { type: 'string', default: '75' },
  },
});
const usage =
  'usage: tessera-fresh.ts --save --size N --dir DIR [--seed 42] | tessera-fresh.ts --time --dir DIR --out FILE.json';
if (values.save === values.time || !values.dir || (values.time && !values.out)) {
  console.error(usage);
  process.exit(2);
}
const dir = values.dir;
const indexFile = join(dir, 'tessera.idx');
const queriesFile = join(dir, 'tessera-queries.json');
const buildFile = join(dir, 'tessera-build.json');
const log = (line: string) => console.error(line);
const mb = (bytes: number) => bytes / 2 ** 20;

interface SavedQueries {
  options: { size: number; seed: number; per_class: number; n: number; threshold: number; corpus: string };
  warmup: LabelledQuery[];
  timed: LabelledQuery[];
  /** What the saved index answered to each timed query, in order. */
  answers: Match[][];
}

if (values.save) {
  const corpusRefused = chooseCorpus(values.corpus!);
  if (corpusRefused) {
    console.error(corpusRefused);
    process.exit(2);
  }
  const size = Number(values.size);
  const seed = Number(values.seed);
  const perClass = Number(values['per-class']);
  const n = Number(values.n);
  const threshold = Number(values.threshold);
  const corpus = buildCorpus(size, seed);
  // The same draws as bench/engine-bench.ts and export.ts.
  const timed = buildQuerySet(corpus, seed + 1, perClass);
  const warmup = buildQuerySet(corpus, seed + 2, WARMUP_PER_CLASS);
  const start = performance.now();
  const index = new MemoryIndex();
  for (let i = 0; i < corpus.length; i++) index.add(i + 1, corpus[i].source, i % 100_000);
  index.refresh();
  const build_ms = performance.now() - start;
  const rss_mb = mb(process.memoryUsage().rss);
  await saveIndexFile(indexFile, index, 1);
  const answers = timed.map((q) => index.search(q.query, { n, threshold }));
  const saved: SavedQueries = {
    options: { size, seed, per_class: perClass, n, threshold, corpus: values.corpus! },
    warmup,
    timed,
    answers,
  };
  writeFileSync(queriesFile, JSON.stringify(saved));
  const build = { build_ms, rss_mb, saved_mb: mb(statSync(indexFile).size) };
  writeFileSync(buildFile, `${JSON.stringify(build)}\n`);
  log(`saved: ${indexFile} (${Math.round(build.saved_mb)} MB, built in ${Math.round(build_ms)} ms)`);
  process.exit(0);
}

// --time: nothing but the saved index and the queries' texts in this process.
const saved = JSON.parse(readFileSync(queriesFile, 'utf8')) as SavedQueries;
const build = JSON.parse(readFileSync(buildFile, 'utf8')) as { build_ms: number; saved_mb: number };
const { n, threshold } = saved.options;
const loadAtStart = loadavg()[0];
const rssBefore = mb(process.memoryUsage().rss);
const loadStart = performance.now();
const loaded = await loadIndexFile(indexFile);
if (!loaded.ok) throw new Error(`the saved index did not load: ${loaded.reason}`);
const index = loaded.index;
index.refresh();
const load_ms = performance.now() - loadStart;
const warmStart = performance.now();
const warmUp = warmUpSearchPaths();
while (!warmUp.next().done);
const server_warmup_ms = performance.now() - warmStart;
const rss_mb = mb(process.memoryUsage().rss);
log(
  `loaded ${index.size} entries in ${Math.round(load_ms)} ms (RSS ${Math.round(rssBefore)} → ${Math.round(rss_mb)} MB), server warm-up ${Math.round(server_warmup_ms)} ms`,
);

// The options in the server's order (memories/service.ts): an object of another shape is another hidden
// class to the optimised search, which the server's warm-up did not show it.
const search = (q: LabelledQuery) => index.search(q.query, { threshold, n });
for (let pass = 0; pass < WARMUP_PASSES; pass++) for (const q of saved.warmup) search(q);
const ms: number[] = new Array(saved.timed.length);
const answers: Match[][] = new Array(saved.timed.length);
for (let i = 0; i < saved.timed.length; i++) {
  const start = performance.now();
  answers[i] = search(saved.timed[i]);
  ms[i] = performance.now() - start;
}
const loadAtEnd = loadavg()[0];

/** Nearest-rank percentiles, as bench/engine-bench.ts computes them. */
function percentiles(values: number[]): Percentiles {
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] ?? 0 };
}
const byClass = new Map<string, number[]>([['all', ms]]);
saved.timed.forEach((q, i) => {
  if (!byClass.has(q.cls)) byClass.set(q.cls, []);
  byClass.get(q.cls)!.push(ms[i]);
});
const classes = Object.fromEntries([...byClass].map(([cls, v]) => [cls, percentiles(v)]));

// The file answers as the index it was saved from (after the timing, which it does not change).
const differ = saved.timed.filter((_, i) => !isDeepStrictEqual(answers[i], saved.answers[i])).length;
if (differ > 0)
  throw new Error(`${differ} of ${saved.timed.length} queries answered otherwise than before the save`);

const engine: Partial<EngineBenchResult> & { fresh: true; server_warmup_ms: number } = {
  fresh: true,
  entries: index.size,
  build_ms: build.build_ms,
  saved_mb: build.saved_mb,
  load_ms,
  server_warmup_ms,
  rss_mb,
  index_mb: rss_mb - rssBefore,
  classes,
};
const queries = saved.timed.map((q, i) => ({
  cls: q.cls,
  matches: answers[i].length,
  best: answers[i][0]?.score ?? null,
}));
writeFileSync(
  values.out!,
  `${JSON.stringify({ options: saved.options, load: [loadAtStart, loadAtEnd], engine, queries })}\n`,
);
log(
  `timed ${ms.length} queries: all p50 ${classes.all.p50.toFixed(3)} ms, p99 ${classes.all.p99.toFixed(3)} ms; answers as saved: ${ms.length}/${ms.length}; written ${values.out}`,
);
