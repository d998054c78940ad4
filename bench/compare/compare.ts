// Prints Tessera's engine-bench latencies beside other engines' on the same corpus and queries, per query
// class, as markdown tables (README.md here has the file formats).
//
//   node --import tsx bench/compare/compare.ts --queries DIR --tessera tessera-1m.json \
//     [--tessera-load tessera-load-1m.json] --engine 'Other engine=other-1m.tsv' [--engine …]
//   (--tessera and each --engine NAME once per paired run, in the same order: the wins are given per run)
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
    // Once per run: the k-th is paired with the k-th --engine of each name.
    tessera: { type: 'string', multiple: true, default: [] },
    // Only the cells each engine loses or wins per run, not the latency tables.
    'wins-only': { type: 'boolean', default: false },
    // tessera-load.ts's JSON: the saved index loaded by a fresh process, its RSS.
    'tessera-load': { type: 'string' },
    engine: { type: 'string', multiple: true, default: [] },
  },
});
if (!values.queries || values.tessera.length === 0) {
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

interface TesseraJson {
  engine: (EngineBenchResult & { fresh?: boolean; server_warmup_ms?: number }) | null;
  queries?: { cls: string; matches: number }[];
  /** tessera.ts: the 1-minute load average at start and end; bench/run.ts: under machine.load. */
  load?: [number, number];
  machine?: { load: [number, number] };
}

/** One run of Tessera's side: tessera.ts's JSON, or tessera-fresh.ts's (timed in a fresh process). */
function readTessera(file: string): { json: TesseraJson; engine: Engine } {
  const json = JSON.parse(readFileSync(file, 'utf8')) as TesseraJson;
  if (!json.engine) throw new Error(`${file} has no engine section`);
  if (json.queries && json.queries.length !== classes.length)
    throw new Error(`${file} has ${json.queries.length} queries, ${dir} ${classes.length}`);
  if (json.queries?.some((q, i) => q.cls !== classes[i]))
    throw new Error(`the queries of ${file} and ${dir} are not in the same classes and order`);
  return {
    json,
    engine: {
      name: 'Tessera',
      classes: json.engine.classes,
      found: json.queries
        ? countFound(json.queries.map((q) => ({ cls: q.cls, found: q.matches > 0 })))
        : undefined,
    },
  };
}

/** One run of another engine: its per-query TSV, and the .log beside it when there is one. */
function readEngine(name: string, tsv: string): Engine & { figures: Record<string, number> } {
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
  return {
    name,
    classes: Object.fromEntries([...times].map(([c, ms]) => [c, percentiles(ms)])),
    found: countFound(rows),
    figures,
  };
}

// Runs: the k-th --tessera is paired with the k-th --engine of each name.
const runs = values.tessera.map((file) => ({
  tessera: readTessera(file),
  others: [] as ReturnType<typeof readEngine>[],
}));
const engineNames: string[] = [];
const runsOf = new Map<string, number>();
for (const spec of values.engine) {
  const eq = spec.lastIndexOf('=');
  if (eq <= 0) throw new Error(`--engine takes NAME=FILE.tsv, got "${spec}"`);
  const [name, tsv] = [spec.slice(0, eq), spec.slice(eq + 1)];
  if (!engineNames.includes(name)) engineNames.push(name);
  const k = runsOf.get(name) ?? 0;
  runsOf.set(name, k + 1);
  if (k >= runs.length) throw new Error(`--engine ${name}: more runs than --tessera files (${runs.length})`);
  runs[k].others.push(readEngine(name, tsv));
}
for (const [k, run] of runs.entries())
  if (run.others.length !== engineNames.length)
    throw new Error(
      `run ${k + 1}: ${run.others.length} engines, expected one of each of ${engineNames.join(', ')}`,
    );
const { json: tesseraJson, engine: tessera } = runs[0].tessera;
const t = tesseraJson.engine!;
const others = runs[0].others;

const f = (x: number | undefined) =>
  x === undefined ? '' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3);
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? '' : `${(a / b).toFixed(2)}×`;
/** A figure of an engine's .log with its unit, or '' when the log does not give it. */
const figure = (value: number | undefined, digits: number, unit: string) =>
  value === undefined || Number.isNaN(value) ? '' : `${value.toFixed(digits)} ${unit}`;

