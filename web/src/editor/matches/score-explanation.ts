// Why a match scores what it does: the words that differ (the base score, docs/MATCHING.md §2) and the server's
// penalties, as chips whose points add up to 100 − score.
import { prepareText } from '@server/matching/score.ts';
import { placeablesOf } from '@server/text/placeables.ts';
import { explainBase } from '../../../../src/matching/score-explanation.ts';
import type { MemoryMatch } from '../../api/types.ts';

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
  placeholders: 'placeholders differ (%s, {0}…)',
  whitespace: 'only whitespace differs',
};

export function explainScore(
  source: string,
  match: Pick<MemoryMatch, 'source' | 'score' | 'metadata'>,
): ScoreChip[] {
  if (match.score === 100) return [];
  const chips: ScoreChip[] = [];
  const { distance, length, points } = explainBase(source, match.source);
  if (points > 0) chips.push({ kind: 'words', points, title: `${distance} of ${length} words differ` });
  for (const p of match.metadata.penalties) {
    const kind = p.kind === 'tags' ? tagsKind(source, match.source) : p.kind;
    chips.push({ kind, points: p.points, title: PENALTY_TITLES[kind] ?? kind });
  }
  // Only a score clamped below 100 for strings the tokens cannot tell apart leaves a remainder.
  const rest = 100 - match.score - chips.reduce((sum, chip) => sum + chip.points, 0);
  if (rest !== 0) chips.push({ kind: 'other', points: rest, title: 'not identical: at most 99' });
  return chips;
}

const isPlaceholder = (text: string) => {
  const [only, ...more] = placeablesOf(text);
  return only?.kind === 'placeholder' && more.length === 0;
};

/**
 * The scorer counts placeholders with the tags (docs/MATCHING.md §2); when the tag tokens the two texts differ
 * in are all placeholders (`%1$s` against `%s`), the chip calls them what a translator calls them.
 */
function tagsKind(source: string, matchSource: string): 'tags' | 'placeholders' {
  const tagTokens = (text: string) =>
    prepareText(text)
      .tokens.filter((t) => t.type === 'tag')
      .map((t) => t.real);
  const left = tagTokens(matchSource);
  const differ: string[] = [];
  for (const t of tagTokens(source)) {
    const at = left.indexOf(t);
    if (at >= 0) left.splice(at, 1);
    else differ.push(t);
  }
  differ.push(...left);
  return differ.length > 0 && differ.every(isPlaceholder) ? 'placeholders' : 'tags';
}
