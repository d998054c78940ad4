// The benchmark memory: the real en-de TMX plus seeded synthetic variants of it, and labelled query sets.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { unescapeXml } from '../src/xml/xml-escape.ts';

export interface Pair {
  source: string;
  target: string;
}

/** The committed samples of the real memories (every 20th unit; test/fixtures/README.md). */
const SAMPLES_DIR = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');

/** The corpora the bench can be built from, by the name `--corpus` gives. */
export const CORPORA = {
  /**
   * The real memories in the folder TESSERA_BENCH_DATA names (en-de.tmx.gz, en-es.tmx.gz and en-ja.tmx.gz, a
   * few tens of thousands of units per pair: bench/README.md). What published figures are measured on.
   */
  real: 'the real memories in TESSERA_BENCH_DATA',
  /** The committed samples (every 20th unit of the same memories): figures from them do not compare. */
  samples: 'the committed samples in test/fixtures/corpus',
} as const;
export type CorpusName = keyof typeof CORPORA;

const CORPUS_FILES = ['en-de.tmx.gz', 'en-es.tmx.gz', 'en-ja.tmx.gz'];

let chosen: { name: CorpusName; dir: string } | undefined;

/**
 * Builds the bench on the named corpus, or refuses: a run that asked for the real memories and silently
 * measured the samples once reported figures of a different corpus (256 blank sources instead of 187).
 * Answers an error message, or null once the corpus is chosen.
 */
export function chooseCorpus(name: string): string | null {
  if (!Object.hasOwn(CORPORA, name)) {
    return `--corpus takes ${Object.keys(CORPORA).join(' or ')}; got "${name}"`;
  }
  let dir = SAMPLES_DIR;
  if (name === 'real') {
    const named = process.env.TESSERA_BENCH_DATA;
    if (!named) {
      return (
        'the bench is built on the real memories (--corpus real), and TESSERA_BENCH_DATA names no folder of ' +
        'them: set it to a folder holding en-de.tmx.gz, en-es.tmx.gz and en-ja.tmx.gz (bench/README.md), or ' +
        'run with --corpus samples for figures from the committed samples, which do not compare'
      );
    }
    dir = named;
  }
  const missing = CORPUS_FILES.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) return `the ${name} corpus lacks ${missing.join(', ')} in ${dir}`;
  chosen = { name: name as CorpusName, dir };
  return null;
}

/** The corpus chosen, or what a test run reads without choosing: the real memories when set, else the samples. */
export function corpusInUse(): { name: CorpusName; dir: string } {
  if (chosen) return chosen;
  const named = process.env.TESSERA_BENCH_DATA;
  return named ? { name: 'real', dir: named } : { name: 'samples', dir: SAMPLES_DIR };
}

let announced = false;

/** Says once, on stderr, which memories the corpus is made of: figures from the samples do not compare. */
function announceCorpus(): void {
  if (announced) return;
  announced = true;
  const { name, dir } = corpusInUse();
  console.error(`corpus: ${name}, ${CORPORA[name]}${name === 'real' ? ` (${dir})` : ''}`);
}

/**
 * The <seg> texts of a gzipped TMX file, by regex: enough for the bench's memories, which hold no inline
 * elements (the real reader, src/formats/tmx, is streaming and asynchronous; benchmarks want an array).
 */
export function readTmxPairs(file: string, srclang: string, trglang: string): Pair[] {
  announceCorpus();
  const xml = gunzipSync(readFileSync(join(corpusInUse().dir, file))).toString('utf8');
  const pairs: Pair[] = [];
  for (const tu of xml.matchAll(/<tu\b[^>]*>([\s\S]*?)<\/tu>/g)) {
    const segs = new Map<string, string>();
    for (const tuv of tu[1].matchAll(/<tuv xml:lang="([^"]+)"[^>]*>\s*<seg>([\s\S]*?)<\/seg>/g))
      segs.set(tuv[1].toLowerCase(), unescapeXml(tuv[2]));
    const source = segs.get(srclang);
    const target = segs.get(trglang);
    if (source !== undefined && target !== undefined) pairs.push({ source, target });
  }
  return pairs;
}

/** A small fast seeded PRNG (mulberry32): the same seed gives the same corpus on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, a: readonly T[]): T => a[Math.floor(rand() * a.length)];

/** Plain words of the sources, as often as they occur: substitutions draw from real word frequencies. */
function wordPool(pairs: readonly Pair[]): string[] {
  const words: string[] = [];
  for (const p of pairs)
    for (const w of p.source.split(' ')) if (/^[A-Za-z][a-z]{2,}$/.test(w)) words.push(w);
  return words;
}

function substitute(rand: () => number, text: string, words: readonly string[], count: number): string {
  const parts = text.split(' ');
  for (let i = 0; i < count; i++) parts[Math.floor(rand() * parts.length)] = pick(rand, words);
  return parts.join(' ');
}

