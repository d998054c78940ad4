// The repair bench's two measures (bench/chrf.ts), against values worked out by hand: chrF as sacrebleu
// defines it (orders 1–6, whitespace removed, β = 2, averaged over the orders both texts have) and the
// character edit distance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { charEditDistance, chrF } from '../bench/chrf.ts';

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);

test('chrF: identical texts 100; abc against abd over the orders both have', () => {
  close(chrF('la casa', 'la casa'), 100);
  // Unigrams 2/3, bigrams 1/2, trigrams 0; no 4- to 6-grams in either.
  close(chrF('abc', 'abd'), (100 * (2 / 3 + 1 / 2 + 0)) / 3);
  // Whitespace does not count.
  close(chrF('a b c', 'abd'), chrF('abc', 'abd'));
});

test('chrF weighs recall twice as much as precision (β = 2)', () => {
  // P = 1, R = 1/2: F = 5·P·R / (4P + R).
  close(chrF('a', 'ab'), (100 * (5 * 0.5)) / 4.5);
  // P = 1/2, R = 1.
  close(chrF('ab', 'a'), (100 * (5 * 0.5)) / 3);
  // Missing characters cost more than extra ones.
  assert.ok(chrF('ab', 'a') > chrF('a', 'ab'));
});

test('character edit distance counts code points', () => {
  assert.equal(charEditDistance('casa roja', 'casa azul'), 4);
  assert.equal(charEditDistance('', 'año'), 3);
  assert.equal(charEditDistance('😀a', 'a'), 1);
});
