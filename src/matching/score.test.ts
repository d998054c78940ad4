import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prepareShape, prepareText, punctuationAndTagPoints, scoreAtLeast, scoreMatch } from './score.ts';

const score = (a: string, b: string) => scoreMatch(a, b).score;
const penalties = (a: string, b: string) => scoreMatch(a, b).penalties;

describe('scoreMatch: the worked examples of docs/MATCHING.md', () => {
  it('Save the file. / Save the file → 99 (punctuation 1)', () => {
    assert.deepEqual(scoreMatch('Save the file.', 'Save the file'), {
      score: 99,
      base: 100,
      penalties: [{ kind: 'punctuation', points: 1 }],
    });
  });

  it('Save the file. / save the file. → 99 (case 1)', () => {
    assert.deepEqual(scoreMatch('Save the file.', 'save the file.'), {
      score: 99,
      base: 100,
      penalties: [{ kind: 'case', points: 1 }],
    });
  });

  it('Delete 3 files / Delete 12 files → 98 (number 2)', () => {
    assert.deepEqual(scoreMatch('Delete 3 files', 'Delete 12 files'), {
      score: 98,
      base: 100,
      penalties: [{ kind: 'number', points: 2 }],
    });
  });

  it('Click <b>OK</b> to continue. / Click OK to continue. → 98 (tags 2)', () => {
    assert.deepEqual(scoreMatch('Click <b>OK</b> to continue.', 'Click OK to continue.'), {
      score: 98,
      base: 100,
      penalties: [{ kind: 'tags', points: 2 }],
    });
  });

  it('saved / opened in a six-word sentence → 83', () => {
    const r = scoreMatch('The file could not be saved.', 'The file could not be opened.');
    assert.equal(r.score, 83);
    assert.equal(r.base, (100 * 5) / 6);
    assert.deepEqual(r.penalties, []);
  });

  it('%s / %s available / Available → 31: two missing placeholders cost as two missing words', () => {
    // Content [%s, %s, available] against [available]: d = 2 of 3, base 33.3; case 1, punctuation 1.
    assert.deepEqual(scoreMatch('%s / %s available', 'Available'), {
      score: 31,
      base: 100 / 3,
      penalties: [
        { kind: 'case', points: 1 },
        { kind: 'punctuation', points: 1 },
      ],
    });
  });

  it('Delete %d files / Delete %s files → 98: placeholders align, another one costs 2', () => {
    assert.deepEqual(scoreMatch('Delete %d files', 'Delete %s files'), {
      score: 98,
      base: 100,
      penalties: [{ kind: 'placeholder', points: 2 }],
    });
  });

  it('%s / %s available / Available → 31: a missing placeholder costs what a missing word costs', () => {
    assert.deepEqual(scoreMatch('%s / %s available', 'Available'), {
      score: 31,
      base: 100 / 3,
      penalties: [
        { kind: 'case', points: 1 },
        { kind: 'punctuation', points: 1 },
      ],
    });
  });

  it('You have {count} new messages / You have new messages → 80', () => {
    assert.equal(score('You have {count} new messages', 'You have new messages'), 80);
  });

  it('a placeholder protected as a code element is the same placeholder as its text → 99', () => {
    assert.deepEqual(scoreMatch('You have <ph id="1">{{count}}</ph> files', 'You have {{ count }} files'), {
      score: 99,
      base: 100,
      penalties: [],
    });
  });

  it('two of nine Chinese graphemes differ → 77', () => {
    const r = scoreMatch('无法保存文件，请重试。', '无法打开文件，请重试。');
    assert.equal(r.score, 77);
    assert.equal(r.base, (100 * 7) / 9);
  });
});

