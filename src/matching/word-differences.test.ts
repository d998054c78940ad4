import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainBase } from './score-explanation.ts';
import { wordDifferences } from './word-differences.ts';

describe('wordDifferences: the blocks of words between the score alignment’s anchors', () => {
  it('a substitution and an insertion at the end, each between aligned words or an edge', () => {
    const d = wordDifferences('Open the new file now', 'Open the old file');
    assert.deepEqual(d.blocks, [
      { q0: 2, q1: 3, c0: 2, c1: 3 },
      { q0: 4, q1: 5, c0: 4, c1: 4 },
    ]);
    assert.deepEqual(d.pairs, [
      [0, 0],
      [1, 1],
      [3, 3],
    ]);
    assert.equal(d.query.slice(d.queryWords[2].start, d.queryWords[2].end), 'new');
  });

  it('a deletion at the start', () => {
    const d = wordDifferences('environment is too large', 'The environment is too large.');
    assert.deepEqual(d.blocks, [{ q0: 0, q1: 0, c0: 0, c1: 1 }]);
  });

  it('numbers and placeholders align by kind and keep their spelling', () => {
    const d = wordDifferences('multiple of 32: %ld', 'multiple of 4: %d');
    assert.deepEqual(d.blocks, []);
    assert.deepEqual(
      d.pairs.map(([q, c]) => [d.queryWords[q].real, d.candidateWords[c].real]),
      [
        ['multiple', 'multiple'],
        ['of', 'of'],
        ['32', '4'],
        ['%ld', '%d'],
      ],
    );
  });

  it('as many differing words as the score’s distance counts', () => {
    for (const [q, c] of [
      ['The file could not be saved.', 'The file could not be opened.'],
      ['Delete all the selected files now', 'Delete the files'],
      ['a b c d e f', 'x b y d z'],
    ]) {
      const d = wordDifferences(q, c);
      const edits = d.blocks.reduce((n, b) => n + Math.max(b.q1 - b.q0, b.c1 - b.c0), 0);
      assert.equal(edits, explainBase(q, c).distance, `${q} / ${c}`);
    }
  });
});
