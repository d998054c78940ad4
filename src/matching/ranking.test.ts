import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Candidate, rankCandidates, ranked } from './ranking.ts';

const c = (id: number, score: number, updatedAt: number, context = false, points = 0): Candidate => ({
  ...ranked(id, updatedAt, score, points ? [{ kind: 'case', points }] : []),
  context,
});

test('context matches rank first, then score, penalties, newest, lower id; the reason names what decided', () => {
  const check = (list: Candidate[], ids: number[], reason: string | null, tied: number) => {
    const r = rankCandidates(list);
    assert.deepEqual([r.ordered.map((m) => m.id), r.reason, r.tied], [ids, reason, tied]);
  };
  check([], [], null, 0);
  check([c(1, 100, 5)], [1], 'only', 1);
  check([c(1, 100, 9), c(2, 100, 5, true)], [2, 1], 'context', 1);
  check([c(1, 99, 9), c(2, 100, 5)], [2, 1], 'score', 1);
  check([c(1, 99, 9, false, 1), c(2, 99, 5)], [2, 1], 'penalties', 1);
  check([c(1, 100, 5), c(2, 100, 9), c(3, 80, 10)], [2, 1, 3], 'newest', 2);
  check([c(2, 100, 5), c(1, 100, 5)], [1, 2], 'first_stored', 2);
  // Found by both: one candidate, a context match.
  check([c(1, 100, 5), c(1, 100, 5, true), c(2, 100, 9)], [1, 2], 'context', 1);
});