describe('scoreMatch: identity and clamping', () => {
  it('gives 100 only to strings identical after NFC', () => {
    assert.deepEqual(scoreMatch('Café', 'Cafe\u0301'), { score: 100, base: 100, penalties: [] });
    assert.equal(score('a b', 'a b'), 100);
    // Same tokens, same norms, but not the same string: at most 99.
    assert.equal(score('１２ files', '12 files'), 99);
    assert.deepEqual(penalties('１２ files', '12 files'), []);
  });

  it('never goes below 0', () => {
    assert.equal(score('one two three four', 'five six seven eight'), 0);
    assert.equal(score('', 'something'), 0);
  });

  it('floors the base before subtracting penalties', () => {
    // 5 of 6 words: base 83.3 → 83, minus punctuation 1.
    const r = scoreMatch('The file could not be saved!', 'The file could not be opened.');
    assert.equal(r.score, 82);
    assert.deepEqual(r.penalties, [{ kind: 'punctuation', points: 1 }]);
  });
});

describe('scoreMatch: penalties and their caps', () => {
  it('case: 1 per aligned word differing only in case, at most 3', () => {
    assert.deepEqual(penalties('A b c', 'a B c'), [{ kind: 'case', points: 2 }]);
    assert.deepEqual(penalties('A B C D E', 'a b c d e'), [{ kind: 'case', points: 3 }]);
    assert.equal(score('A B C D E', 'a b c d e'), 97);
  });

  it('number: 2 per aligned number with other digits, at most 6', () => {
    assert.deepEqual(penalties('1 2 x', '1 3 x'), [{ kind: 'number', points: 2 }]);
    assert.deepEqual(penalties('1 2 3 4 x', '5 6 7 8 x'), [{ kind: 'number', points: 6 }]);
    assert.equal(score('1 2 3 4 x', '5 6 7 8 x'), 94);
  });

  it('only aligned pairs count: a replaced word is an edit, not a case difference', () => {
    const r = scoreMatch('Open the File now', 'Open the Folder now');
    assert.equal(r.score, 75);
    assert.deepEqual(r.penalties, []);
  });

  it('punctuation: edit distance of the punctuation sequences, at most 4', () => {
    assert.deepEqual(penalties('a, b.', 'a; b.'), [{ kind: 'punctuation', points: 1 }]);
    assert.deepEqual(penalties('a b', 'a: (b)...'), [{ kind: 'punctuation', points: 4 }]);
  });

  it('tags: edit distance of the tag sequences by kind and name, attributes ignored, at most 4', () => {
    assert.deepEqual(penalties('<b>a</b> %s', '<b class="x">a</b> %s'), []);
    assert.deepEqual(penalties('<b>a</b>', '<i>a</i>'), [{ kind: 'tags', points: 2 }]);
    assert.deepEqual(penalties('<x id="1"/><ph>x</ph> a <b>c</b> <g id="2">d</g>', 'a c d'), [
      { kind: 'tags', points: 4 },
    ]);
  });

  it('placeholders are content, not tags: they count in the base and take no tag penalty', () => {
    // Swapped: they align with each other, each in the other's place costs 2.
    assert.deepEqual(scoreMatch('a %s %d', 'a %d %s'), {
      score: 96,
      base: 100,
      penalties: [{ kind: 'placeholder', points: 4 }],
    });
    // Each one put for another costs 2, up to 6.
    assert.deepEqual(penalties('%d %i %u %x files', '%s %s %s %s files'), [
      { kind: 'placeholder', points: 6 },
    ]);
    assert.deepEqual(scoreMatch('{0} a {1} <x id="1"/>', 'a'), {
      score: 32,
      base: 100 / 3,
      penalties: [{ kind: 'tags', points: 1 }],
    });
    // The same placeholder spelled another way: no penalty names it, and the texts differ.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${HOME} is the shell placeholder here
    assert.deepEqual(scoreMatch('Copy to ${HOME}', 'Copy to $HOME'), { score: 99, base: 100, penalties: [] });
  });

  it('whitespace: 1 when the strings differ only in whitespace', () => {
    assert.deepEqual(scoreMatch('Save  the file', 'Save the file'), {
      score: 99,
      base: 100,
      penalties: [{ kind: 'whitespace', points: 1 }],
    });
    assert.deepEqual(penalties(' from %s', 'from %s'), [{ kind: 'whitespace', points: 1 }]);
    assert.deepEqual(penalties('Save the file .', 'Save the file.'), [{ kind: 'whitespace', points: 1 }]);
    // Other differences are penalized as what they are.
    assert.deepEqual(penalties('Save the file .', 'save the file.'), [{ kind: 'case', points: 1 }]);
  });

  it('adds the kinds up, in table order', () => {
    assert.deepEqual(scoreMatch('Delete 3 Files!', 'delete 4 files <b>?</b>'), {
      score: 93,
      base: 100,
      penalties: [
        { kind: 'case', points: 2 },
        { kind: 'number', points: 2 },
        { kind: 'punctuation', points: 1 },
        { kind: 'tags', points: 2 },
      ],
    });
  });
});

