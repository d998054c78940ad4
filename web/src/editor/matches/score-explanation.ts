// Why a match scores what it does: the words that differ (the base score, docs/MATCHING.md §2) and the server's
// penalties, as chips whose points add up to 100 − score.
import { explainBase } from '@server/matching/score-explanation.ts';
import type { MemoryMatch } from '../../api/types.ts';
import { plural } from '../../ui/format.ts';

export interface ScoreChip {
  kind: string;
  points: number;
  /** What the chip says on hover. */
  title: string;
}

const PENALTY_TITLES: Record<string, string> = {
  case: 'a word differs only in case',
  number: 'a number differs',
  punctuation: 'punctuation differs',
  tags: 'inline tags differ',
  placeholder: 'another placeholder (%s, {0}…) in its place',
  whitespace: 'only whitespace differs',
};

export function explainScore(
  source: string,
  match: Pick<MemoryMatch, 'source' | 'score' | 'metadata'>,
): ScoreChip[] {
  if (match.score === 100) return [];
  const chips: ScoreChip[] = [];
  const { distance, length, points } = explainBase(source, match.source);
  if (points > 0)
    chips.push({
      kind: 'words',
      points,
      title: `${distance} of ${plural(length, 'word')} ${distance === 1 ? 'differs' : 'differ'}`,
    });
  for (const p of match.metadata.penalties) {
    chips.push({ kind: p.kind, points: p.points, title: PENALTY_TITLES[p.kind] ?? p.kind });
  }
  // Only a score clamped below 100 for strings the tokens cannot tell apart leaves a remainder.
  const rest = 100 - match.score - chips.reduce((sum, chip) => sum + chip.points, 0);
  if (rest !== 0) chips.push({ kind: 'other', points: rest, title: 'not identical: at most 99' });
  return chips;
}
