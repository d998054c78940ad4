// The fuzzy-match score of a query against a stored source (docs/MATCHING.md §2): word-level base, capped penalties.
// What must change with it: the index's filters never compute this score before they drop a candidate; they
// rely on score ≤ flooredBase(max(L, Lc), d) (penalties never negative, docs/MATCHING-FILTERS.md), on a
// punctuation or tag penalty of at least min(the difference in those tokens' numbers, its cap) (§5a there,
// shapePenalty in candidate-bounds.ts), and on 99 at most for texts not identical after NFC (the exact path
// has 100). A score that can exceed any of these must change the filters with it, or matches are lost
// (memory-index.lossless.test.ts and pair-filter.test.ts compare against the oracle). The tokens it aligns
// come from tokenize.ts: a change there changes saved index files (INDEX_FORMAT, index-file.ts).
import { align, alignWithin, boundedDistance } from './levenshtein.ts';
import { PH, SPAN_PUNCT, SPAN_TAG, scanSpans, scanTokens, type Token } from './tokenize.ts';

export type PenaltyKind = 'case' | 'number' | 'placeholder' | 'punctuation' | 'tags' | 'whitespace';

export interface Penalty {
  kind: PenaltyKind;
  points: number;
}

export interface ScoreResult {
  /** 0–100; 100 only for strings identical after NFC. */
  score: number;
  /** 100 × (1 − d / max(|A|, |B|)) before flooring and penalties. */
  base: number;
  /** Non-zero penalties, in the order of the table in docs/MATCHING.md. */
  penalties: Penalty[];
}

/** A text tokenized once, to be scored against many others. */
export interface PreparedText {
  nfc: string;
  tokens: Token[];
  /** Norms of the words and numbers, and PH for each placeholder: the sequence the base score aligns. */
  content: string[];
  /** Index in `tokens` of each content token. */
  contentAt: number[];
  punct: string[];
  tags: string[];
}

/** The most points each kind of penalty takes (docs/MATCHING.md §2). */
export const PENALTY_CAP = {
  case: 3,
  number: 6,
  placeholder: 6,
  punctuation: 4,
  tags: 4,
  whitespace: 1,
} as const;

export function prepareText(text: string): PreparedText {
  return prepareNfc(text.normalize('NFC'));
}

/**
 * prepareText of a text already in NFC (an indexed source: the index stores them so), in one pass over its
 * tokens: a retrieval prepares every candidate it scores, and normalizing twice (here and in tokenize) and
 * sorting the tokens in a second loop were a fifth of that cost for a short one.
 */
export function prepareNfc(nfc: string): PreparedText {
  const tokens: Token[] = [];
  const content: string[] = [];
  const contentAt: number[] = [];
  const punct: string[] = [];
  const tags: string[] = [];
  scanTokens(nfc, (type, norm, real, start, end) => {
    if (type === 'word' || type === 'number' || type === 'placeholder') {
      content.push(type === 'placeholder' ? PH : norm);
      contentAt.push(tokens.length);
    } else if (type === 'punct') punct.push(norm);
    else tags.push(norm);
    tokens.push({ type, norm, real, start, end });
  });
  return { nfc, tokens, content, contentAt, punct, tags };
}

/** What the punctuation and tag penalties read of a text: its punctuation and its tags, in order. */
export type TextShape = Pick<PreparedText, 'punct' | 'tags'>;

/**
 * The punctuation and tags of a text already in NFC, without the rest of prepareNfc: no string for a word,
 * no token object. Retrieval drops most long near misses on these alone, and preparing a long candidate whole
 * cost it two to three times this scan (a 1,800-character text: 37–59 µs against 13–16).
 */
export function prepareShape(nfc: string): TextShape {
  const punct: string[] = [];
  const tags: string[] = [];
  scanSpans(nfc, (kind, start, end, _flags, norm) => {
    if (kind === SPAN_PUNCT) punct.push(nfc.slice(start, end));
    else if (kind === SPAN_TAG) tags.push(norm);
  });
  return { punct, tags };
}

export function scoreMatch(query: string, candidate: string): ScoreResult {
  return scorePrepared(prepareText(query), prepareText(candidate));
}

/** The score by the plain definition: full Levenshtein matrix, alignment from its backtrace. */
export function scorePrepared(q: PreparedText, c: PreparedText): ScoreResult {
  if (q.nfc === c.nfc) return { score: 100, base: 100, penalties: [] };
  if (q.content.length === 0 && c.content.length === 0) {
    const a = codePoints(q.nfc);
    const b = codePoints(c.nfc);
    const max = Math.max(a.length, b.length);
    return finish(q, c, max, align(a, b).distance, []);
  }
  const { distance, matches } = align(q.content, c.content);
  return finish(q, c, Math.max(q.content.length, c.content.length), distance, matches);
}

/**
 * scorePrepared(q, c) when the content distance is known to be at most k (q or c having content): the
 * alignment then comes from the diagonals within k edits alone (alignWithin), which is what makes verifying
 * a long candidate cheap. Retrieval calls it after its own bounded distance.
 */
export function scoreWithin(q: PreparedText, c: PreparedText, k: number): ScoreResult {
  if (q.nfc === c.nfc) return { score: 100, base: 100, penalties: [] };
  const { distance, matches } = alignWithin(q.content, c.content, k);
  return finish(q, c, Math.max(q.content.length, c.content.length), distance, matches);
}

