// The merge sort that ranks a large group of copies in slices (postings-build.ts, sortInSlices), and the
// ranking it gives a group larger than one slice, through the index.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryIndex } from './memory-index.ts';
import { sortInSlices } from './postings-build.ts';

describe('sortInSlices', () => {
  it('sorts as a stable Array.prototype.sort does, yielding on long input', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const n of [0, 1, 2, 4095, 4096, 4097, 12_289, 40_000]) {
      const values = Int32Array.from({ length: n }, () => Math.floor(rand() * 50));
      // Items are their own index; compared by a key with many ties, so stability shows.
      const items = Int32Array.from({ length: n }, (_, i) => i);
      const byKey = (a: number, b: number) => values[a] - values[b];
      const expected = Array.from(items).sort(byKey);
      let yields = 0;
      for (const _ of sortInSlices(items, byKey)) yields++;
      assert.deepEqual(Array.from(items), expected, `n = ${n}`);
      if (n > 8192) assert.ok(yields > n / 4096, `n = ${n}: ${yields} yields`);
    }
  });
});

describe('a group of copies larger than a slice', () => {
  it('is ranked newest first, ties by id, as a small group is', () => {
    const ix = new MemoryIndex();
    // 10,000 copies of one source (a memory repeats a source once per target), with updated times that
    // are not in id order and repeat.
    for (let id = 1; id <= 10_000; id++) ix.add(id, 'Save the file', (id * 7919) % 5000);
    ix.add(10_001, 'Open the folder', 1);
    for (const _ of ix.refreshInSlices());
    const updated = (id: number) => (id * 7919) % 5000;
    const expected = Array.from({ length: 10_000 }, (_, i) => i + 1)
      .sort((a, b) => updated(b) - updated(a) || a - b)
      .slice(0, 5);
    const found = ix.search('Save the file', { threshold: 75, n: 5 });
    assert.deepEqual(
      found.map((m) => [m.id, m.score]),
      expected.map((id) => [id, 100]),
    );
  });
});
