import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { schemaErrors, schemaSkipReason } from '../../../test/helpers/xmllint.ts';
import { FormatError } from '../../errors.ts';
import { xliffFilter } from './xliff-filter.ts';

const langs = { srclang: 'en', trglang: 'de' };
const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
const angular = fixture('angular-messages.xlf');
const segmented = fixture('segmented.xlf');

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

test('extract: translatable trans-units with targets, states, resname as context and notes', async () => {
  assert.deepEqual(await xliffFilter.extract(angular, langs), [
    {
      source: 'Hello i18n!',
      segmentable: false,
      notes: ['An introduction header for this sample', 'User welcome'],
      target: 'Hallo i18n!',
      state: 'signed-off',
    },
    {
      source: 'Updated <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> minutes ago & counting',
      segmentable: true,
    },
    {
      source:
        'Read the <x id="START_LINK" ctype="x-a" equiv-text="&lt;a&gt;"/>guide<x id="CLOSE_LINK" ctype="x-a" equiv-text="&lt;/a&gt;"/> first.',
      segmentable: true,
      context: 'app.link',
    },
    {
      source:
        'Press <g id="1" ctype="bold">Save</g> to keep <ph id="2" ctype="x-br">&lt;br/&gt;</ph>your changes.',
      segmentable: false,
      target:
        'Drücken Sie <g id="1" ctype="bold">Speichern</g>, um <ph id="2" ctype="x-br">&lt;br/&gt;</ph>Ihre Änderungen zu behalten.',
      state: 'needs-review-translation',
    },
    { source: 'Open…', segmentable: false, target: 'Öffnen…', state: 'signed-off' },
  ]);
});

test('extract: seg-source <mrk mtype="seg"> segments are the units, each with its target segment', async () => {
  assert.deepEqual(await xliffFilter.extract(segmented, { srclang: 'en', trglang: 'fr' }), [
    {
      source: 'First sentence.',
      segmentable: false,
      context: 'intro',
      target: 'Première phrase.',
      state: 'translated',
    },
    { source: 'Second <g id="1">bold</g> sentence.', segmentable: false, context: 'intro' },
    { source: 'One.', segmentable: false },
    { source: 'Two.', segmentable: false },
  ]);
});

test('merge: new targets inserted after </source>, changed ones replaced and marked translated, others untouched', async () => {
  const translations = [
    'Hallo i18n!', // equal to the existing signed-off target: stays as it is
    'Vor <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> Minuten aktualisiert & es läuft',
    'Lesen Sie zuerst den <x id="START_LINK" ctype="x-a" equiv-text="&lt;a&gt;"/>Leitfaden<x id="CLOSE_LINK" ctype="x-a" equiv-text="&lt;/a&gt;"/>.',
    'Klicken Sie auf <g id="1" ctype="bold">Speichern</g>, um <ph id="2" ctype="x-br">&lt;br/&gt;</ph>Ihre Änderungen zu behalten.',
    null,
  ];
  const merged = (await xliffFilter.merge(angular, confirmed(translations), langs)).toString('utf8');
  const expected = angular
    .toString('utf8')
    .replace(
      '<source>Updated <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> minutes ago &amp; counting</source>',
      '$&\n        <target state="translated">Vor <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> Minuten aktualisiert &amp; es läuft</target>',
    )
    .replace(
      '<target/>',
      '<target state="translated">Lesen Sie zuerst den <x id="START_LINK" ctype="x-a" equiv-text="&lt;a&gt;"/>Leitfaden<x id="CLOSE_LINK" ctype="x-a" equiv-text="&lt;/a&gt;"/>.</target>',
    )
    .replace(
      '<target state="needs-review-translation">Drücken Sie',
      '<target state="translated">Klicken Sie auf',
    );
  assert.equal(merged, expected);

  const again = await xliffFilter.extract(Buffer.from(merged), langs);
  assert.deepEqual(
    again.map((u) => [u.target, u.state]),
    [
      ['Hallo i18n!', 'signed-off'],
      [translations[1], 'translated'],
      [translations[2], 'translated'],
      [translations[3], 'translated'],
      ['Öffnen…', 'signed-off'],
    ],
  );
});