/**
 * The same score when it reaches `threshold`, else null, computed cheaply for most candidates that miss:
 * the base can only fall below the threshold when the distance exceeds a bound, which a banded
 * Levenshtein with early exit decides without the full matrix. Only survivors pay for the alignment.
 */
export function scoreAtLeast(q: PreparedText, c: PreparedText, threshold: number): ScoreResult | null {
  if (q.nfc === c.nfc) return { score: 100, base: 100, penalties: [] };
  // Anything not identical scores at most 99.
  if (threshold > 99) return null;
  const charLevel = q.content.length === 0 && c.content.length === 0;
  const a: ArrayLike<string | number> = charLevel ? codePoints(q.nfc) : q.content;
  const b: ArrayLike<string | number> = charLevel ? codePoints(c.nfc) : c.content;
  const k = maxDistance(Math.max(a.length, b.length), threshold);
  const d = boundedDistance(a, 0, a.length, b, 0, b.length, k);
  if (d > k) return null;
  const result = charLevel ? scorePrepared(q, c) : scoreWithin(q, c, d);
  return result.score >= threshold ? result : null;
}

/** The largest token distance d with floor(100 × (max − d) / max) ≥ threshold. */
export function maxDistance(max: number, threshold: number): number {
  return Math.floor((max * (100 - threshold)) / 100);
}

/** floor(100 × (max − d) / max) in integers (the float division is exact enough: see below). */
export function flooredBase(max: number, d: number): number {
  // 100·(max − d) and max are small integers, and a correctly rounded quotient of two such integers never
  // crosses an integer boundary, so Math.floor of it is the exact integer floor.
  return max === 0 ? 100 : Math.floor((100 * (max - d)) / max);
}

function finish(q: PreparedText, c: PreparedText, max: number, d: number, matches: number[]): ScoreResult {
  const base = max === 0 ? 100 : (100 * (max - d)) / max;
  let caseDiffs = 0;
  let numberDiffs = 0;
  let placeholderDiffs = 0;
  for (let k = 0; k < matches.length; k += 2) {
    const x = q.tokens[q.contentAt[matches[k]]];
    const y = c.tokens[c.contentAt[matches[k + 1]]];
    // Placeholders compare by key: one spelled another way (`{{ n }}`, `<ph id="2">{{n}}</ph>`) is the same
    // placeholder, and no penalty names it (the score stays below 100 because the texts differ).
    if (x.type === 'placeholder') {
      if (x.norm !== y.norm) placeholderDiffs++;
    } else if (x.real === y.real) continue;
    else if (x.type === 'number') numberDiffs++;
    else caseDiffs++;
  }
  const penalties: Penalty[] = [];
  addPenalty(penalties, 'case', caseDiffs);
  addPenalty(penalties, 'number', 2 * numberDiffs);
  addPenalty(penalties, 'placeholder', 2 * placeholderDiffs);
  addPenalty(penalties, 'punctuation', cappedDistance(q.punct, c.punct, PENALTY_CAP.punctuation));
  addPenalty(penalties, 'tags', cappedDistance(q.tags, c.tags, PENALTY_CAP.tags));
  addPenalty(penalties, 'whitespace', onlyWhitespaceDiffers(q, c) ? 1 : 0);
  let score = flooredBase(max, d);
  for (const p of penalties) score -= p.points;
  return { score: Math.max(0, Math.min(99, score)), base, penalties };
}

/**
 * The points of the punctuation and tag penalties of c against q, as finish charges them: each a capped
 * distance over a few tokens, cheap beside the content alignment. Retrieval takes them off the bound of a
 * candidate before aligning it (a long query against candidates that miss by their punctuation alone).
 */
export function punctuationAndTagPoints(q: TextShape, c: TextShape): number {
  return (
    cappedDistance(q.punct, c.punct, PENALTY_CAP.punctuation) +
    cappedDistance(q.tags, c.tags, PENALTY_CAP.tags)
  );
}

function addPenalty(penalties: Penalty[], kind: PenaltyKind, points: number): void {
  if (points > 0) penalties.push({ kind, points: Math.min(points, PENALTY_CAP[kind]) });
}

/** min(Levenshtein distance, cap): the banded distance is exact up to its bound. */
function cappedDistance(a: string[], b: string[], cap: number): number {
  return Math.min(boundedDistance(a, 0, a.length, b, 0, b.length, cap), cap);
}

/**
 * Whitespace is a token separator, so "differs only in whitespace" means: the same tokens, character for
 * character, with different whitespace between, before or after them (the NFC strings being different).
 */
function onlyWhitespaceDiffers(q: PreparedText, c: PreparedText): boolean {
  if (q.tokens.length !== c.tokens.length) return false;
  for (let i = 0; i < q.tokens.length; i++) {
    const x = q.tokens[i];
    const y = c.tokens[i];
    if (x.end - x.start !== y.end - y.start) return false;
    if (!q.nfc.startsWith(c.nfc.slice(y.start, y.end), x.start)) return false;
  }
  return true;
}

/** The code points of a string: what the character-level base aligns, and the wordless search counts. */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i)!;
    out.push(cp);
    if (cp > 0xffff) i++;
  }
  return out;
}