const loadText = (l: [number, number] | undefined) => (l ? `${l[0]} → ${l[1]}` : '');
if (!values['wins-only']) {
  console.log(`### ${t.entries.toLocaleString('en-US')} entries, ${classes.length} queries\n`);
  const tLoad = tesseraJson.load ?? tesseraJson.machine?.load;
  console.log('| | index build | index file | load from file | RSS | load average (1 min) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(
    t.fresh
      ? `| Tessera, timed in a fresh process holding only the saved index (tessera-fresh.ts) | ${(t.build_ms / 1000).toFixed(1)} s | ${t.saved_mb.toFixed(0)} MB | ${(t.load_ms / 1000).toFixed(2)} s (then the server's warm-up, ${((t.server_warmup_ms ?? 0) / 1000).toFixed(2)} s) | ${t.rss_mb.toFixed(0)} MB after load | ${loadText(tLoad)} |`
      : `| Tessera | ${(t.build_ms / 1000).toFixed(1)} s | ${t.saved_mb.toFixed(0)} MB | ${(t.load_ms / 1000).toFixed(2)} s | ${t.rss_mb.toFixed(0)} MB after build, corpus held (index ${t.index_mb.toFixed(0)} MB of heap) | ${loadText(tLoad)} |`,
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
}

// The cells Tessera wins, run by run: a cell is a class × percentile; Tessera wins it when its time is
// below the other engine's in the same run (runs are paired in the order given).
const CELLS = ['p50', 'p95', 'p99'] as const;
console.log(
  `\n### Cells Tessera wins, per run (${runs.length} run${runs.length > 1 ? 's' : ''}; a cell: class × p50/p95/p99, won when Tessera's time is lower)\n`,
);
const header = engineNames.flatMap((name) => CELLS.map((c) => `${name} ${c}`));
console.log(
  `| run | load average (Tessera's run) | ${engineNames.map((n) => `won against ${n}`).join(' | ')} | lost |`,
);
console.log(`|---|---|${engineNames.map(() => '---:').join('|')}|---|`);
const wonRuns = new Map<string, number>(classNames.flatMap((cls) => header.map((h) => [`${cls} ${h}`, 0])));
for (const [k, run] of runs.entries()) {
  const lost: string[] = [];
  const won = run.others.map((e) => {
    let w = 0;
    for (const cls of classNames)
      for (const c of CELLS) {
        const mine = run.tessera.engine.classes[cls]?.[c];
        const theirs = e.classes[cls]?.[c];
        if (mine === undefined || theirs === undefined) continue;
        if (mine < theirs) {
          w++;
          wonRuns.set(`${cls} ${e.name} ${c}`, wonRuns.get(`${cls} ${e.name} ${c}`)! + 1);
        } else lost.push(`${cls} ${c} vs ${e.name} (${f(mine)} against ${f(theirs)})`);
      }
    return `${w}/${classNames.length * CELLS.length}`;
  });
  const l = run.tessera.json.load ?? run.tessera.json.machine?.load;
  console.log(`| ${k + 1} | ${loadText(l)} | ${won.join(' | ')} | ${lost.join('; ') || 'none'} |`);
}
console.log(`\nRuns in which Tessera wins each cell (of ${runs.length}):\n`);
console.log(`| class | ${header.join(' | ')} |`);
console.log(`|---|${header.map(() => '---:').join('|')}|`);
for (const cls of classNames)
  console.log(`| ${cls} | ${header.map((h) => wonRuns.get(`${cls} ${h}`)).join(' | ')} |`);
