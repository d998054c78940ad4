// Context (101 %) matches: exact matches whose stored context — the neighbouring segments, a key or msgctxt —
// equals the segment's. The server flags them (a match's `metadata.context_match`, a segment's `context_match`;
// docs/API.md) and keeps their score at 100; people see them as 101 %, as in memoQ and Trados.
import { CONTEXT_SCORE, EXACT_SCORE, type ScoreBand, scoreBand } from '@server/matching/score-bands.ts';
import type { DocumentSegment, MemoryMatch } from '../../api/types.ts';

/** What the server says; absent (a server without context matches) reads as false. */
export function isContextMatch(match: Pick<MemoryMatch, 'metadata'>): boolean {
  return (match.metadata as { context_match?: boolean }).context_match === true;
}

/** Whether a segment's pre-translation came from a context match. */
export function filledFromContext(segment: DocumentSegment): boolean {
  return (segment as { context_match?: boolean }).context_match === true;
}

/** The score people read: 101 for a context match, else the server's. */
export function shownScore(score: number, context: boolean): number {
  return context && score === EXACT_SCORE ? CONTEXT_SCORE : score;
}

type RankedFirst = { reason: string; of: number } | null;

/**
 * Why a match ranks first, in words (docs/MATCHING.md §2.4): the server's `metadata.ranked_first`. Nothing for
 * the only match, or one that is simply the best score.
 */
export function rankedFirstText(match: Pick<MemoryMatch, 'metadata'>): string | null {
  const why = (match.metadata as { ranked_first?: RankedFirst }).ranked_first;
  if (!why) return null;
  const of = why.of > 1 ? ` of ${why.of} translations` : '';
  switch (why.reason) {
    case 'context':
      return 'Ranks first: context match';
    case 'penalties':
      return 'Ranks first: fewer points off';
    case 'newest':
      return `Ranks first: newest${of}`;
    case 'first_stored':
      return `Ranks first: stored first${of} (same time)`;
    default:
      return null;
  }
}

/** The class a shown score is coloured by: in-context, or its band of score-bands.ts (exact, fuzzy95…). */
export function scoreClass(shown: number): 'in-context' | ScoreBand {
  return shown > EXACT_SCORE ? 'in-context' : scoreBand(shown);
}
