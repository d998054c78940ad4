// Who confirmed and who reviewed a segment's current state, from its versions oldest first (service.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SegmentStatus } from '../documents/document-states.ts';
import { attribute } from './service.ts';

const v = (status: SegmentStatus, username: string, target = 'T') => ({ status, username, target });

test("the translator's confirmation and the reviewer's review", () => {
  assert.deepEqual(
    attribute('reviewed', [v('draft', 'anna'), v('confirmed', 'anna'), v('reviewed', 'rita')]),
    {
      confirmedBy: 'anna',
      reviewedBy: 'rita',
    },
  );
  // The reviewer's edit with Ctrl+Enter (another text, reviewed at once) stays a review of anna's confirmation.
  assert.deepEqual(attribute('reviewed', [v('confirmed', 'anna', 'A'), v('reviewed', 'rita', 'B')]), {
    confirmedBy: 'anna',
    reviewedBy: 'rita',
  });
});

test('an edit that unconfirmed the segment ends the earlier run', () => {
  assert.deepEqual(
    attribute('confirmed', [
      v('confirmed', 'anna', 'A'),
      v('draft', 'rita', 'B'),
      v('confirmed', 'paul', 'B'),
    ]),
    { confirmedBy: 'paul', reviewedBy: null },
  );
  // A review alone confirms: the reviewer confirmed it too.
  assert.deepEqual(attribute('reviewed', [v('pretranslated', 'anna'), v('reviewed', 'rita')]), {
    confirmedBy: 'rita',
    reviewedBy: 'rita',
  });
});

test("a translator confirming again after a send-back takes the confirmation back; a withdrawn review is nobody's confirmation", () => {
  assert.deepEqual(
    attribute('confirmed', [
      v('confirmed', 'anna', 'A'),
      v('reviewed', 'rita', 'A'),
      v('confirmed', 'anna', 'C'),
    ]),
    { confirmedBy: 'anna', reviewedBy: null },
  );
  assert.deepEqual(
    attribute('confirmed', [
      v('confirmed', 'anna', 'A'),
      v('reviewed', 'rita', 'B'),
      v('confirmed', 'rita', 'B'),
    ]),
    { confirmedBy: 'anna', reviewedBy: null },
  );
  // Versions older than history: nobody known.
  assert.deepEqual(attribute('confirmed', []), { confirmedBy: null, reviewedBy: null });
});