function changeNumbers(rand: () => number, text: string): string {
  if (/\d/.test(text)) return text.replace(/\d+/g, () => String(Math.floor(rand() * 1000)));
  const parts = text.split(' ');
  parts.splice(Math.floor(rand() * (parts.length + 1)), 0, String(1 + Math.floor(rand() * 99)));
  return parts.join(' ');
}

function changeCase(rand: () => number, text: string): string {
  const r = rand();
  if (r < 0.2) return text.toUpperCase();
  if (r < 0.4) return text.toLowerCase();
  const parts = text.split(' ');
  const i = Math.floor(rand() * parts.length);
  const w = parts[i];
  parts[i] = w[0] === w[0]?.toUpperCase() ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1);
  return parts.join(' ');
}

/** The real en-de pairs, then synthetic variants of them up to `size`, deterministic for a seed. */
export function buildCorpus(size = 1_000_000, seed = 42): Pair[] {
  const real = readTmxPairs('en-de.tmx.gz', 'en', 'de');
  const corpus = real.slice(0, size);
  const words = wordPool(real);
  const rand = prng(seed);
  while (corpus.length < size) {
    const base = pick(rand, real);
    const op = rand();
    let source: string;
    let target = base.target;
    if (op < 0.3) source = substitute(rand, base.source, words, 1);
    else if (op < 0.45) source = substitute(rand, base.source, words, 2);
    else if (op < 0.6) source = changeNumbers(rand, base.source);
    else if (op < 0.7) source = changeCase(rand, base.source);
    else if (op < 0.8) {
      const parts = base.source.split(' ');
      if (parts.length > 1) parts.splice(Math.floor(rand() * parts.length), 1);
      source = parts.join(' ');
    } else if (op < 0.9) {
      const parts = base.source.split(' ');
      parts.splice(Math.floor(rand() * (parts.length + 1)), 0, pick(rand, words));
      source = parts.join(' ');
    } else {
      const other = pick(rand, real);
      source = `${base.source} ${other.source}`;
      target = `${base.target} ${other.target}`;
    }
    corpus.push({ source, target });
  }
  return corpus;
}

export const QUERY_CLASSES = [
  'exact',
  'edit1',
  'edit2',
  'case',
  'numbers',
  'unrelated',
  'short',
  'long',
  'cjk',
] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];

export interface LabelledQuery {
  cls: QueryClass;
  query: string;
}

/** `perClass` queries of each class, drawn from the corpus (and from en-ja for CJK), deterministic. */
export function buildQuerySet(corpus: readonly Pair[], seed = 7, perClass = 200): LabelledQuery[] {
  const rand = prng(seed);
  const words = wordPool(corpus.slice(0, 100_000));
  const sentences = corpus.filter((p) => p.source.split(' ').length >= 4);
  const withDigits = corpus.filter((p) => /\d/.test(p.source));
  const japanese = readTmxPairs('en-ja.tmx.gz', 'en', 'ja').map((p) => p.target);
  const make: Record<QueryClass, () => string> = {
    exact: () => pick(rand, corpus).source,
    edit1: () => substitute(rand, pick(rand, sentences).source, words, 1),
    edit2: () => substitute(rand, pick(rand, sentences).source, words, 2),
    case: () => changeCase(rand, pick(rand, corpus).source),
    numbers: () => changeNumbers(rand, pick(rand, withDigits).source),
    unrelated: () => Array.from({ length: 4 + Math.floor(rand() * 10) }, () => pick(rand, words)).join(' '),
    short: () => {
      const parts = pick(rand, corpus).source.split(' ');
      const n = 1 + Math.floor(rand() * 3);
      const at = Math.floor(rand() * Math.max(1, parts.length - n + 1));
      return parts.slice(at, at + n).join(' ');
    },
    long: () => {
      let text = pick(rand, corpus).source;
      while (text.split(' ').length < 40) text += ` ${pick(rand, sentences).source}`;
      return text.slice(0, 5000);
    },
    cjk: () => pick(rand, japanese),
  };
  const queries: LabelledQuery[] = [];
  for (const cls of QUERY_CLASSES)
    for (let i = 0; i < perClass; i++) queries.push({ cls, query: make[cls]() });
  return queries;
}

/**
 * The sources of a document to pre-translate or analyse against the corpus's memory: queries of every
 * class in a deterministic order, a quarter of the segments repeating an earlier one (as documents do).
 */
export function buildDocument(corpus: readonly Pair[], seed: number, segments: number): string[] {
  const rand = prng(seed);
  const pool = buildQuerySet(corpus, seed, Math.ceil(segments / QUERY_CLASSES.length)).map((q) => q.query);
  const out: string[] = [];
  let next = 0;
  while (out.length < segments) {
    if (out.length > 0 && rand() < 0.25) out.push(out[Math.floor(rand() * out.length)]);
    else out.push(pool[Math.floor(rand() * pool.length)] ?? pool[next++ % pool.length]);
  }
  return out;
}
