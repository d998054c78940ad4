// Alt+T and Alt+Shift+T: the next missing tag of the source, a span wrapped around a selection, all of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTagged, type TagPart } from '@server/text/inline-tags.ts';
import { insertAllTags, insertNextTag, missingTags } from './missing-tags.ts';
import { tagLabels } from './tag-parts.ts';

const SOURCE = 'Run <g id="1">this</g> and <x id="2"/> now.';

const apply = (doc: string, changes: { from: number; insert: string }[]) =>
  [...changes].reverse().reduce((d, c) => d.slice(0, c.from) + c.insert + d.slice(c.from), doc);

test('the missing tags are the source’s, counted', () => {
  assert.deepEqual(
    missingTags(SOURCE, 'Führe <g id="1">das</g> aus').map((t) => t.raw),
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
