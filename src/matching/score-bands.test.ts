import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ANALYSIS_BANDS, MATCH_BANDS, MIN_SCORE, scoreBand } from './score-bands.ts';

test('every score falls in exactly the band its edges say', () => {
  assert.equal(scoreBand(null), 'new');
  assert.equal(scoreBand(MIN_SCORE - 1), 'new');
  assert.equal(scoreBand(0), 'new');
  assert.deepEqual([75, 84, 85, 94, 95, 99, 100].map(scoreBand), [
    'fuzzy75',
    'fuzzy75',
    'fuzzy85',
    'fuzzy85',
    'fuzzy95',
    'fuzzy95',
    'exact',
  ]);
  assert.equal(MATCH_BANDS.at(-1)?.min, MIN_SCORE);
});

test('the analysis counts a context match, the match bands, repetitions, MT drafts and new, in that order', () => {
  assert.deepEqual(
    ANALYSIS_BANDS.map((b) => b.band),
    ['context', ...MATCH_BANDS.map((b) => b.band), 'repetitions', 'mt', 'new'],
  );
  assert.deepEqual(
    ANALYSIS_BANDS.map((b) => b.label),
    ['101%', '100%', '95–99%', '85–94%', '75–84%', 'Repetitions', 'MT', 'New'],
  );
});
