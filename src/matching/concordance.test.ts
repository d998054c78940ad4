import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConcordanceIndex } from './concordance.ts';

function indexOf(texts: Record<number, string>): ConcordanceIndex {
  const index = new ConcordanceIndex();
  for (const [id, text] of Object.entries(texts)) index.add(Number(id), text);
  return index;
}

/** Each hit as "id: highlighted pieces". */
function show(index: ConcordanceIndex, texts: Record<number, string>, query: string, n = 10): string[] {
  return index
    .search(query, n)
    .map((h) => `${h.id}: ${h.offsets.map(([a, b]) => texts[h.id].slice(a, b)).join(' | ')}`);
}

describe('ConcordanceIndex.search', () => {
  const texts: Record<number, string> = {
    1: 'Save the file as a new file',
    2: 'The file was saved',
    3: 'Save file',
    4: 'File save failed',
    5: 'Save FILE now',
    6: 'Saved files',
    7: 'Click <b>Save</b> file to keep it',
  };
  const index = indexOf(texts);

  it('finds entries holding all the words, the query text first, then fewer words, then id', () => {
    assert.deepEqual(show(index, texts, 'save file'), [
      '3: Save file',
      '5: Save FILE',
      '4: File | save',
      '7: Save | file',
      '1: Save | file | file',
    ]);
  });

  it('matches whole words only, case-insensitively', () => {
    assert.deepEqual(show(index, texts, 'FILE'), [
      '3: file',
      '4: File',
      '5: FILE',
      '2: file',
      '7: file',
      '1: file | file',
    ]);
    assert.deepEqual(show(index, texts, 'fil'), []);
  });

  it('lets any whitespace in the text match the query’s whitespace', () => {
    const t = { 1: 'Save\n  file', 2: 'Savefile' };
    assert.deepEqual(show(indexOf(t), t, 'save file'), ['1: Save\n  file']);
  });

  it('highlights whole words only, never inside markup', () => {
    const t = { 1: 'Bold <b>text</b> b', 2: '<x id="b"/>b' };
    assert.deepEqual(show(indexOf(t), t, 'b'), ['2: b', '1: b']);
  });

  it('finds CJK text by its characters, contiguous first', () => {
    const t = { 1: '无法打开文件。', 2: '文本的条件', 3: '文件' };
    assert.deepEqual(show(indexOf(t), t, '文件'), ['3: 文件', '1: 文件', '2: 文 | 件']);
  });

  it('matches numbers by their digits', () => {
    const t = { 1: '3 files', 2: '13 files', 3: '３ files' };
    assert.deepEqual(show(indexOf(t), t, '3 files'), ['1: 3 files', '3: ３ | files']);
  });

  it('finds placeholders by their key, however they are written', () => {
    const t = {
      1: 'Error: %s',
      2: '%s: %s',
      3: 'None',
      4: 'x %d',
      5: 'Files: <ph id="1">{{count}}</ph>',
      6: 'Count {{ count }}',
    };
    const index = indexOf(t);
    assert.deepEqual(show(index, t, '%s'), ['1: %s', '2: %s | %s']);
    assert.deepEqual(show(index, t, '{{count}}'), ['5: <ph id="1">{{count}}</ph>', '6: {{ count }}']);
  });

  it('searches the text alone when the query has no words', () => {
    const t = { 1: 'Error: none', 2: ': :', 3: 'None' };
    assert.deepEqual(show(indexOf(t), t, ':'), ['2: : | :', '1: :']);
  });

  it('gives offsets into the text as stored, even when it is not NFC', () => {
    const t = { 1: 'Cafe\u0301 bar' };
    assert.deepEqual(indexOf(t).search('café', 5), [{ id: 1, offsets: [[0, 5]] }]);
  });

  it('returns at most n hits, and none for a blank query or unknown words', () => {
    assert.equal(index.search('file', 2).length, 2);
    assert.deepEqual(index.search('   ', 5), []);
    assert.deepEqual(index.search('save zebra', 5), []);
  });

  it('takes any punctuation in a query literally: hyphens, slashes, regex characters', () => {
    const punct: Record<number, string> = {
      1: 'Send an e-mail with the built-in client',
      2: 'Run tessera --help for usage',
      3: 'Paths like a/b and (c) [d] {e} $f ^g .h *i +j ?k |l \\m',
    };
    const index = indexOf(punct);
    assert.deepEqual(show(index, punct, 'e-mail'), ['1: e-mail']);
    assert.deepEqual(show(index, punct, 'built-in'), ['1: built-in']);
    assert.deepEqual(show(index, punct, '--help'), ['2: --help']);
    for (const q of [
      '-',
      '--',
      'a/b',
      '(c)',
      '[d]',
      '{e}',
      '$f',
      '^g',
      '.h',
      '*i',
      '+j',
      '?k',
      '|l',
      '\\m',
      '\\',
      '[',
      ')',
    ]) {
      assert.doesNotThrow(() => index.search(q, 10), q);
    }
  });

  it('rejects bad arguments', () => {
    assert.throws(() => index.search('x', 0), /n must be a positive integer, got 0/);
    assert.throws(
      () => index.search('x'.repeat(5001), 1),
      /query is 5001 characters long; the limit is 5000/,
    );
  });
});

describe('ConcordanceIndex updates', () => {
  it('adds, replaces and removes entries, through indexing and compaction', () => {
    const index = new ConcordanceIndex();
    for (let id = 1; id <= 3000; id++) index.add(id, `entry number ${id} ${id % 2 ? 'odd' : 'even'}`);
    assert.deepEqual(
      index.search('number 7', 10).map((h) => h.id),
      [7],
    );
    assert.equal(index.search('odd', 5000).length, 1500);
    index.add(7, 'replaced text');
    assert.deepEqual(index.search('number 7', 10), []);
    assert.deepEqual(index.search('replaced', 10), [{ id: 7, offsets: [[0, 8]] }]);
    for (let id = 1; id <= 2000; id++) index.remove(id);
    assert.equal(index.size, 1000);
    assert.equal(index.has(7), false);
    assert.equal(index.search('odd', 5000).length, 500);
    assert.deepEqual(
      index.search('entry 2999', 10).map((h) => h.id),
      [2999],
    );
  });
});