describe('scoreMatch: texts without words or numbers', () => {
  it('uses the character Levenshtein of the NFC strings for the base', () => {
    // 4 and 5 characters, 2 edits: base 60; punctuation "(" against "[", "]": 2.
    const r = scoreMatch('-> (', '-> []');
    assert.equal(r.base, (100 * (5 - 2)) / 5);
    assert.equal(r.score, 58);
    assert.deepEqual(r.penalties, [{ kind: 'punctuation', points: 2 }]);
  });

  it('is not used for placeholders alone: they are content', () => {
    // %s: %s / %s (%s): the placeholders align, punctuation ":" against "(", ")": 2.
    assert.deepEqual(scoreMatch('%s: %s', '%s (%s)'), {
      score: 98,
      base: 100,
      penalties: [{ kind: 'punctuation', points: 2 }],
    });
  });

  it('counts code points, not UTF-16 units', () => {
    assert.equal(scoreMatch('😀!', '😀?').base, 50);
  });
});

describe('scoreAtLeast', () => {
  const pairs: [string, string][] = [
    ['The file could not be saved.', 'The file could not be opened.'],
    ['Save the file.', 'save the file'],
    ['a b c d', 'a x y d'],
    ['%s:', '%s;'],
    ['无法保存文件，请重试。', '无法打开文件，请重试。'],
    ['same', 'same'],
  ];
  it('equals scoreMatch when the score reaches the threshold, null otherwise', () => {
    for (const [a, b] of pairs) {
      const full = scoreMatch(a, b);
      for (const t of [50, 75, 77, 78, 83, 84, 99, 100]) {
        const r = scoreAtLeast(prepareText(a), prepareText(b), t);
        assert.deepEqual(r, full.score >= t ? full : null, `${a} / ${b} at ${t}`);
      }
    }
  });
});

describe('punctuationAndTagPoints', () => {
  it('is the points of the punctuation and tag penalties the full score charges, caps included', () => {
    const pairs: [string, string][] = [
      ['Save the file.', 'Save the file'],
      ['Error: "%s" (%d)!', 'Error %s %d'],
      ['a, b; c: d. e! f? g', 'a b c d e f g'],
      ['<b>Bold</b> text', 'Bold text'],
      ['<b>x</b> <i>y</i> <u>z</u>', 'x y z.'],
      ['Same words', 'same words'],
      ['Tap &amp; go, {{name}}<br/> — 100 % «done»', 'Tap & go {name} — 100%'],
      ['データを保存しました。<b>完了</b>', 'データを保存しました'],
    ];
    for (const [a, b] of pairs) {
      const charged = scoreMatch(a, b)
        .penalties.filter((p) => p.kind === 'punctuation' || p.kind === 'tags')
        .reduce((sum, p) => sum + p.points, 0);
      assert.equal(punctuationAndTagPoints(prepareText(a), prepareText(b)), charged, `${a} / ${b}`);
      // The shape alone reads the same punctuation and tags as the whole preparation.
      for (const text of [a, b]) {
        const { punct, tags } = prepareText(text);
        assert.deepEqual(prepareShape(text.normalize('NFC')), { punct, tags }, text);
      }
      assert.equal(punctuationAndTagPoints(prepareText(a), prepareShape(b)), charged, `${a} / ${b} (shape)`);
    }
  });
});
