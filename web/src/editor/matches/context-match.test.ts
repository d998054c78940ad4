import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryMatch } from '../../api/types.ts';
import { rankedFirstText } from './context-match.ts';

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
