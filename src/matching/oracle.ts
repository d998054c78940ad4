// The test oracle: every entry scored by the plain definition, no index, no filter (docs/MATCHING.md §3).
import {
  checkSearch,
  compareMatches,
  type Match,
  publicMatch,
  type RankedMatch,
  ranked,
  type SearchOptions,
} from './ranking.ts';
import { prepareText, scorePrepared } from './score.ts';

export interface OracleEntry {
  id: number;
  source: string;
  updatedAt: number;
}

export function bruteForceSearch(
  entries: Iterable<OracleEntry>,
  query: string,
  opts: SearchOptions,
): Match[] {
  const threshold = checkSearch(query, opts);
  const q = prepareText(query);
  const found: RankedMatch[] = [];
  for (const e of entries) {
    const r = scorePrepared(q, prepareText(e.source));
    if (r.score >= threshold) found.push(ranked(e.id, e.updatedAt, r.score, r.penalties));
  }
  return found.sort(compareMatches).slice(0, opts.n).map(publicMatch);
}
