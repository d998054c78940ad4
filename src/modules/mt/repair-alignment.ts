// The second way a fuzzy-match repair (repair.ts) finds where a difference sits in the match's target: the
// memory's own word alignments. The MT of the match's differing words locates the span only when the
// translator wrote what the engine writes ("dog" is "perro" to the engine; the memory says "can"); the
// memory's learned lexicon (src/terminology/word-alignment.ts, trained per memory in a worker) knows how
// the memory renders each of the match's words.
//
// The match's source and target are aligned word by word from those learned translations by competitive
// linking (Melamed 2000): every (source word, target words) pair where a learned translation of the source
// word occurs in the target — its words equal or of one stem — is a candidate link weighed by the
// translation's share; the best links are taken first, each word linked once, a tie going to the link
// nearer the diagonal. A source phrase then projects onto the target span its words are linked to when
// that span is consistent (Och and Ney 2004's phrase extraction: no word inside it is linked to a source
// word outside the phrase) and the phrase's first and last words are both linked — the anchors that make
// the patch anchored. Pure: the learned translations come in as a map, so the bench and the tests give
// their own.
import type { Stemmer } from '../../terminology/stemmers.ts';
import { type Tokens, wordTokens } from '../../terminology/word-alignment.ts';

/** A learned translation of a source word, as the lexicon answers it: the target words and their share. */
export interface LearnedTranslation {
  target: string;
  share: number;
}

/** The learned translations of source words (lower-cased, as wordTokens has them), best first. */
export type LearnedTranslations = ReadonlyMap<string, readonly LearnedTranslation[]>;

/** A match's source and target aligned word by word. */
export interface PairAlignment {
  source: Tokens;
  target: Tokens;
  /** Per source word, the first and last target word it is linked to; null when unlinked. */
  links: ([number, number] | null)[];
  /** Per target word, the source word linked to it, or -1. */
  linkedFrom: Int32Array;
}

/** A learned translation weighs less than this share is not a link: it is the lexicon's noise. */
const MIN_SHARE = 0.1;
/** A word written the same on both sides (a name, a number, "error") links with this weight. */
const SAME_WORD = 0.5;

/** The distinct words of a match's source: what the lexicon is asked about. */
export function wordsToLearn(matchSource: string): string[] {
  return [...new Set(wordTokens(matchSource).norms)];
}

/** Aligns a match's source and target (the NFC texts the repair's offsets point into). */
export function alignPair(
  source: string,
  target: string,
  learned: LearnedTranslations,
  stem?: Stemmer,
): PairAlignment {
  const s = wordTokens(source);
  const t = wordTokens(target);
  const ns = s.norms.length;
  const nt = t.norms.length;
  const tStems = t.norms.map((w) => (stem ? stem(w) : w));
  const same = (b: number, word: string) =>
    t.norms[b] === word || (stem !== undefined && tStems[b] === stem(word));
  const candidates: { a: number; b0: number; b1: number; score: number; distance: number }[] = [];
  const add = (a: number, b0: number, b1: number, score: number) => {
    // Distance to the diagonal, of the span's middle: what breaks a tie between two "la" of one target.
    const distance = Math.abs((a + 0.5) / ns - ((b0 + b1) / 2 + 0.5) / nt);
    candidates.push({ a, b0, b1, score, distance });
  };
  for (let a = 0; a < ns; a++) {
    const word = s.norms[a];
    for (const translation of learned.get(word) ?? []) {
      if (translation.share < MIN_SHARE) continue;
      const words = wordTokens(translation.target).norms;
      if (words.length === 0) continue;
      for (let b = 0; b + words.length <= nt; b++) {
        let k = 0;
        while (k < words.length && same(b + k, words[k])) k++;
        if (k === words.length) add(a, b, b + words.length - 1, translation.share);
      }
    }
    // Only a number or a word of four letters or more: "a", "no", "con" are words of both languages.
    if (/\d/u.test(word) || word.length >= 4) {
      for (let b = 0; b < nt; b++) if (t.norms[b] === word) add(a, b, b, SAME_WORD);
    }
  }
  candidates.sort((x, y) => y.score - x.score || x.distance - y.distance);
  const links: ([number, number] | null)[] = new Array(ns).fill(null);
  const linkedFrom = new Int32Array(nt).fill(-1);
  for (const c of candidates) {
    if (links[c.a] !== null) continue;
    let free = true;
    for (let b = c.b0; b <= c.b1 && free; b++) free = linkedFrom[b] < 0;
    if (!free) continue;
    links[c.a] = [c.b0, c.b1];
    for (let b = c.b0; b <= c.b1; b++) linkedFrom[b] = c.a;
  }
  return { source: s, target: t, links, linkedFrom };
}

/**
 * The target span (UTF-16 offsets) the source words within [start, end) of the source are linked to, or null:
 * when the phrase does not begin and end with a word, when its first or last word is unlinked (nothing
 * anchors the span), when a word inside the span
 * is linked to a source word outside the phrase (inconsistent), or when the span is more than twice the
 * phrase's words and two more (a link gone astray).
 */
export function projectSpan(
  alignment: PairAlignment,
  start: number,
  end: number,
): { start: number; end: number } | null {
  const { source, target, links, linkedFrom } = alignment;
  let first = -1;
  let last = -1;
  for (let a = 0; a < source.norms.length; a++) {
    if (source.starts[a] < start || source.ends[a] > end) continue;
    if (first < 0) first = a;
    last = a;
  }
  // The phrase's edges are words the alignment knows (not a placeholder, which it does not align).
  if (first < 0 || source.starts[first] !== start || source.ends[last] !== end) return null;
  if (links[first] === null || links[last] === null) return null;
  let lo = Number.MAX_SAFE_INTEGER;
  let hi = -1;
  for (let a = first; a <= last; a++) {
    const link = links[a];
    if (!link) continue;
    lo = Math.min(lo, link[0]);
    hi = Math.max(hi, link[1]);
  }
  for (let b = lo; b <= hi; b++) {
    const from = linkedFrom[b];
    if (from >= 0 && (from < first || from > last)) return null;
  }
  if (hi - lo + 1 > 2 * (last - first + 1) + 2) return null;
  return { start: target.starts[lo], end: target.ends[hi] };
}
