import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeRow } from './place-row.ts';

const view = { top: 0, height: 600, total: 100_000 * 44 };

test('after a move the row stands a third down the list, wherever it is', () => {
  assert.equal(placeRow({ start: 44_000, size: 60 }, { ...view, align: 'third' }), 44_000 - 200);
  assert.equal(placeRow({ start: 44_000, size: 60 }, { ...view, top: 90_000, align: 'third' }), 43_800);
  // Near the start and the end the list cannot scroll further.
  assert.equal(placeRow({ start: 88, size: 44 }, { ...view, align: 'third' }), 0);
  assert.equal(placeRow({ start: view.total - 44, size: 44 }, { ...view, align: 'third' }), view.total - 600);
});

test('a row taller than the room below the third starts near the top, so that its QA lines show', () => {
  assert.equal(placeRow({ start: 10_000, size: 450 }, { ...view, align: 'third' }), 10_000 - 8);
});

test('after a click a row in view stays where it is; one cut at an edge scrolls just enough', () => {
  assert.equal(placeRow({ start: 1000, size: 60 }, { ...view, top: 800, align: 'nearest' }), 800);
  // Cut at the bottom: its end comes into view.
  assert.equal(
    placeRow({ start: 1380, size: 60 }, { ...view, top: 800, align: 'nearest' }),
    1380 + 60 - 600 + 8,
  );
  // Cut at the top: its start does.
  assert.equal(placeRow({ start: 780, size: 60 }, { ...view, top: 800, align: 'nearest' }), 772);
});