test('merged XLIFF still validates against the strict schema', { skip: schemaSkipReason }, async () => {
  assert.equal(schemaErrors(angular.toString('utf8')), '');
  const translations = [
    'Hallo!',
    'Vor <x id="INTERPOLATION"/> Minuten',
    'Lesen <hi>Sie</hi>',
    '<g id="1">offen',
    null,
  ];
  const merged = await xliffFilter.merge(angular, confirmed(translations), langs);
  assert.equal(schemaErrors(merged.toString('utf8')), '');
});

test('merge into seg-source units rebuilds the target from the seg-source, one <mrk> per segment', async () => {
  const merged = await xliffFilter.merge(
    segmented,
    confirmed([null, 'Deuxième phrase en <g id="1">gras</g>.', 'Un.', null]),
    { srclang: 'en', trglang: 'fr' },
  );
  const text = merged.toString('utf8');
  assert.ok(
    text.includes(
      '<target xml:lang="fr-FR" state="translated"><mrk mid="0" mtype="seg">Première phrase.</mrk> ' +
        '<mrk mid="1" mtype="seg">Deuxième phrase en <g id="1">gras</g>.</mrk></target>',
    ),
  );
  assert.ok(
    text.includes(
      '</seg-source>\n    <target state="translated"><mrk mid="0" mtype="seg">Un.</mrk> <mrk mid="1" mtype="seg">Two.</mrk></target>',
    ),
  );
  const again = await xliffFilter.extract(merged, { srclang: 'en', trglang: 'fr' });
  assert.deepEqual(
    again.map((u) => u.target),
    ['Première phrase.', 'Deuxième phrase en <g id="1">gras</g>.', 'Un.', 'Two.'],
  );
});

test('merge marks drafts needs-review-translation, and a confirmed file target translated', async () => {
  const angularUnits = (await xliffFilter.extract(angular, langs)).map((u) => u.target ?? null);
  const translations = angularUnits.map((target) =>
    target === null ? null : { text: target, confirmed: true },
  );
  translations[1] = {
    text: 'Vor <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> Minuten',
    confirmed: false,
  };
  const merged = (await xliffFilter.merge(angular, translations, langs)).toString('utf8');
  assert.ok(
    merged.includes('</source>\n        <target state="needs-review-translation">Vor <x id="INTERPOLATION"'),
    'an unconfirmed draft',
  );
  // The file's target, unchanged but now confirmed: only its state moves on.
  const before = angular.toString('utf8');
  assert.equal(
    merged.replace(/\n\s*<target state="needs-review-translation">Vor [^\n]*/, ''),
    before.replace('<target state="needs-review-translation">Drücken', '<target state="translated">Drücken'),
  );

  const segmentedMerge = await xliffFilter.merge(
    segmented,
    [
      null,
      { text: 'Deuxième.', confirmed: true },
      { text: 'Un.', confirmed: true },
      { text: 'Deux.', confirmed: false },
    ],
    { srclang: 'en', trglang: 'fr' },
  );
  const states = (await xliffFilter.extract(segmentedMerge, { srclang: 'en', trglang: 'fr' })).map(
    (u) => u.state,
  );
  assert.deepEqual(states, [
    'translated',
    'translated',
    'needs-review-translation',
    'needs-review-translation',
  ]);
});

test('a prefixed XLIFF namespace keeps its prefix on inserted targets and inline elements', async () => {
  const xml =
    '<x:xliff xmlns:x="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><x:file original="a" source-language="en" datatype="plaintext"><x:body>' +
    '<x:trans-unit id="1"><x:source>A <x:g id="1">b</x:g></x:source></x:trans-unit></x:body></x:file></x:xliff>';
  const units = await xliffFilter.extract(Buffer.from(xml), langs);
  assert.deepEqual(units, [{ source: 'A <g id="1">b</g>', segmentable: true }]);
  const merged = await xliffFilter.merge(Buffer.from(xml), confirmed(['Ein <g id="1">B</g>']), langs);
  assert.ok(
    merged.toString().includes('</x:source><x:target state="translated">Ein <x:g id="1">B</x:g></x:target>'),
  );
});

