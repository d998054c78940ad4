// The lexicon learned from a memory (issue 28; src/terminology/word-alignment.ts), measured as the issue asks:
// the en-de memory's one- and two-word entries (UI labels such as "File" → "Datei") are the gold list, the
// aligner trains on the rest, and each gold source is looked up — top-1 and top-3 against any of the
// memory's translations of it. Then the training time and memory at the real memory's size and at a million
// pairs (the bench corpus: the real pairs and seeded variants of them).
//
// Comparison is after the forms a UI label wears are taken off both sides: accelerator marks (`_File`,
// `&File`), punctuation before the first and after the last letter or digit (a final colon, full stop,
// ellipsis or `=`, enclosing parentheses or brackets, asterisks, a trailing comma), runs of spaces, case. A gold source whose words
// never occur in the training pairs cannot be learned from them: those are counted (coverage) and left out of
// the accuracy, which is over the sources the lexicon has seen.
import { stemmerOf } from '../src/terminology/stemmers.ts';
import { WordAligner, wordTokens } from '../src/terminology/word-alignment.ts';
import { buildCorpus, type Pair, readTmxPairs } from './corpus.ts';
import { percentiles } from './table.ts';

export interface LexiconBenchResult {
  pairs: number;
  /** The pairs trained on: the memory's less its gold entries. */
  train_pairs: number;
  gold_sources: number;
  /** Gold sources whose words occur in a row in the training pairs. */
  seen: number;
  top1: number;
  top3: number;
  one_word: { n: number; top1: number };
  two_words: { n: number; top1: number };
  train_ms: number;
  train_rss_mb: number;
  parameters: number;
  query_ms: { p50: number; p95: number; p99: number };
  /** Training on the whole memory (73k pairs), as a server trains on it. */
  full: { pairs: number; train_ms: number; train_rss_mb: number; parameters: number };
  large?: { pairs: number; train_ms: number; train_rss_mb: number; parameters: number };
}

// Everything before the first letter or digit and after the last goes: a final colon or ellipsis, and as
// much enclosing brackets, asterisks and quotes ("[reserved]", "*unknown*", "(no strings)") and a trailing
// comma — an answer is a span of words and can never hold them, so a gold target that kept them could never
// be met. Runs of spaces (column headings) are one space.
export const label = (s: string) =>
  s
    .replace(/[&_](?=\p{L})/gu, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .replace(/\s+/gu, ' ')
    .toLocaleLowerCase();

export function splitGold(pairs: readonly Pair[]): { gold: Map<string, Set<string>>; train: Pair[] } {
  const gold = new Map<string, Set<string>>();
  const train: Pair[] = [];
  for (const p of pairs) {
    const words = wordTokens(p.source).norms.length;
    const source = label(p.source);
    // A label of words: not a placeholder or markup alone.
    if (words >= 1 && words <= 2 && /\p{L}{2}/u.test(source) && !/[%{<]/.test(p.source)) {
      let targets = gold.get(source);
      if (!targets) gold.set(source, (targets = new Set()));
      targets.add(label(p.target));
    } else train.push(p);
  }
  return { gold, train };
}

const rssMb = () => process.memoryUsage().rss / 2 ** 20;

export function runLexiconBench(options: {
  largeSize: number;
  seed: number;
  log: (line: string) => void;
}): LexiconBenchResult {
  const { log } = options;
  const pairs = readTmxPairs('en-de.tmx.gz', 'en', 'de');
  const { gold, train } = splitGold(pairs);
  log(`lexicon: ${gold.size} gold sources held out, training on ${train.length} pairs`);
  const before = rssMb();
  const aligner = new WordAligner();
  const figures = aligner.train(train);
  const trainRss = rssMb() - before;
  log(`lexicon: trained in ${(figures.ms / 1000).toFixed(1)} s, ${figures.parameters} parameters`);
  let seen = 0;
  let top1 = 0;
  let top3 = 0;
  const one = { n: 0, top1: 0 };
  const two = { n: 0, top1: 0 };
  const times: number[] = [];
  for (const [source, targets] of gold) {
    const started = performance.now();
    const answer = aligner.translations(source, { n: 3, stem: stemmerOf('de') });
    times.push(performance.now() - started);
    if (aligner.frequency(source, 1) === 0) continue;
    seen++;
    const forms = answer.map((t) => label(t.target));
    const first = forms[0] !== undefined && targets.has(forms[0]);
    if (first) top1++;
    if (forms.some((f) => targets.has(f))) top3++;
    const bucket = source.includes(' ') ? two : one;
    bucket.n++;
    if (first) bucket.top1++;
  }
  // The whole memory, as the server trains on it.
  const fullAligner = new WordAligner();
  const fullBefore = rssMb();
  const full = fullAligner.train(pairs);
  const fullRss = rssMb() - fullBefore;
  log(`lexicon: trained on the whole memory (${full.pairs} pairs) in ${(full.ms / 1000).toFixed(1)} s`);
  const result: LexiconBenchResult = {
    pairs: pairs.length,
    train_pairs: figures.pairs,
    gold_sources: gold.size,
    seen,
    top1: seen === 0 ? 0 : top1 / seen,
    top3: seen === 0 ? 0 : top3 / seen,
    one_word: { n: one.n, top1: one.n === 0 ? 0 : one.top1 / one.n },
    two_words: { n: two.n, top1: two.n === 0 ? 0 : two.top1 / two.n },
    train_ms: figures.ms,
    train_rss_mb: trainRss,
    parameters: figures.parameters,
    query_ms: percentiles(times),
    full: { pairs: full.pairs, train_ms: full.ms, train_rss_mb: fullRss, parameters: full.parameters },
  };
  if (options.largeSize > 0) {
    const corpus = buildCorpus(options.largeSize, options.seed);
    log(`lexicon: training on ${corpus.length} pairs`);
    const large = new WordAligner();
    const at = rssMb();
    const f = large.train(corpus);
    result.large = {
      pairs: f.pairs,
      train_ms: f.ms,
      train_rss_mb: rssMb() - at,
      parameters: f.parameters,
    };
  }
  return result;
}
