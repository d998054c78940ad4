import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SmallCounts } from './small-counts.ts';

describe('SmallCounts', () => {
  it('counts each distinct number, finds only those added, and forgets them when cleared', () => {
    const c = new SmallCounts();
    // More numbers than its first table holds, some colliding on the low bits, with repeats.
    const numbers = Array.from({ length: 300 }, (_, i) => (i % 100) * 1024 + (i % 7));
    c.clear(numbers.length);
    for (const v of numbers) c.count[c.add(v)]++;
    const expected = new Map<number, number>();
    for (const v of numbers) expected.set(v, (expected.get(v) ?? 0) + 1);
    for (const [v, n] of expected) {
      const at = c.placeOf(v);
      assert.ok(at >= 0, `${v} is held`);
      assert.equal(c.count[at], n, `count of ${v}`);
    }
    assert.equal(c.placeOf(5), -1);
    assert.equal(c.placeOf(2 ** 30), -1);
    const places = new Set([...expected.keys()].map((v) => c.placeOf(v)));
    assert.equal(places.size, expected.size, 'one place per number');
    c.clear(4);
    for (const v of expected.keys()) assert.equal(c.placeOf(v), -1);
    const at = c.add(numbers[0]);
    assert.equal(c.count[at], 0);
    assert.equal(c.useMark[at], 0);
  });
});
