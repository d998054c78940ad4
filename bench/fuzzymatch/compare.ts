// Prints Tessera's engine-bench latencies beside FuzzyMatch's on the same corpus and queries, per query
// class, as markdown (README.md here).
//
//   node --import tsx bench/fuzzymatch/compare.ts --fm /work/fm/data/1m --tessera /work/fm/tessera-1m.json \
//     [--tessera-load /work/fm/tessera-load-1m.json]
//
// --fm: a directory written by export.ts and run.sh (classes.txt, MODE.tsv and MODE.log per mode,
// build-index.log). --tessera: the JSON of tessera.ts here, or any bench JSON with an `engine` section
// (bench/run.ts's results file); only tessera.ts's also holds the per-query match counts. --tessera-load:
// tessera-load.ts's JSON (optional).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EngineBenchResult, Percentiles } from '../engine-bench.ts';

const { values } = parseArgs({
  options: {
    fm: { type: 'string' },
    tessera: { type: 'string' },
    // tessera-load.ts's JSON: the saved index loaded by a fresh process, its RSS.
    'tessera-load': { type: 'string' },
  },
});
if (!values.fm || !values.tessera) {
  console.error('usage: compare.ts --fm DIR --tessera FILE.json');
  process.exit(2);
}
const dir = values.fm;

/** Nearest-rank percentiles, as bench/engine-bench.ts computes Tessera's. */
function percentiles(ms: readonly number[]): Required<Percentiles> {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] ?? 0 };
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').slice(0, -1);

interface Engine {
  name: string;
  classes: Record<string, Percentiles>;
  /** Queries of each class that got at least one match, when known. */
  found?: Record<string, number>;
}

const classes = lines(join(dir, 'classes.txt'));
const classNames = [...new Set(classes), 'all'];
const perClass = new Map<string, number>(classNames.map((c) => [c, 0]));
for (const c of classes) {
  perClass.set(c, perClass.get(c)! + 1);
  perClass.set('all', perClass.get('all')! + 1);
}

function countFound(rows: { cls: string; found: boolean }[]): Record<string, number> {
  const found: Record<string, number> = Object.fromEntries(classNames.map((c) => [c, 0]));
  for (const r of rows)
    if (r.found) {
      found[r.cls]++;
      found.all++;
    }
  return found;
}

// Tessera.
const tesseraJson = JSON.parse(readFileSync(values.tessera, 'utf8')) as {
  engine: EngineBenchResult | null;
  queries?: { cls: string; matches: number }[];
  /** tessera.ts: the 1-minute load average at start and end; bench/run.ts: under machine.load. */
  load?: [number, number];
  machine?: { load: [number, number] };
};
const t = tesseraJson.engine;
if (!t) throw new Error(`${values.tessera} has no engine section`);
const tessera: Engine = {
  name: 'Tessera',
  classes: t.classes,
  found: tesseraJson.queries
    ? countFound(tesseraJson.queries.map((q) => ({ cls: q.cls, found: q.matches > 0 })))
    : undefined,
};
if (tesseraJson.queries && tesseraJson.queries.length !== classes.length)
  throw new Error(`${values.tessera} has ${tesseraJson.queries.length} queries, ${dir} ${classes.length}`);
if (tesseraJson.queries?.some((q, i) => q.cls !== classes[i]))
  throw new Error(`the queries of ${values.tessera} and ${dir} are not in the same classes and order`);

// FuzzyMatch, one engine per mode run.sh ran.
const MODES: [file: string, name: string][] = [
  ['ml2-mr0', 'FuzzyMatch --ml 2 --mr 0'],
  ['ml2', 'FuzzyMatch --ml 2 (--mr 0.3)'],
  ['default', 'FuzzyMatch defaults (--ml 3 --mr 0.3)'],
];
const fm: (Engine & { load_ms: number; rss_mb: number; loadavg: string })[] = [];
for (const [file, name] of MODES) {
  const tsv = join(dir, `${file}.tsv`);
  if (!existsSync(tsv)) continue;
  const rows = lines(tsv).map((line, i) => {
    const [ms, matches] = line.split('\t').map(Number);
    return { cls: classes[i], ms, found: matches > 0 };
  });
  if (rows.length !== classes.length)
    throw new Error(`${tsv}: ${rows.length} lines, ${classes.length} queries`);
  const times = new Map<string, number[]>(classNames.map((c) => [c, []]));
  for (const r of rows) {
    times.get(r.cls)!.push(r.ms);
    times.get('all')!.push(r.ms);
  }
  const log = Object.fromEntries(
    lines(join(dir, `${file}.log`)).map((line) => {
      const [key, value] = line.split('\t');
      return [key, Number(value)];
    }),
  );
  fm.push({
    name,
    classes: Object.fromEntries([...times].map(([c, ms]) => [c, percentiles(ms)])),
    found: countFound(rows),
    load_ms: log.LOAD_MS,
    rss_mb: log.RSS_AFTER_LOAD_MB,
    loadavg: log.LOADAVG_START === undefined ? '' : `${log.LOADAVG_START} → ${log.LOADAVG_END}`,
  });
}

