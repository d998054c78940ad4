// The part of a match's score its word-level base takes, for showing why a match scores what it does (the
// web's score chips): computed as score.ts computes it, so that the points shown add up to the score.
import { align } from './levenshtein.ts';
import { flooredBase, prepareText } from './score.ts';

export interface BaseExplanation {
  /** Content tokens (words, numbers and placeholders) of the longer text: the base's denominator; 0 when neither has any. */
  length: number;
  /** The edit distance between the two texts' content tokens. */
  distance: number;
  /** What the floored base takes from 100: 100 − flooredBase(length, distance); 0 when length is 0. */
  points: number;
}

/**
 * The base of the score of `candidate` against `query` (scoreMatch), as the distance and the points it
 * takes. With the match's penalties the points add up to 100 − score, except for texts that differ in
 * nothing the score counts (clamped at 99), and texts without content tokens, whose base is over
 * characters (length 0 here).
 */
export function explainBase(query: string, candidate: string): BaseExplanation {
  const q = prepareText(query);
  const c = prepareText(candidate);
  const length = Math.max(q.content.length, c.content.length);
  if (length === 0) return { length, distance: 0, points: 0 };
  const distance = align(q.content, c.content).distance;
  return { length, distance, points: 100 - flooredBase(length, distance) };
}
