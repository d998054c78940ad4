import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scoreMatch } from './score.ts';
import { explainBase } from './score-explanation.ts';

/** The points a match's penalties take. */
const penaltyPoints = (query: string, candidate: string) =>
  scoreMatch(query, candidate).penalties.reduce((sum, p) => sum + p.points, 0);

describe('explainBase: the worked examples of docs/MATCHING.md', () => {
  it('takes nothing when the words are the same', () => {
    assert.deepEqual(explainBase('Save the file.', 'Save the file'), { length: 3, distance: 0, points: 0 });
    assert.deepEqual(explainBase('Delete 3 files', 'Delete 12 files'), { length: 3, distance: 0, points: 0 });
    assert.deepEqual(explainBase('Click <b>OK</b> to continue.', 'Click OK to continue.'), {
      length: 4,
      distance: 0,
      points: 0,
    });
  });

  it('saved / opened in a six-word sentence: 17 points (83)', () => {
    assert.deepEqual(explainBase('The file could not be saved.', 'The file could not be opened.'), {
      length: 6,
      distance: 1,
      points: 17,
    });
  });

  it('two of nine Chinese graphemes: 23 points (77)', () => {
    assert.deepEqual(explainBase('无法保存文件，请重试。', '无法打开文件，请重试。'), {
      length: 9,
      distance: 2,
      points: 23,
    });
  });
});

describe('explainBase against scoreMatch', () => {
  const SAMPLE: [string, string][] = [
    ['The file could not be saved.', 'The file could not be opened.'],
    ['The file could not be saved!', 'The file could not be opened.'],
    ['Save the file.', 'save the file'],
    ['Save  the file.', 'Save the file.'],
    ['Delete 3 files now', 'Delete 12 files'],
    ['A B C D E', 'a b c d e'],
    ['Click <b>OK</b> to continue.', 'Click <g id="1">OK</g> to <x id="2"/> continue now.'],
    ['Hello %s, you have %d new messages.', 'Hello {0}, you have {1} new messages!'],
    ['Open the file now', 'the file'],
    ['the the the cat', 'the cat the the'],
    ['无法保存文件，请重试。', '无法打开文件，请重试'],
    ['ไม่สามารถบันทึกไฟล์ได้', 'ไม่สามารถเปิดไฟล์ได้'],
    ['파일을 저장할 수 없습니다.', '파일을 열 수 없습니다.'],
    ['Cafe\u0301 au lait, s’il vous plaît', 'Café au lait s’il vous plait'],
    [
      'The editor shows <g id="1">TM</g> matches.',
      'The editor shows <bpt i="1">&lt;abbr&gt;</bpt>TM<ept i="1">&lt;/abbr&gt;</ept> results.',
    ],
    [
      'Select the check box to keep the original formatting of pasted text, then press OK.',
      'Select the check boxes to keep the formatting of the pasted text and press OK.',
    ],
    ['Version 2.0 (build 1234) of 2024', 'Version 2.1 (build 1234) of 2025'],
  ];

  it('gives the distance of scoreMatch’s base, and points that with the penalties add up to 100 − score', () => {
    for (const [query, candidate] of SAMPLE) {
      const r = scoreMatch(query, candidate);
      const e = explainBase(query, candidate);
      const label = `${query} | ${candidate}`;
      assert.ok(e.length > 0, label);
      assert.equal(r.base, (100 * (e.length - e.distance)) / e.length, label);
      assert.equal(e.points + penaltyPoints(query, candidate), 100 - r.score, label);
    }
  });

  it('leaves the remainder of a score clamped at 99 unexplained: texts that differ in nothing it counts', () => {
    for (const [query, candidate] of [
      ['１２ files', '12 files'],
      ['Click <g id="1">here</g>', 'Click <g id="2">here</g>'],
    ]) {
      assert.equal(scoreMatch(query, candidate).score, 99);
      assert.equal(explainBase(query, candidate).points + penaltyPoints(query, candidate), 0);
    }
  });

  it('takes nothing for texts without words or numbers (their base is over characters)', () => {
    assert.deepEqual(explainBase('!!!', '?!'), { length: 0, distance: 0, points: 0 });
  });
});
