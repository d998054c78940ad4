// Prints Tessera's engine-bench latencies beside other engines' on the same corpus and queries, per query
// class, as markdown tables (README.md here has the file formats).
//
//   node --import tsx bench/compare/compare.ts --queries DIR --tessera tessera-1m.json \
//     [--tessera-load tessera-load-1m.json] --engine 'Other engine=other-1m.tsv' [--engine …]
//
// --queries: the directory export.ts wrote (classes.txt gives each timed query's class). --tessera: the JSON
// of tessera.ts here, or any bench JSON with an `engine` section (bench/run.ts's results file); only
// tessera.ts's also holds the per-query match counts. --tessera-load: tessera-load.ts's JSON (optional).
// --engine NAME=FILE.tsv, once per engine: one line per timed query, in queries.txt's order, `ms<TAB>matches`
// (more columns are ignored); FILE.log beside it, when present, holds `KEY<TAB>value` lines of the engine's
// index figures (BUILD_S, BUILD_PEAK_RSS_MB, INDEX_MB, LOAD_MS, RSS_AFTER_LOAD_MB, LOADAVG_START, LOADAVG_END).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EngineBenchResult, Percentiles } from '../engine-bench.ts';

const { values } = parseArgs({
  options: {
    queries: { type: 'string' },
    tessera: { type: 'string' },
    // tessera-load.ts's JSON: the saved index loaded by a fresh process, its RSS.
    'tessera-load': { type: 'string' },
    engine: { type: 'string', multiple: true, default: [] },
  },
});
if (!values.queries || !values.tessera) {
  console.error(
    'usage: compare.ts --queries DIR --tessera FILE.json [--tessera-load FILE.json] --engine NAME=FILE.tsv …',
  );
  process.exit(2);
}
const dir = values.queries;

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

// The other engines, one per --engine.
const others: (Engine & { figures: Record<string, number> })[] = [];
for (const spec of values.engine) {
  const eq = spec.lastIndexOf('=');
  if (eq <= 0) throw new Error(`--engine takes NAME=FILE.tsv, got "${spec}"`);
  const [name, tsv] = [spec.slice(0, eq), spec.slice(eq + 1)];
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
  const log = tsv.replace(/(\.tsv)?$/, '.log');
  const figures = existsSync(log)
    ? Object.fromEntries(
        lines(log).map((line) => {
          const [key, value] = line.split('\t');
          return [key, Number(value)];
        }),
      )
    : {};
  others.push({
    name,
    classes: Object.fromEntries([...times].map(([c, ms]) => [c, percentiles(ms)])),
    found: countFound(rows),
    figures,
  });
}

const f = (x: number | undefined) =>
  x === undefined ? '' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3);
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? '' : `${(a / b).toFixed(2)}×`;
/** A figure of an engine's .log with its unit, or '' when the log does not give it. */
const figure = (value: number | undefined, digits: number, unit: string) =>
  value === undefined || Number.isNaN(value) ? '' : `${value.toFixed(digits)} ${unit}`;

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
for (const e of others) {
  const g = e.figures;
  const build = figure(g.BUILD_S, 1, 's');
  const peak = figure(g.BUILD_PEAK_RSS_MB, 0, 'MB');
  const load = figure(g.LOAD_MS === undefined ? undefined : g.LOAD_MS / 1000, 2, 's');
  const rss = figure(g.RSS_AFTER_LOAD_MB, 0, 'MB');
  const loadavg = g.LOADAVG_START === undefined ? '' : `${g.LOADAVG_START} → ${g.LOADAVG_END}`;
  console.log(
    `| ${e.name} | ${build}${build && peak ? ` (peak RSS ${peak})` : ''} | ${figure(g.INDEX_MB, 0, 'MB')} | ${load} | ${rss}${rss ? ' after load' : ''} | ${loadavg} |`,
  );
}

console.log(
  '\nLatency per query in ms (nearest-rank percentiles); ×T: the engine ÷ Tessera (above 1: the engine slower); found: queries with at least one match.\n',
);
console.log('| class | engine | p50 | p95 | p99 | max | p50 ×T | p95 ×T | p99 ×T | found |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const cls of classNames) {
  const base = tessera.classes[cls];
  for (const e of [tessera, ...others]) {
    const p = e.classes[cls];
    const isBase = e === tessera;
    const found = e.found ? `${e.found[cls]}/${perClass.get(cls)}` : '';
    console.log(
      `| ${cls} | ${e.name} | ${f(p?.p50)} | ${f(p?.p95)} | ${f(p?.p99)} | ${f(p?.max)} | ${isBase ? '' : ratio(p?.p50, base?.p50)} | ${isBase ? '' : ratio(p?.p95, base?.p95)} | ${isBase ? '' : ratio(p?.p99, base?.p99)} | ${found} |`,
    );
  }
}
