// Match results and their order (docs/MATCHING.md §2): score, then fewer penalty points, then newest, then id.
import type { Penalty } from './score.ts';
import { EXACT_SCORE, MIN_SCORE } from './score-bands.ts';

export interface Match {
  id: number;
  score: number;
  penalties: Penalty[];
  matchType: 'exact' | 'fuzzy';
}

/** A match with what ranking needs beside it. */
export interface RankedMatch extends Match {
  points: number;
  updatedAt: number;
}

export interface SearchOptions {
  /** Lowest score returned, MIN_SCORE–EXACT_SCORE (default MIN_SCORE). */
  threshold?: number;
  /** Most matches returned (a positive integer). */
  n: number;
}

/** Longest query accepted, in UTF-16 code units (the API's limit on a segment's source). */
export const MAX_QUERY_LENGTH = 5000;

/** Checks a search's arguments; returns the threshold to use. */
export function checkSearch(query: string, opts: SearchOptions): number {
  const threshold = opts.threshold ?? MIN_SCORE;
  if (!Number.isInteger(threshold) || threshold < MIN_SCORE || threshold > EXACT_SCORE)
    throw new RangeError(
      `threshold must be an integer from ${MIN_SCORE} to ${EXACT_SCORE}, got ${threshold}`,
    );
  if (!Number.isInteger(opts.n) || opts.n < 1)
    throw new RangeError(`n must be a positive integer, got ${opts.n}`);
  if (query.length > MAX_QUERY_LENGTH)
    throw new RangeError(`query is ${query.length} characters long; the limit is ${MAX_QUERY_LENGTH}`);
  return threshold;
}

export function ranked(id: number, updatedAt: number, score: number, penalties: Penalty[]): RankedMatch {
  let points = 0;
  for (const p of penalties) points += p.points;
  return { id, score, penalties, matchType: score === 100 ? 'exact' : 'fuzzy', points, updatedAt };
}

/** Negative when a ranks before b. Ids are unique, so the order is total. */
export function compareMatches(a: RankedMatch, b: RankedMatch): number {
  return b.score - a.score || a.points - b.points || b.updatedAt - a.updatedAt || a.id - b.id;
}

export function publicMatch(m: RankedMatch): Match {
  return { id: m.id, score: m.score, penalties: m.penalties, matchType: m.matchType };
}

/** The n best matches seen so far: a binary heap with the worst of them at the root. */
export class TopN {
  private readonly heap: RankedMatch[] = [];

  constructor(readonly n: number) {}

  get full(): boolean {
    return this.heap.length >= this.n;
  }

  /** The match a newcomer has to beat once the heap is full. */
  get worst(): RankedMatch | undefined {
    return this.heap[0];
  }

  offer(m: RankedMatch): void {
    const h = this.heap;
    if (h.length < this.n) {
      h.push(m);
      this.up(h.length - 1);
    } else if (compareMatches(m, h[0]) < 0) {
      h[0] = m;
      this.down(0);
    }
  }

  /** Best first. */
  sorted(): Match[] {
    return [...this.heap].sort(compareMatches).map(publicMatch);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compareMatches(h[i], h[parent]) <= 0) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && compareMatches(h[l], h[worst]) > 0) worst = l;
      if (r < h.length && compareMatches(h[r], h[worst]) > 0) worst = r;
      if (worst === i) return;
      [h[i], h[worst]] = [h[worst], h[i]];
      i = worst;
    }
  }
}

/** The lowest score a candidate may have and still enter the top n: the n-th best once there are n. */
export function workingThreshold(top: TopN, threshold: number): number {
  return top.full ? Math.max(threshold, top.worst!.score) : threshold;
}

/** Whether a match would enter the top n (compareMatches against its worst, without building it). */
export function ranksBeforeWorst(
  top: TopN,
  score: number,
  points: number,
  updatedAt: number,
  id: number,
): boolean {
  const w = top.worst;
  if (!top.full || !w) return true;
  return (w.score - score || points - w.points || w.updatedAt - updatedAt || id - w.id) < 0;
}

/** Whether a candidate scoring at most `best` could rank before the current n-th match. */
export function mayBeat(top: TopN, best: number, updatedAt: number, id: number): boolean {
  const w = top.worst;
  if (!top.full || !w) return true;
  if (best !== w.score) return best > w.score;
  // Equal scores: penalties are never negative, so a worst match without any wins on recency and id alone.
  return w.points > 0 || updatedAt > w.updatedAt || (updatedAt === w.updatedAt && id < w.id);
}

/** A match the memory found for a segment, with whether it was stored in the segment's context (§2.6). */
export interface Candidate extends RankedMatch {
  context: boolean;
}

/**
 * Why the first of a ranked list ranks first, against the one after it (docs/MATCHING.md §2.4): the only
 * match; a context match; a higher score; fewer penalty points; the most recently changed entry; or, changed
 * in the same second, the one stored first.
 */
export type RankReason = 'only' | 'context' | 'score' | 'penalties' | 'newest' | 'first_stored';

export const RANK_REASONS: readonly RankReason[] = [
  'only',
  'context',
  'score',
  'penalties',
  'newest',
  'first_stored',
];

export interface Ranking<T extends Candidate> {
  /** Best first: context matches, then compareMatches. */
  ordered: T[];
  /** Why ordered[0] ranks first; null for an empty list. */
  reason: RankReason | null;
  /** How many candidates stand as high as the first but for recency: the "of N translations". */
  tied: number;
}

/**
 * The one ranking of a segment's matches, which the query (the editor's match panel) and pre-translation
 * both take their first from: context matches before the rest, then score, fewer penalty points, newest,
 * lower id. A candidate found twice (in context and by the index) counts once, as a context match.
 */
export function rankCandidates<T extends Candidate>(candidates: readonly T[]): Ranking<T> {
  const byId = new Map<number, T>();
  for (const c of candidates) {
    const seen = byId.get(c.id);
    if (!seen || (c.context && !seen.context)) byId.set(c.id, c);
  }
  const ordered = [...byId.values()].sort(
    (a, b) => Number(b.context) - Number(a.context) || compareMatches(a, b),
  );
  const [first, second] = ordered;
  if (!first) return { ordered, reason: null, tied: 0 };
  const standsWith = (c: T) =>
    c.context === first.context && c.score === first.score && c.points === first.points;
  const tied = ordered.filter(standsWith).length;
  let reason: RankReason;
  if (!second) reason = 'only';
  else if (first.context !== second.context) reason = 'context';
  else if (first.score !== second.score) reason = 'score';
  else if (first.points !== second.points) reason = 'penalties';
  else if (first.updatedAt !== second.updatedAt) reason = 'newest';
  else reason = 'first_stored';
  return { ordered, reason, tied };
}