const f = (x: number | undefined) =>
  x === undefined ? '' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3);
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? '' : `${(a / b).toFixed(2)}×`;

// The figures of the index builds.
const buildLog = existsSync(join(dir, 'build-index.log'))
  ? readFileSync(join(dir, 'build-index.log'), 'utf8')
  : '';
const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(buildLog);
const buildS = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : undefined;
const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(buildLog);
const fmi = join(dir, 'sources.txt.fmi');
const fmiBytes = /FMI_BYTES\t(\d+)/.exec(buildLog);
const fmiMb = fmiBytes
  ? Number(fmiBytes[1]) / 2 ** 20
  : existsSync(fmi)
    ? statSync(fmi).size / 2 ** 20
    : undefined;

console.log(`### ${t.entries.toLocaleString('en-US')} entries, ${classes.length} queries\n`);
const tLoad = tesseraJson.load ?? tesseraJson.machine?.load;
console.log('| | index build | index file | load from file | RSS | load average (1 min) |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(
  `| Tessera | ${(t.build_ms / 1000).toFixed(1)} s | ${t.saved_mb.toFixed(0)} MB | ${(t.load_ms / 1000).toFixed(2)} s | ${t.rss_mb.toFixed(0)} MB after build, corpus held (index ${t.index_mb.toFixed(0)} MB of heap) | ${tLoad ? `${tLoad[0]} → ${tLoad[1]}` : ''} |`,
);
if (values['tessera-load']) {
  const l = JSON.parse(readFileSync(values['tessera-load'], 'utf8')) as {
    file_mb: number;
    load_ms: number;
    rss_after_mb: number;
  };
  console.log(
    `| Tessera, index alone in a fresh process (tessera-load.ts) | | ${l.file_mb.toFixed(0)} MB | ${(l.load_ms / 1000).toFixed(2)} s | ${l.rss_after_mb.toFixed(0)} MB after load | |`,
  );
}
for (const e of fm)
  console.log(
    `| ${e.name} | ${buildS === undefined ? '' : `${buildS.toFixed(1)} s (CLI -c, peak RSS ${maxRss ? (Number(maxRss[1]) / 1024).toFixed(0) : '?'} MB)`} | ${fmiMb === undefined ? '' : `${fmiMb.toFixed(0)} MB`} | ${(e.load_ms / 1000).toFixed(2)} s | ${e.rss_mb.toFixed(0)} MB after load | ${e.loadavg} |`,
  );

console.log(
  '\nLatency per query in ms (nearest-rank percentiles); ×T: FuzzyMatch ÷ Tessera (above 1: FuzzyMatch slower); found: queries with at least one match (score ≥ 75 % / 0.75, top 10).\n',
);
console.log('| class | engine | p50 | p95 | p99 | max | p50 ×T | p95 ×T | p99 ×T | found |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const cls of classNames) {
  const base = tessera.classes[cls];
  for (const e of [tessera, ...fm]) {
    const p = e.classes[cls];
    const isBase = e === tessera;
    const found = e.found ? `${e.found[cls]}/${perClass.get(cls)}` : '';
    console.log(
      `| ${cls} | ${e.name} | ${f(p?.p50)} | ${f(p?.p95)} | ${f(p?.p99)} | ${f(p?.max)} | ${isBase ? '' : ratio(p?.p50, base?.p50)} | ${isBase ? '' : ratio(p?.p95, base?.p95)} | ${isBase ? '' : ratio(p?.p99, base?.p99)} | ${found} |`,
    );
  }
}
