// Locating a segment number in a filtered list reads a few pages, and lands on the segment or the next one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lowerBound, PAGE_SIZE } from './locate.ts';

test('the index of a position in a filtered list, by pages', async () => {
  // Every third segment of 1,000 passes the filter: positions 0, 3, 6, …
  const positions = Array.from({ length: 334 }, (_, i) => i * 3);
  const read: number[] = [];
  const pageAt = async (page: number) => {
    read.push(page);
    return positions.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE).map((position) => ({ position }));
  };
  assert.equal(await lowerBound(positions.length, pageAt, 600), 200);
  assert.equal(await lowerBound(positions.length, pageAt, 601), 201, 'not in the list: the next one');
  assert.equal(await lowerBound(positions.length, pageAt, 0), 0);
  assert.equal(await lowerBound(positions.length, pageAt, 5000), 333, 'past the end: the last row');
  read.length = 0;
  await lowerBound(positions.length, pageAt, 400);
  assert.ok(read.length <= 4, `${read.length} page reads`);
  assert.equal(await lowerBound(0, pageAt, 7), 0);
});
