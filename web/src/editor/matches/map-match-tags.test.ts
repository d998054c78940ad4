// Inserting a match maps its tags onto this segment's: by the part each plays, never bringing a foreign tag; and
// its placeholders onto this segment's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapMatchTags, projectMatch } from './map-match-tags.ts';

test('TMX code tags of a match become this segment’s XLIFF tags', () => {
  const mapped = mapMatchTags(
    'The editor shows <bpt i="1">&lt;abbr&gt;</bpt>TM<ept i="1">&lt;/abbr&gt;</ept> results.',
    'Der Editor zeigt <bpt i="1">&lt;abbr&gt;</bpt>TM<ept i="1">&lt;/abbr&gt;</ept>-Ergebnisse.',
    'The editor shows <g id="1" ctype="x-abbr">TM</g> matches.',
  );
  assert.deepEqual(mapped, {
    target: 'Der Editor zeigt <g id="1" ctype="x-abbr">TM</g>-Ergebnisse.',
    dropped: [],
  });
});

test('nested spans keep their nesting, even when the translation reorders them', () => {
  const mapped = mapMatchTags(
    '<g id="a">Read <g id="b">this</g></g> and <x id="c"/>',
    '<x id="c"/> <g id="a">Lies <g id="b">das</g></g>',
    '<g id="1">Open <g id="2">that</g></g> then <x id="3"/>',
  );
  assert.equal(mapped.target, '<x id="3"/> <g id="1">Lies <g id="2">das</g></g>');
  assert.deepEqual(mapped.dropped, []);
});

test('a tag with no counterpart is left out and reported; text is kept as it is', () => {
  const mapped = mapMatchTags(
    'Press <x id="1"/> or <x id="2"/>.',
    'Drücken Sie <x id="1"/> oder <x id="2"/>.',
    'Press <x id="7"/>.',
  );
  assert.deepEqual(mapped, { target: 'Drücken Sie <x id="7"/> oder .', dropped: ['<x id="2"/>'] });
  assert.deepEqual(mapMatchTags('a < b', 'a < b & c', 'x'), { target: 'a < b & c', dropped: [] });
});

test('a tag repeated in the match target is used once', () => {
  const mapped = mapMatchTags('Hi <x id="1"/>', 'Hallo <x id="1"/><x id="1"/>', 'Hello <x id="9"/>');
  assert.deepEqual(mapped, { target: 'Hallo <x id="9"/>', dropped: ['<x id="1"/>'] });
});

test('a match’s placeholders become this source’s, as its tags do', () => {
  assert.deepEqual(projectMatch('%1$s of %2$s files', '%1$s von %2$s Dateien', '%s of %s files'), {
    target: '%s von %s Dateien',
    dropped: [],
    capitalised: false,
  });
  assert.deepEqual(
    projectMatch(
      'Delete {0} <g id="1">now</g>',
      '{0} <g id="1">jetzt</g> löschen',
      'Delete {count} <x id="4"/>now',
    ),
    { target: '{count} jetzt löschen', dropped: ['<g id="1">', '</g>'], capitalised: false },
  );
  assert.equal(
    projectMatch('Delete 3 files', '3 Dateien löschen', 'Delete 12 files').target,
    '12 Dateien löschen',
  );
  // Placeholders that do not pair: the tags are still mapped, the rest stays for QA to name.
  assert.deepEqual(projectMatch('Available', 'Verfügbar', '%s / %s available'), {
    target: 'Verfügbar',
    dropped: [],
    capitalised: false,
  });
  assert.equal(
    projectMatch(
      'The editor shows <bpt i="1">&lt;abbr&gt;</bpt>TM<ept i="1">&lt;/abbr&gt;</ept> results.',
      'Der Editor zeigt <bpt i="1">&lt;abbr&gt;</bpt>TM<ept i="1">&lt;/abbr&gt;</ept>-Ergebnisse.',
      'The editor shows <g id="1" ctype="x-abbr">TM</g> matches.',
    ).target,
    'Der Editor zeigt <g id="1" ctype="x-abbr">TM</g>-Ergebnisse.',
  );
});

test('a match inserted into a sentence starts with a capital where its source started in lower case', () => {
  assert.equal(
    projectMatch(
      '<g id="1">could not</g> open',
      '<g id="1">konnte</g> nicht öffnen',
      '<g id="2">Could not</g> open',
      'de',
    ).target,
    '<g id="2">konnte</g> nicht öffnen',
    'the target starts with a tag: left as it is',
  );
  assert.equal(
    projectMatch('could not open %s', 'konnte %s nicht öffnen', 'Could not open %d', 'de').target,
    'Konnte %d nicht öffnen',
  );
  assert.equal(projectMatch('insert it', 'iki', 'Insert it', 'tr').target, 'İki');
});
