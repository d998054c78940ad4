// Tessera's side of a comparison with another engine (README.md here): the engine bench, run as
// `npm run bench -- --only engine` runs it (same corpus, queries, seeds, warm-up and percentiles), its
// result written as JSON (as `--only engine --out` also does), with each timed query's number of matches
// and best score, for comparing how many queries each engine answers.
//
//   node --expose-gc --max-old-space-size=16384 --import tsx bench/compare/tessera.ts \
//     --size 1000000 --out tessera-1m.json
//
// The JSON: { options, load: 1-minute load average [start, end], engine: EngineBenchResult
// (bench/engine-bench.ts), queries: [{ cls, matches, best }] }.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { printEngineTable, runEngineBench } from '../engine-bench.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '42' },
    'per-class': { type: 'string', default: '200' },
    // bench/run.ts's default.
    'oracle-per-class': { type: 'string', default: '4' },
    n: { type: 'string', default: '10' },
    threshold: { type: 'string', default: '75' },
    out: { type: 'string' },
  },
});
if (!values.out) {
  console.error('usage: tessera.ts --size N --out FILE.json [--seed 42] [--per-class 200]');
  process.exit(2);
}
const size = Number(values.size);
const seed = Number(values.seed);
const perClass = Number(values['per-class']);
const n = Number(values.n);
const threshold = Number(values.threshold);
const log = (line: string) => console.error(line);
// The machine's 1-minute load average at the start and end: other work on it skews latencies.
const loadAtStart = loadavg()[0];

// What each timed query found, in the bench's order (taken after its time).
const queries: { cls: string; matches: number; best: number | null }[] = [];
const engine = await runEngineBench({
  size,
  seed,
  perClass,
  bruteForcePerClass: Number(values['oracle-per-class']),
  n,
  threshold,
  log,
  onAnswer: (q, matches) =>
    queries.push({ cls: q.cls, matches: matches.length, best: matches[0]?.score ?? null }),
});
printEngineTable(engine);
writeFileSync(
  values.out,
  `${JSON.stringify({ options: { size, seed, per_class: perClass, n, threshold }, load: [loadAtStart, loadavg()[0]], engine, queries })}\n`,
);
log(`written: ${values.out}`);
