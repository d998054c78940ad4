import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prng } from '../../bench/corpus.ts';
import { align, alignWithin, boundedDistance } from './levenshtein.ts';

describe('align', () => {
  it('computes the distance and keeps the equal pairs of one fixed alignment', () => {
    assert.deepEqual(align(['a', 'b', 'c'], ['a', 'c']), { distance: 1, matches: [0, 0, 2, 1] });
    assert.deepEqual(align([], ['x']), { distance: 1, matches: [] });
    // Substitution is preferred to delete + insert when both cost the same.
    assert.deepEqual(align(['x', 'y'], ['y', 'z']), { distance: 2, matches: [] });
    assert.deepEqual(align('kitten'.split(''), 'sitting'.split('')).distance, 3);
  });
});

describe('boundedDistance', () => {
  it('is the exact distance up to k, and k + 1 beyond, on random sequences', () => {
    const rand = prng(5);
    const seq = (max: number, alphabet: number) =>
      Array.from({ length: Math.floor(rand() * max) }, () => Math.floor(rand() * alphabet));
    for (let t = 0; t < 4000; t++) {
      // Short sequences over a tiny alphabet, and longer near-copies with larger distances.
      const a = t % 2 ? seq(12, 4) : seq(60, 30);
      const b =
        t % 2
          ? seq(12, 4)
          : a.map((x) => (rand() < 0.2 ? Math.floor(rand() * 30) : x)).filter(() => rand() < 0.9);
      const d = align(a, b).distance;
      for (let k = 0; k <= 30; k += t % 2 ? 1 : 3) {
        assert.equal(
          boundedDistance(a, 0, a.length, b, 0, b.length, k),
          d <= k ? d : k + 1,
          `${a} / ${b}, k ${k}`,
        );
      }
    }
  });

  it('agrees with align on the alignment too, through alignWithin, whenever the distance is within k', () => {
    const rand = prng(6);
    const seq = () => Array.from({ length: Math.floor(rand() * 14) }, () => Math.floor(rand() * 3));
    for (let t = 0; t < 3000; t++) {
      const a = seq();
      const b = seq();
      const full = align(a, b);
      for (let k = full.distance; k <= full.distance + 3; k++)
        assert.deepEqual(alignWithin(a, b, k), full, `${a} / ${b}, k ${k}`);
    }
  });

  it('agrees with align on long near-copies at large distances (a long query against its candidates)', () => {
    const rand = prng(7);
    for (let t = 0; t < 300; t++) {
      const a = Array.from({ length: 40 + Math.floor(rand() * 160) }, () => Math.floor(rand() * 40));
      // Substitutions, deletions and insertions at a rate that puts the distance anywhere up to a third.
      const rate = rand() * 0.3;
      const b: number[] = [];
      for (const x of a) {
        const r = rand();
        if (r < rate / 3) continue;
        b.push(r < (2 * rate) / 3 ? Math.floor(rand() * 40) : x);
        if (r > 1 - rate / 3) b.push(Math.floor(rand() * 40));
      }
      const full = align(a, b);
      assert.deepEqual(alignWithin(a, b, full.distance), full, `${a} / ${b}`);
      assert.deepEqual(alignWithin(a, b, full.distance + 5), full, `${a} / ${b}, k + 5`);
    }
  });

  it('refuses a bound below the distance', () => {
    assert.throws(() => alignWithin([1, 2, 3], [4, 5, 6], 2), RangeError);
  });

  it('reads sub-ranges of its arrays', () => {
    const pool = Int32Array.from([9, 9, 1, 2, 3, 9]);
    assert.equal(boundedDistance([1, 3], 0, 2, pool, 2, 3, 2), 1);
  });
});
