// Alt+T and Alt+Shift+T: the next missing tag of the source, a span wrapped around a selection, all of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTagged, type TagPart } from '@server/text/inline-tags.ts';
import { tagLabels } from '@server/text/tag-labels.ts';
import { insertAllTags, insertNextTag, missingTags, tagState } from './missing-tags.ts';

const SOURCE = 'Run <g id="1">this</g> and <x id="2"/> now.';

const apply = (doc: string, changes: { from: number; insert: string }[]) =>
  [...changes].reverse().reduce((d, c) => d.slice(0, c.from) + c.insert + d.slice(c.from), doc);

test('the missing tags are the source’s, counted', () => {
  assert.deepEqual(
    missingTags(SOURCE, 'Führe <g id="1">das</g> aus').map((t) => t.part.raw),
    ['<x id="2"/>'],
  );
  assert.deepEqual(missingTags(SOURCE, SOURCE), []);
});

test('Alt+T inserts the next missing tag at the cursor, then the one after', () => {
  let doc = 'Führe das aus';
  const first = insertNextTag(SOURCE, doc, { from: 6, to: 6 })!;
  doc = apply(doc, first.changes);
  assert.equal(doc, 'Führe <g id="1">das aus');
  assert.equal(first.cursor, 6 + '<g id="1">'.length);
  const second = insertNextTag(SOURCE, doc, { from: first.cursor + 3, to: first.cursor + 3 })!;
  doc = apply(doc, second.changes);
  assert.equal(doc, 'Führe <g id="1">das</g> aus');
  assert.equal(insertNextTag(SOURCE, SOURCE, { from: 0, to: 0 }), null);
});

test('with a selection, a missing span wraps it', () => {
  const doc = 'Führe das aus';
  const wrap = insertNextTag(SOURCE, doc, { from: 6, to: 9 })!;
  assert.equal(apply(doc, wrap.changes), 'Führe <g id="1">das</g> aus');
  assert.equal(wrap.cursor, 9 + '<g id="1"></g>'.length);
});

test('Alt+Shift+T inserts all of them in source order', () => {
  const all = insertAllTags(SOURCE, 'x', 1)!;
  assert.equal(apply('x', all.changes), 'x<g id="1"></g><x id="2"/>');
});

test('a missing closing tag is named by its own pair, however many `</g>` the source has', () => {
  const source = 'Read <g id="1">this</g> and <g id="2">that</g>.';
  const labels = tagLabels(parseTagged(source).filter((p): p is TagPart => p.type === 'tag'));
  const label = (target: string) => missingTags(source, target).map((m) => labels[m.index].text);
  assert.deepEqual(label('Lies <g id="1">dies</g> und <g id="2">das.'), ['/2']);
  assert.deepEqual(label('Lies <g id="2">das</g> und <g id="1">dies.'), ['/1']);
  assert.deepEqual(label('Lies dies und das.'), ['1', '/1', '2', '/2']);
});

test('"All tags placed" only when none is missing, no pair is empty and none is out of order', () => {
  const source = '<g id="1">Introduction</g> to <g id="2">gettext</g>';
  const ok = (target: string) => {
    const s = tagState(source, target);
    return s.missing.length === 0 && s.empty.length === 0 && !s.disordered;
  };
  assert.ok(ok('<g id="2">gettext</g>: eine <g id="1">Einleitung</g>'));
  assert.deepEqual(tagState(source, 'Inhaltsverzeichnis<g id="1"></g> <g id="2">x</g>').empty, [0]);
  assert.ok(tagState(source, '<g id="1">a <g id="2">b</g></g>').disordered === false);
  assert.ok(tagState(source, '<g id="1">a <g id="2">b</g> c</g>').missing.length === 0);
  assert.equal(tagState('<g id="1">a</g>', '</g>a<g id="1">').disordered, true);
  assert.equal(tagState(source, '<g id="1">a <g id="2">b</g> c').missing.length, 1);
  assert.ok(!ok('Inhaltsverzeichnis'));
});

test('chips are labelled by the tag’s number and part', () => {
  const tags = parseTagged('<g id="1">a</g><x id="2"/><bpt i="3">&lt;b&gt;</bpt>').filter(
    (p): p is TagPart => p.type === 'tag',
  );
  const labels = tagLabels(tags);
  assert.deepEqual(
    labels.map((l) => l.text),
    ['1', '/1', '2/', '3'],
  );
  assert.equal(labels[3].title, '<b>');
});

test('in full-tag mode a chip reads as its markup; a code that is one placeholder reads as that text', () => {
  const tags = parseTagged(
    'Use <g id="1" ctype="bold">this</g>, <g id="2" ctype="x-tt">that</g>, <ph id="3" ctype="x-code">&lt;code&gt;gettext&lt;/code&gt;</ph> and <ph id="4">{{count}}</ph><x id="5"/>',
  ).filter((p): p is TagPart => p.type === 'tag');
  const labels = tagLabels(tags);
  assert.deepEqual(
    labels.map((l) => l.full),
    ['<b>', '</b>', '<tt>', '</tt>', '<code>gettext</code>', '{{count}}', '<x id="5"/>'],
  );
  assert.deepEqual(
    labels.map((l) => l.text),
    ['1', '/1', '2', '/2', '3/', '{{count}}', '5/'],
  );
  assert.deepEqual(
    labels.map((l) => l.placeholder),
    [false, false, false, false, false, true, false],
  );
});
