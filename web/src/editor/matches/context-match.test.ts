import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MATCH_BANDS, scoreBand } from '@server/matching/score-bands.ts';
import type { MemoryMatch } from '../../api/types.ts';
import { rankedFirstText, scoreClass, shownScore } from './context-match.ts';

const match = (ranked_first: { reason: string; of: number } | null) =>
  ({ metadata: { ranked_first } }) as unknown as Pick<MemoryMatch, 'metadata'>;

test('why the first match ranks first, in words', () => {
  assert.equal(rankedFirstText(match({ reason: 'context', of: 1 })), 'Ranks first: context match');
  assert.equal(rankedFirstText(match({ reason: 'newest', of: 2 })), 'Ranks first: newest of 2 translations');
  assert.equal(
    rankedFirstText(match({ reason: 'first_stored', of: 3 })),
    'Ranks first: stored first of 3 translations (same time)',
  );
  assert.equal(rankedFirstText(match({ reason: 'penalties', of: 1 })), 'Ranks first: fewer points off');
  assert.equal(rankedFirstText(match({ reason: 'only', of: 1 })), null);
  assert.equal(rankedFirstText(match({ reason: 'score', of: 1 })), null);
  assert.equal(rankedFirstText(match(null)), null);
});

test('a score is coloured by its band of the one set of bands; a context match apart', () => {
  for (let score = MATCH_BANDS.at(-1)!.min; score <= 100; score++)
    assert.equal(scoreClass(score), scoreBand(score));
  assert.deepEqual([100, 99, 95, 94, 90, 85, 84, 80, 75].map(scoreClass), [
    'exact',
    'fuzzy95',
    'fuzzy95',
    'fuzzy85',
    'fuzzy85',
    'fuzzy85',
    'fuzzy75',
    'fuzzy75',
    'fuzzy75',
  ]);
  assert.equal(scoreClass(shownScore(100, true)), 'in-context');
  assert.equal(scoreClass(shownScore(100, false)), 'exact');
  assert.equal(shownScore(97, true), 97);
});
