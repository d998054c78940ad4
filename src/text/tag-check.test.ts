import assert from 'node:assert/strict';
import { test } from 'node:test';
import { targetTagProblem } from './tag-check.ts';

const SOURCE = 'Click <g id="1">here</g> to <x id="2"/> save <ph id="3">{{count}}</ph> files.';

test('a target with the source’s tags, moved, dropped or repeated where harmless, is fine', () => {
  assert.equal(
    targetTagProblem(SOURCE, 'Klicken Sie <g id="1">hier</g>, um <x id="2"/> zu speichern.'),
    null,
  );
  assert.equal(targetTagProblem(SOURCE, '<ph id="3">{{count}}</ph> Dateien: <g id="1">hier</g>'), null);
  assert.equal(targetTagProblem(SOURCE, 'Keine Formatierung.'), null);
  assert.equal(targetTagProblem(SOURCE, '<x id="2"/><x id="2"/>'), null);
  assert.equal(targetTagProblem('Plain.', 'Literal <b>bold</b> text is text, not a tag.'), null);
});

test('unknown, unclosed, stray and doubled tags are named', () => {
  assert.equal(targetTagProblem(SOURCE, 'Klicken <g id="9">hier</g>'), 'tag <g id="9"> is not in the source');
  assert.equal(targetTagProblem(SOURCE, 'Klicken <g id="1">hier'), 'tag <g id="1"> is not closed');
  assert.equal(targetTagProblem(SOURCE, 'Klicken hier</g>'), 'tag </g> closes no open tag');
  assert.equal(targetTagProblem(SOURCE, '<x id="7"/>'), 'tag <x id="7"/> is not in the source');
  assert.equal(
    targetTagProblem(SOURCE, '<ph id="3">{{name}}</ph>'),
    'tag <ph id="3">{{name}}</ph> is not in the source',
  );
  assert.equal(targetTagProblem(SOURCE, '<g id="1">a</g> <g id="1">b</g>'), 'tag <g id="1"> is opened twice');
});
