import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryOutbox, nextSeq, type OutboxItem, replayOrder } from './outbox.ts';

const item = (seq: number, segment: number, target: string, extra: Partial<OutboxItem> = {}): OutboxItem => ({
  seq,
  document_id: 1,
  segment_id: segment,
  target,
  queued_at: seq,
  ...extra,
});

test('replays one save per segment, in the order the segments were first edited', () => {
  const order = replayOrder([item(5, 20, 'b2'), item(1, 10, 'a1'), item(3, 20, 'b1'), item(7, 10, 'a2')]);
  assert.deepEqual(
    order.map((o) => [o.item.segment_id, o.item.target, o.covers]),
    [
      [10, 'a2', [1, 7]],
      [20, 'b2', [3, 5]],
    ],
  );
});

test('a confirmation asked for earlier is kept by a later text-only edit; a later unconfirm wins', () => {
  const [kept] = replayOrder([item(1, 10, 'a', { is_confirmed: true }), item(2, 10, 'a!')]);
  assert.equal(kept.item.is_confirmed, true);
  assert.equal(kept.item.target, 'a!');
  const [undone] = replayOrder([
    item(1, 10, 'a', { is_confirmed: true }),
    item(2, 10, 'a', { is_confirmed: false }),
  ]);
  assert.equal(undone.item.is_confirmed, false);
});

test('the base of a replayed save is the version its first unsent edit started from', () => {
  const [merged] = replayOrder([
    item(1, 10, 'a', { expected_updated_at: 100 }),
    item(2, 10, 'ab', { expected_updated_at: 100 }),
  ]);
  assert.equal(merged.item.expected_updated_at, 100);
});

test('seq grows past what the outbox holds and with the clock', () => {
  assert.equal(nextSeq([], 5), 5000);
  assert.equal(nextSeq([item(9000, 1, 'x')], 5), 9001);
});

test('the memory outbox keeps items in seq order until deleted', async () => {
  const box = new MemoryOutbox();
  await box.put(item(3, 1, 'c'));
  await box.put(item(1, 1, 'a'));
  await box.delete(3);
  assert.deepEqual(
    (await box.all()).map((i) => i.target),
    ['a'],
  );
});
