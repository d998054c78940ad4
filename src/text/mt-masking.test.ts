import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskForMt, unmaskMt } from './mt-masking.ts';

test('paired tags become <gN>, other tags and placeholders <xN/>, text is escaped', () => {
  const source = 'Click <g id="1">Save</g> to keep {0} files & <x id="2"/> more < 3';
  const mask = maskForMt(source);
  assert.equal(mask.masked, 'Click <g1>Save</g1> to keep <x2/> files &amp; <x3/> more &lt; 3');
  assert.deepEqual(
    mask.slots.map((s) => s.raw),
    ['<g id="1">', '{0}', '<x id="2"/>'],
  );
});

test('a translation that moved the elements is restored with the original tags', () => {
  const source = 'The <g id="1">red</g> house has %s windows.';
  const mask = maskForMt(source);
  assert.equal(mask.masked, 'The <g1>red</g1> house has <x2/> windows.');
  assert.equal(
    unmaskMt(source, mask, 'La <g1>casa</g1> roja tiene <x2/> ventanas &amp; más.'),
    'La <g id="1">casa</g> roja tiene %s ventanas & más.',
  );
});

test('a translation that lost, repeated, invented or crossed an element is refused', () => {
  const source = 'A <g id="1">b <g id="2">c</g></g> d {name}';
  const mask = maskForMt(source);
  assert.equal(mask.masked, 'A <g1>b <g2>c</g2></g1> d <x3/>');
  assert.equal(unmaskMt(source, mask, 'A <g1>b <g2>c</g2></g1> d'), null, 'lost <x3/>');
  assert.equal(unmaskMt(source, mask, 'A <g1>b <g2>c</g2></g1> <x3/> d <x3/>'), null, 'repeated');
  assert.equal(unmaskMt(source, mask, 'A <g1>b <g2>c</g2></g1> <x4/> <x3/>'), null, 'invented');
  assert.equal(unmaskMt(source, mask, 'A <g1>b <g2>c</g1></g2> <x3/>'), null, 'crossed');
  assert.equal(unmaskMt(source, mask, 'A </g1>b<g1> <g2>c</g2> <x3/>'), null, 'closed first');
  assert.equal(unmaskMt(source, mask, 'A <g1>b <b>c</b></g1> <x3/>'), null, 'stray markup');
  assert.equal(
    unmaskMt(source, mask, 'Un <g1>b <g2>c</g2></g1> d <x3/>'),
    'Un <g id="1">b <g id="2">c</g></g> d {name}',
  );
});

test('a code element keeps its native content, and plain text round-trips', () => {
  const source = 'Press <ph id="1">&lt;br/&gt;</ph> now';
  const mask = maskForMt(source);
  assert.equal(mask.masked, 'Press <x1/> now');
  assert.equal(unmaskMt(source, mask, 'Pulse <x1/> ya'), 'Pulse <ph id="1">&lt;br/&gt;</ph> ya');
  const plain = maskForMt('Fish & chips');
  assert.equal(unmaskMt('Fish & chips', plain, 'Pescado &amp; patatas'), 'Pescado & patatas');
});
