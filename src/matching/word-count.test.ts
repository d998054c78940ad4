import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countWords } from './word-count.ts';

test('words and numbers count; placeholders, tags and punctuation do not; CJK counts each character', () => {
  assert.equal(countWords('Open the file 12 now.'), 5);
  assert.equal(countWords('Click <g id="1">here</g>!'), 2);
  assert.equal(countWords("Don't e-mail 3.5%"), 3);
  assert.equal(countWords('ファイルを開く'), 7);
  assert.equal(countWords('   '), 0);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a ${NAME} placeholder is the input here
  assert.equal(countWords('%s of %1$d {count} {{n}} ${NAME} $HOME &amp; <ph id="1">{{x}}</ph> files'), 2);
});
