// Which characters get a formatting mark: line breaks, tabs, no-break spaces and invisible characters always;
// plain spaces only when doubled or at the edge of the text or of a line; nothing inside a tag's markup.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formattingMarks } from './formatting-marks.ts';

const shown = (text: string, options?: { edges?: boolean }) =>
  formattingMarks(text, options)
    .map((m) => `${m.start}:${m.sign}`)
    .join(' ');

test('line breaks, tabs and no-break spaces are marked wherever they are', () => {
  assert.equal(shown('a\nb\tc\u00a0d'), '1:↵ 3:→ 5:°');
  assert.equal(shown('a\r\nb'), '1:↵');
  assert.equal(formattingMarks('a\r\nb')[0].end, 3);
  assert.equal(shown('soft\u00adhyphen\u200b'), '4:- 11:¦');
});

test('a single space between words is not marked; doubled, edge and indentation spaces are', () => {
  assert.equal(shown('Save the file.'), '');
  assert.equal(shown('Save  the file. '), '4:· 5:· 15:·');
  assert.equal(shown(' Save'), '0:·');
  assert.equal(shown('Usage:\n  -h help'), '6:↵ 7:· 8:·');
  assert.equal(shown('end \nnext'), '3:· 4:↵');
});

test('spaces inside tags are not marked; edges are the text’s, tags aside', () => {
  assert.equal(shown('<g id="1" ctype="bold">Hi</g> there'), '');
  assert.equal(shown('<g id="1"> Hi</g>'), '10:·');
  assert.equal(formattingMarks('<g id="1"> Hi</g>')[0].label, 'space');
});

test('a piece from within a text has no edges of its own', () => {
  assert.equal(shown(' ', { edges: false }), '');
  assert.equal(shown('  ', { edges: false }), '0:· 1:·');
  assert.equal(shown('\n  ', { edges: false }), '0:↵ 1:· 2:·');
});
