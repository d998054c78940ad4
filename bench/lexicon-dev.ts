// The lexicon's two dev sets (bench/README.md, "The lexicon learned from the memory"): every choice of method
// is measured here, never on the gold list that lexicon-bench.ts scores.
//   es: the en-es memory's own one- and two-word entries, held out as lexicon-bench.ts holds out en-de's;
//   de: the en-de training side's entries of one or two words beside a placeholder or markup ("%s files" →
//       "files"), held out of that run's training (the gold list is held out too and never looked up).
// `node --import tsx bench/lexicon-dev.ts [es] [de] [--misses]` (both sets by default), with TESSERA_BENCH_DATA
// naming the folder of the real memories. Prints top-1 / top-3 per set, one and two words apart, and with
// --misses writes the sources whose top-1 missed (gold and answers) to lexicon-dev-<set>.tsv in the current
// folder, to read what the misses are.
import { writeFileSync } from 'node:fs';
import { scanTokens } from '../src/matching/tokenize.ts';
import { stemmerOf } from '../src/terminology/stemmers.ts';
import { WordAligner, wordTokens } from '../src/terminology/word-alignment.ts';
import { type Pair, readTmxPairs } from './corpus.ts';
import { label, splitGold } from './lexicon-bench.ts';
import { percentiles } from './table.ts';

/** A text without its tags and placeholders (each one a space), for comparing the words around them. */
function wordsOnly(text: string): string {
  let out = '';
  let at = 0;
  scanTokens(text, (type, _norm, _real, start, end) => {
    if (type !== 'tag' && type !== 'placeholder') return;
    out += `${text.slice(at, start)} `;
    at = end;
  });
  return out + text.slice(at);
}

/** The en-de dev set: entries of the training side whose one or two words stand beside markup. */
export function markupDev(train: readonly Pair[]): { dev: Map<string, Set<string>>; rest: Pair[] } {
  const dev = new Map<string, Set<string>>();
  const rest: Pair[] = [];
  for (const p of train) {
    const words = wordTokens(p.source).norms.length;
    const source = label(wordsOnly(p.source));
    const target = label(wordsOnly(p.target));
    if (words >= 1 && words <= 2 && /[%{<]/.test(p.source) && /\p{L}{2}/u.test(source) && target !== '') {
      let targets = dev.get(source);
      if (!targets) dev.set(source, (targets = new Set()));
      targets.add(target);
    } else rest.push(p);
  }
  return { dev, rest };
}

export interface DevScore {
  seen: number;
  top1: number;
  top3: number;
  one: { n: number; top1: number };
  two: { n: number; top1: number };
  trainMs: number;
  queryP99: number;
}

/** Trains on `train`, looks every gold source up, scores as lexicon-bench.ts scores. */
export function score(
  train: readonly Pair[],
  gold: Map<string, Set<string>>,
  trglang: string,
  misses?: string[],
): DevScore {
  const aligner = new WordAligner();
  const figures = aligner.train(train);
  const stem = stemmerOf(trglang);
  const s: DevScore = {
    seen: 0,
    top1: 0,
    top3: 0,
    one: { n: 0, top1: 0 },
    two: { n: 0, top1: 0 },
    trainMs: figures.ms,
    queryP99: 0,
  };
  const times: number[] = [];
  for (const [source, targets] of gold) {
    const started = performance.now();
    const answer = aligner.translations(source, { n: 3, stem });
    times.push(performance.now() - started);
    if (aligner.frequency(source, 1) === 0) continue;
    s.seen++;
    const forms = answer.map((t) => label(t.target));
    const first = forms[0] !== undefined && targets.has(forms[0]);
    if (first) s.top1++;
    if (forms.some((f) => targets.has(f))) s.top3++;
    if (!first) misses?.push(`${source}\t${[...targets].join(' | ')}\t${forms.join(' | ')}`);
    const bucket = source.includes(' ') ? s.two : s.one;
    bucket.n++;
    if (first) bucket.top1++;
  }
  s.queryP99 = percentiles(times).p99;
  return s;
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`;
const line = (name: string, s: DevScore) =>
  `${name}: top-1 ${pct(s.top1, s.seen)} of ${s.seen}, top-3 ${pct(s.top3, s.seen)}; one word ` +
  `${pct(s.one.top1, s.one.n)} of ${s.one.n}, two words ${pct(s.two.top1, s.two.n)} of ${s.two.n}; ` +
  `training ${(s.trainMs / 1000).toFixed(1)} s, query p99 ${s.queryP99.toFixed(2)} ms`;

if (import.meta.url === `file://${process.argv[1]}`) {
  // --misses: the sources whose top-1 missed, with the gold and the answers, into lexicon-dev-<set>.tsv.
  const sets = process.argv.slice(2).filter((a) => a !== '--misses');
  const misses = process.argv.includes('--misses') ? [] : undefined;
  const write = (name: string) => {
    if (misses) writeFileSync(`lexicon-dev-${name}.tsv`, `${misses.splice(0).join('\n')}\n`);
  };
  const wanted = (name: string) => sets.length === 0 || sets.includes(name);
  if (wanted('es')) {
    const { gold, train } = splitGold(readTmxPairs('en-es.tmx.gz', 'en', 'es'));
    console.log(line('es dev', score(train, gold, 'es', misses)));
    write('es');
  }
  if (wanted('de')) {
    const { train } = splitGold(readTmxPairs('en-de.tmx.gz', 'en', 'de'));
    const { dev, rest } = markupDev(train);
    console.log(line('de dev', score(rest, dev, 'de', misses)));
    write('de');
  }
}