test('UTF-16 files are read and written back in UTF-16 with their BOM', async () => {
  const xml = angular.toString('utf8').replace('encoding="UTF-8"', 'encoding="UTF-16"');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
  const units = await xliffFilter.extract(utf16, langs);
  assert.equal(units[0].target, 'Hallo i18n!');
  const merged = await xliffFilter.merge(utf16, confirmed(['Hallöchen', null, null, null, null]), langs);
  assert.deepEqual([merged[0], merged[1]], [0xff, 0xfe]);
  assert.ok(merged.subarray(2).toString('utf16le').includes('<target state="translated">Hallöchen</target>'));
});

test('units of trans-units with translate="no" (directly or from a group) and empty sources are skipped', async () => {
  const units = await xliffFilter.extract(angular, langs);
  assert.ok(!units.some((u) => u.source === 'ACME' || u.source.includes('©') || u.source.trim() === ''));
});

function formatError(fn: () => Promise<unknown>, message: RegExp, line: number, column: number) {
  return assert.rejects(fn, (err: unknown) => {
    assert.ok(err instanceof FormatError, String(err));
    assert.match(err.message, message);
    assert.deepEqual([err.line, err.column], [line, column]);
    return true;
  });
}

test('malformed XML is a FormatError with line and column', async () => {
  const xml = '<?xml version="1.0"?>\n<xliff version="1.2">\n  <file>\n    <body></file>\n</xliff>';
  await formatError(
    () => xliffFilter.extract(Buffer.from(xml), langs),
    /malformed XML: unexpected close tag/,
    4,
    18,
  );
});

test('entity declarations are refused', async () => {
  const xml =
    '<?xml version="1.0"?>\n<!DOCTYPE xliff [<!ENTITY lol "lol">]>\n<xliff version="1.2"><file><body/></file></xliff>';
  await formatError(
    () => xliffFilter.extract(Buffer.from(xml), langs),
    /entity declarations are not allowed/,
    2,
    1,
  );
});

test('a file that is not XLIFF 1.x says what it is', async () => {
  await formatError(
    () => xliffFilter.extract(Buffer.from('<tmx version="1.4"/>'), langs),
    /root element is <tmx>/,
    1,
    1,
  );
  const v2 = '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"/>';
  await formatError(() => xliffFilter.extract(Buffer.from(v2), langs), /XLIFF 2 is not supported/, 1, 1);
});

test('bytes that are not UTF-8 are a FormatError at their position', async () => {
  const bytes = Buffer.concat([
    Buffer.from('<xliff version="1.2">\n<file>caf'),
    Buffer.from([0xe9]),
    Buffer.from('</file></xliff>'),
  ]);
  await formatError(() => xliffFilter.extract(bytes, langs), /invalid utf-8 byte sequence/, 2, 10);
});

test('a file in another declared encoding is read, and merged back as UTF-8 with its declaration updated', async () => {
  const xml =
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n<xliff version="1.2"><file original="a" source-language="en" datatype="plaintext">' +
    '<body><trans-unit id="1"><source>Café crème</source></trans-unit></body></file></xliff>';
  const latin1 = Buffer.from(xml, 'latin1');
  assert.deepEqual(await xliffFilter.extract(latin1, langs), [{ source: 'Café crème', segmentable: true }]);
  const merged = (await xliffFilter.merge(latin1, confirmed(['Milchkaffee – süß']), langs)).toString('utf8');
  assert.ok(merged.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
  assert.ok(
    merged.includes('<source>Café crème</source><target state="translated">Milchkaffee – süß</target>'),
  );
});
