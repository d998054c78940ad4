// Term recognition (issue 28): an index of 100,000 English terms built from the real en-de memory's own phrases,
// and the terms of every source segment of that memory found with it, one segment at a time as the editor
// does. Build time, heap held by the index, and recognition time per segment.
import { buildGlossary, type TermRecord } from '../src/terminology/glossary.ts';
import { buildTermIndex, type IndexedTerm } from '../src/terminology/term-index.ts';
import { checkTerms } from '../src/terminology/term-qa.ts';
import { prng, readTmxPairs } from './corpus.ts';
import type { Percentiles } from './engine-bench.ts';
import { percentiles } from './table.ts';

export interface TermsBenchOptions {
  /** How many terms the index holds. */
  terms?: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface TermsBenchResult {
  terms: number;
  /** Of them: one-, two- and three-word terms, and those that are case-sensitive. */
  by_words: [number, number, number];
  case_sensitive: number;
  build_ms: number;
  /**
   * Memory the index holds after a GC, heap and array buffers (null when no GC can be asked for), and what its
   * arrays and keys add up to by its own count.
   */
  heap_mb: number | null;
  index_mb: number;
  segments: number;
  /** Recognition time per segment (leftmost-longest), in ms. */
  find: Percentiles;
  /** The same with every occurrence, overlaps included (what term QA asks of a target). */
  find_overlapping: Percentiles;
  /** Segments with at least one term, and terms found in all. */
  segments_with_terms: number;
  matches: number;
  /**
   * Term QA of each pair (checkTerms: the source recognized, the German target scanned for every occurrence),
   * with a glossary of the same English terms each paired with a German phrase of the targets, in ms.
   */
  qa: Percentiles;
  qa_issues: number;
  /** The en-de glossary of those 2 × terms records: its build, and the memory it holds after a GC (with the records). */
  glossary_build_ms: number;
  glossary_mb: number | null;
}

/** Words of a source as a phrase's parts: letters only (a term is made of words, not of placeholders). */
function wordsOf(text: string): string[] {
  return text.split(/[\s,.;:!?()"“”]+/).filter((w) => /^[A-Za-z][A-Za-z'-]*[A-Za-z]$/.test(w));
}

/**
 * `count` distinct terms, deterministic for a seed: real one-, two- and three-word phrases of the sources (a
 * fifth, two fifths and two fifths of them), and where the memory holds too few, phrases of its words drawn by
 * their frequency. One term in a hundred is case-sensitive, written as it occurs.
 */
export function termsFromSources(sources: readonly string[], count: number, seed: number): IndexedTerm[] {
  const rand = prng(seed);
  const phrases: [Set<string>, Set<string>, Set<string>] = [new Set(), new Set(), new Set()];
  const pool: string[] = [];
  for (const source of sources) {
    const words = wordsOf(source);
    pool.push(...words);
    for (let i = 0; i < words.length; i++) {
      for (let n = 1; n <= 3 && i + n <= words.length; n++)
        phrases[n - 1].add(words.slice(i, i + n).join(' '));
    }
  }
  const shuffled = phrases.map((set) => {
    const list = [...set];
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  });
  const wanted = [Math.round(count * 0.2), Math.round(count * 0.4), 0];
  wanted[2] = count - wanted[0] - wanted[1];
  const seen = new Set<string>();
  const terms: IndexedTerm[] = [];
  const take = (text: string) => {
    const key = text.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    terms.push({ termId: terms.length + 1, text, caseSensitive: rand() < 0.01 });
    return true;
  };
  for (let n = 0; n < 3; n++) {
    let taken = 0;
    for (const phrase of shuffled[n]) {
      if (taken >= wanted[n]) break;
      if (take(phrase)) taken++;
    }
    for (let tries = 0; n > 0 && taken < wanted[n] && tries < wanted[n] * 20; tries++) {
      const words = Array.from({ length: n + 1 }, () => pool[Math.floor(rand() * pool.length)]);
      if (take(words.join(' '))) taken++;
    }
    // A memory has only so many distinct words: the one-word terms it lacks are two-word ones.
    if (n === 0) wanted[1] += wanted[0] - taken;
  }
  return terms;
}

export function runTermsBench(options: TermsBenchOptions = {}): TermsBenchResult {
  const count = options.terms ?? 100_000;
  const seed = options.seed ?? 42;
  const log = options.log ?? (() => {});
  // Read here, not when the module loads: bench/run.ts sets it up after its imports.
  const gc = (globalThis as { gc?: () => void }).gc;
  const pairs = readTmxPairs('en-de.tmx.gz', 'en', 'de');
  const sources = pairs.map((p) => p.source);
  const terms = termsFromSources(sources, count, seed);
  const byWords: [number, number, number] = [0, 0, 0];
  for (const t of terms) byWords[Math.min(2, t.text.split(' ').length - 1)]++;
  log(`terms: ${terms.length} terms from ${sources.length} sources; building the index`);

  // The index's tables are typed arrays, outside the JavaScript heap: both are counted.
  const held = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  gc?.();
  const heapBefore = held();
  const started = performance.now();
  const index = buildTermIndex('en', terms);
  const buildMs = performance.now() - started;
  gc?.();
  const heapMb = gc ? (held() - heapBefore) / 1e6 : null;

  // A first pass warms the JIT and the tokenizer's cache of stems, as an editor open on a document has.
  for (const source of sources.slice(0, 2000)) index.find(source);
  const times: number[] = [];
  const overlapping: number[] = [];
  let withTerms = 0;
  let matches = 0;
  for (const source of sources) {
    let t = performance.now();
    const found = index.find(source);
    times.push(performance.now() - t);
    t = performance.now();
    index.find(source, { overlapping: true });
    overlapping.push(performance.now() - t);
    if (found.length > 0) withTerms++;
    matches += found.length;
  }
  const max = (list: number[]) => list.reduce((a, b) => Math.max(a, b), 0);

  // Term QA: German phrases of the targets as the concepts' translations (the pairing is arbitrary: what is
  // timed is recognition on both sides with German stemming, the checks and their messages), one in ten
  // forbidden, so that the target scan finds terms of every status.
  const germanTerms = termsFromSources(
    pairs.map((p) => p.target),
    terms.length,
    seed + 1,
  );
  const records: TermRecord[] = [];
  terms.forEach((t, i) => {
    records.push({
      conceptId: i,
      termId: 2 * i,
      lang: 'en',
      text: t.text,
      status: 'preferred',
      caseSensitive: Boolean(t.caseSensitive),
    });
    const de = germanTerms[i];
    if (de) {
      const status = i % 10 === 0 ? 'forbidden' : 'preferred';
      records.push({
        conceptId: i,
        termId: 2 * i + 1,
        lang: 'de',
        text: de.text,
        status,
        caseSensitive: false,
      });
    }
  });
  gc?.();
  const glossaryBefore = held();
  const glossaryStarted = performance.now();
  const glossary = buildGlossary(records, 'en', 'de');
  const glossaryBuildMs = performance.now() - glossaryStarted;
  records.length = 0;
  gc?.();
  const glossaryMb = gc ? (held() - glossaryBefore) / 1e6 : null;
  for (const p of pairs.slice(0, 2000)) checkTerms(glossary, p.source, p.target);
  const qaTimes: number[] = [];
  let qaIssues = 0;
  for (const p of pairs) {
    const t = performance.now();
    qaIssues += checkTerms(glossary, p.source, p.target).length;
    qaTimes.push(performance.now() - t);
  }
  const result: TermsBenchResult = {
    terms: index.size,
    by_words: byWords,
    case_sensitive: terms.filter((t) => t.caseSensitive).length,
    build_ms: buildMs,
    heap_mb: heapMb,
    index_mb: index.memoryBytes() / 1e6,
    segments: sources.length,
    find: { ...percentiles(times), max: max(times) },
    find_overlapping: { ...percentiles(overlapping), max: max(overlapping) },
    segments_with_terms: withTerms,
    matches,
    qa: { ...percentiles(qaTimes), max: max(qaTimes) },
    qa_issues: qaIssues,
    glossary_build_ms: glossaryBuildMs,
    glossary_mb: glossaryMb,
  };
  log(
    `terms: built in ${buildMs.toFixed(0)} ms; find p50 ${result.find.p50.toFixed(4)} ms, p99 ${result.find.p99.toFixed(4)} ms`,
  );
  return result;
}
