import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mentionedNames } from './mentions.ts';

test('a mention is @ and a username, ending before punctuation', () => {
  assert.deepEqual(mentionedNames('@anna please check, and @bob.smith.'), ['anna', 'bob.smith']);
  assert.deepEqual(mentionedNames('(@jürgen) @anna again @anna'), ['jürgen', 'anna']);
});

test('an e-mail address or a lone @ mentions nobody', () => {
  assert.deepEqual(mentionedNames('write to anna@example.com @ noon'), []);
  assert.deepEqual(mentionedNames('@-x @_'), ['_']);
});
