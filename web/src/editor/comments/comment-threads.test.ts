import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Comment } from '../../api/types.ts';
import {
  mentionParts,
  threadCounts,
  threadsOf,
  threadsOn,
  unresolvedSegmentCount,
} from './comment-threads.ts';

function comment(id: number, parent: number | null, segment: number | null, resolved = false): Comment {
  return {
    id,
    text: `c${id}`,
    annotations: [],
    is_resolved: resolved,
    document_id: 1,
    segment_id: segment,
    segment_revision_id: null,
    user_id: 1,
    created_at: 0,
    parent_id: parent,
    user: 'anna',
    updated_at: 0,
    mentions: [],
  };
}

test('threads gather replies under their first comment', () => {
  const threads = threadsOf([comment(1, null, 5), comment(2, 1, 5), comment(3, null, 5), comment(4, 1, 5)]);
  assert.deepEqual(
    threads.map((t) => [t.first.id, t.replies.map((r) => r.id)]),
    [
      [1, [2, 4]],
      [3, []],
    ],
  );
});

test('threads of a segment or the document; segments with an unresolved thread counted', () => {
  const all = {
    '5': [comment(1, null, 5), comment(2, 1, 5)],
    '6': [comment(3, null, 6, true)],
    '7': [comment(4, null, 7, true), comment(5, null, 7)],
    document: [comment(6, null, null)],
  };
  assert.equal(threadsOn(all, 5).length, 1);
  assert.equal(threadsOn(all, null)[0].first.id, 6);
  assert.deepEqual(threadsOn(all, 9), []);
  assert.equal(unresolvedSegmentCount(all), 2);
  assert.equal(unresolvedSegmentCount(undefined), undefined);
  assert.deepEqual(
    [...threadCounts(all)],
    [
      [5, { threads: 1, open: 1 }],
      [6, { threads: 1, open: 0 }],
      [7, { threads: 2, open: 1 }],
    ],
  );
});

test('only the mentions the server recognised are marked', () => {
  assert.deepEqual(mentionParts('ask @anna and @bob.', ['anna']), [
    { text: 'ask ', mention: false },
    { text: '@anna', mention: true },
    { text: ' and @bob.', mention: false },
  ]);
  assert.deepEqual(mentionParts('@anna.', ['anna']), [
    { text: '@anna', mention: true },
    { text: '.', mention: false },
  ]);
});
