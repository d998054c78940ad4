import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../api/client.ts';
import type { DocumentSegment } from '../../api/types.ts';
import { MemoryOutbox } from './outbox.ts';
import { type SaveRequest, SegmentSaves } from './segment-saves.ts';

const segment = (id: number, target: string, updated_at: number) =>
  ({ id, document_id: 1, target, updated_at }) as DocumentSegment;

/** A server that is down until `up` is set; answers what it received, in order. */
function server() {
  const state = {
    up: false,
    time: 100,
    received: [] as (SaveRequest & { expected_updated_at?: number })[],
    send: async (body: SaveRequest & { expected_updated_at?: number }) => {
      if (!state.up) throw new TypeError('Failed to fetch');
      state.received.push(body);
      state.time++;
      return segment(body.id, body.target, state.time);
    },
  };
  return state;
}

test('edits made offline stay in the outbox and are replayed in order by a new page', async () => {
  const outbox = new MemoryOutbox();
  const s = server();
  const first = new SegmentSaves(() => {}, { documentId: 1, outbox, send: s.send });
  await first.save({ id: 10, target: 'a' }, 50);
  await first.save({ id: 20, target: 'b' }, 60);
  await first.save({ id: 10, target: 'a2', is_confirmed: true });
  assert.equal(first.summary().pending, 2);
  assert.equal((await outbox.all()).length, 3);

  // A reload: a new page with the same outbox, the server back.
  s.up = true;
  const second = new SegmentSaves(() => {}, { documentId: 1, outbox, send: s.send });
  await second.replay();
  await Promise.all([second.save({ id: 30, target: 'c' }, 70)]);
  // Wait for the queues.
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(
    s.received.map((r) => [r.id, r.target, r.is_confirmed, r.expected_updated_at]),
    [
      [10, 'a2', true, 50],
      [20, 'b', undefined, 60],
      [30, 'c', undefined, 70],
    ],
  );
  assert.deepEqual(await outbox.all(), []);
  assert.equal(second.summary().pending, 0);
});

test('a conflict keeps the edit and its outbox item until settled; "mine" sends it over the current version', async () => {
  const outbox = new MemoryOutbox();
  let conflict = true;
  const sent: { target: string; expected_updated_at?: number }[] = [];
  const saves = new SegmentSaves(() => {}, {
    documentId: 1,
    outbox,
    send: async (body) => {
      sent.push(body);
      if (conflict) {
        conflict = false;
        throw new ApiError(409, 'SEGMENT_CONFLICT', 'changed', null, { current: segment(10, 'theirs', 200) });
      }
      return segment(10, body.target, 201);
    },
  });
  await saves.save({ id: 10, target: 'mine' }, 100);
  assert.equal(saves.entry(10)?.state, 'conflict');
  assert.equal(saves.entry(10)?.current?.target, 'theirs');
  assert.equal(saves.targetOf(segment(10, 'theirs', 200)), 'mine');
  assert.equal((await outbox.all()).length, 1);
  saves.resolve(10, 'mine');
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(sent.at(-1), { id: 10, target: 'mine', expected_updated_at: 200 });
  assert.equal(saves.entry(10)?.state, 'saved');
  assert.deepEqual(await outbox.all(), []);
});

test('"theirs" drops the edit and hands the current version on', async () => {
  const outbox = new MemoryOutbox();
  const handed: string[] = [];
  const saves = new SegmentSaves((seg) => handed.push(seg.target ?? ''), {
    documentId: 1,
    outbox,
    send: async () => {
      throw new ApiError(409, 'SEGMENT_CONFLICT', 'changed', null, { current: segment(10, 'theirs', 200) });
    },
  });
  await saves.save({ id: 10, target: 'mine' }, 100);
  saves.resolve(10, 'theirs');
  assert.equal(saves.entry(10), undefined);
  assert.deepEqual(handed, ['theirs']);
  assert.deepEqual(await outbox.all(), []);
});

test("another person's edits in the outbox of this browser are never sent", async () => {
  const outbox = new MemoryOutbox();
  const s = server();
  const anna = new SegmentSaves(() => {}, { documentId: 1, user: 'anna', outbox, send: s.send });
  await anna.save({ id: 10, target: 'from anna' }, 50);
  s.up = true;
  const bert = new SegmentSaves(() => {}, { documentId: 1, user: 'bert', outbox, send: s.send });
  await bert.replay();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(s.received, []);
  assert.equal((await outbox.all()).length, 1, 'kept for anna');
});

test('a confirmation the server already has, replayed by a new page (reloaded before the outbox forgot it), is no conflict', async () => {
  const outbox = new MemoryOutbox();
  // What a reload right after "Confirm anyway" can leave: the item of a save that landed.
  await outbox.put({
    seq: 1,
    document_id: 1,
    segment_id: 10,
    target: 'Dateien löschen?',
    is_confirmed: true,
    expected_updated_at: 100,
    queued_at: 0,
  });
  const confirmed = { ...segment(10, 'Dateien löschen?', 150), is_confirmed: true, status: 'confirmed' };
  const handed: DocumentSegment[] = [];
  const saves = new SegmentSaves((seg) => handed.push(seg), {
    documentId: 1,
    outbox,
    send: async () => {
      throw new ApiError(409, 'SEGMENT_CONFLICT', 'changed', null, { current: confirmed });
    },
  });
  await saves.replay();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(saves.entry(10)?.state, 'saved');
  assert.equal(saves.summary().conflicts.length, 0);
  assert.deepEqual(await outbox.all(), []);
  assert.equal(handed[0].updated_at, 150);

  // The same text but not confirmed on the server (someone unconfirmed it since): that is a conflict.
  await outbox.put({ seq: 2, document_id: 1, segment_id: 20, target: 'x', is_confirmed: true, queued_at: 0 });
  const other = new SegmentSaves(() => {}, {
    documentId: 1,
    outbox,
    send: async () => {
      throw new ApiError(409, 'SEGMENT_CONFLICT', 'changed', null, {
        current: { ...segment(20, 'x', 160), is_confirmed: false, status: 'draft' },
      });
    },
  });
  await other.replay();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(other.entry(20)?.state, 'conflict');
});
