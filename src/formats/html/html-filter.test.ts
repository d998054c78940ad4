import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'parse5';
import { FormatError } from '../../errors.ts';
import { htmlFilter } from './html-filter.ts';

const langs = { srclang: 'en', trglang: 'de' };
const page = readFileSync(new URL('fixtures/product-page.html', import.meta.url));

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

const extract = async (html: string | Buffer) =>
  (await htmlFilter.extract(Buffer.from(html), langs)).map((u) => [u.source, u.context]);
const merge = async (html: string | Buffer, translations: (string | null)[]) =>
  (await htmlFilter.merge(Buffer.from(html), confirmed(translations), langs)).toString('utf8');

function parseErrors(html: string): string[] {
  const errors: string[] = [];
  parse(html, { onParseError: (e) => errors.push(`${e.code} at ${e.startLine}:${e.startCol}`) });
  return errors;
}

const PAGE_UNITS = [
  ['Tessera keeps your translation memories in-house.', 'meta[name=description]'],
  ['Tessera – Translation Memory', 'title'],
  ['<g id="1" ctype="link">Home</g>', 'li'],
  ['<g id="1" ctype="link">Docs</g>', 'li'],
  ['Read the documentation', 'a[title]'],
  ['Your memories, <g id="1" ctype="italic">your</g> server', 'h1'],
  [
    'Tessera stores segments on <g id="1" ctype="bold">your own</g> hardware & speaks the <g id="2" ctype="link">Lilt API</g>.' +
      '<x id="3" ctype="lb"/> Run <ph id="4" ctype="x-code">&lt;code&gt;npm start&lt;/code&gt;</ph> and you are done.',
    'p',
  ],
  ['<x id="1" ctype="image"/> Brand name: <x id="2" ctype="x-span"/>\u00a02.0', 'p'],
  ['The Tessera logo', 'img[alt]'],
  ['Prices exclude VAT. <x id="1" ctype="x-comment"/>', 'div'],
  ['Contact sales for volume discounts.', 'p'],
  ['Plan', 'th'],
  ['Price', 'th'],
  ['Team', 'td'],
  ['€\u00a020', 'td'],
  ['Editor with "matches" panel', 'img[alt]'],
  ['The editor shows <g id="1" ctype="x-abbr">TM</g> matches.', 'figcaption'],
  ['translation memory', 'abbr[title]'],
  ['It saved us weeks.', 'blockquote'],
  ['<x id="1" ctype="x-input"/><g id="2" ctype="x-button">Search</g>', 'form'],
  ['Search memories', 'input[placeholder]'],
];

const PAGE_TRANSLATIONS = [
  'Tessera behält Ihre Translation Memories im Haus.',
  'Tessera – Translation Memory',
  '<g id="1" ctype="link">Start</g>',
  '<g id="1" ctype="link">Doku</g>',
  'Dokumentation "lesen" & mehr',
  'Ihre Memories, <g id="1" ctype="italic">Ihr</g> Server',
  'Tessera spricht die <g id="2" ctype="link">Lilt-API</g> & speichert Segmente auf <g id="1" ctype="bold">Ihrer eigenen</g> ' +
    'Hardware.<x id="3" ctype="lb"/> Führen Sie <ph id="4" ctype="x-code">&lt;code&gt;npm start&lt;/code&gt;</ph> aus, fertig.',
  'Markenname: <x id="2" ctype="x-span"/>\u00a02.0',
  'Das Tessera-Logo',
  null,
  'Mengenrabatte: a < b',
  'Tarif',
  'Preis',
  null,
  null,
  'Editor mit \'Treffer\'-Leiste "hier"',
  'Der Editor zeigt <g id="1" ctype="x-abbr">TM</g>-Treffer.',
  'Translation Memory',
  'Es hat uns Wochen gespart.',
  '<x id="1" ctype="x-input"/><g id="2" ctype="x-button">Suchen</g>',
  'Memories durchsuchen',
];

test('extract: block text, inline tags, attribute units with context; script, style, pre untouched', async () => {
  assert.deepEqual(await extract(page), PAGE_UNITS);
});

test('merge: translations spliced in with native markup restored, escaped, lang set; parse5 reads it cleanly', async () => {
  assert.deepEqual(parseErrors(page.toString('utf8')), []);
  const merged = await merge(page, PAGE_TRANSLATIONS);
  assert.deepEqual(parseErrors(merged), []);
  assert.ok(merged.startsWith('<!DOCTYPE html>\n<html lang="de">\n'));
  for (const line of [
    '<meta name="description" content="Tessera behält Ihre Translation Memories im Haus.">',
    '<li><a href="/docs" title="Dokumentation &quot;lesen&quot; &amp; mehr">Doku</a></li>',
    '<p>Tessera spricht die <a href="https://example.com/api?x=1&amp;y=2">Lilt-API</a> &amp; speichert Segmente auf ' +
      '<b>Ihrer eigenen</b> Hardware.<br> Führen Sie <code>npm start</code> aus, fertig.</p>',
    // The image the translation left out is kept, at the end.
    '<p>Markenname: <span translate="no">Tessera</span>&nbsp;2.0<img src="logo.png" alt="Das Tessera-Logo"></p>',
    '<div class="note">Prices exclude VAT. <!-- legal asked for this -->\n    <p>Mengenrabatte: a &lt; b</p>',
    '<tr><td>Team</td><td>€&nbsp;20</td></tr>',
    `<img src="editor.png" alt='Editor mit &#39;Treffer&#39;-Leiste "hier"'>`,
    '<figcaption>Der Editor zeigt <abbr title="Translation Memory">TM</abbr>-Treffer.</figcaption>',
    '<script>window.analytics = "Do not translate";</script>',
    '<pre>npm install\nnpm start</pre>',
  ]) {
    assert.ok(merged.includes(line), line);
  }
  // Read again, the merged page gives the translations (the untranslated units their source).
  const expected = PAGE_UNITS.map(([source], i) => PAGE_TRANSLATIONS[i] ?? source);
  // Tags are numbered in document order.
  expected[6] = expected[6]
    .replace('"2" ctype="link"', '"1" ctype="link"')
    .replace('"1" ctype="bold"', '"2" ctype="bold"');
  expected[7] = 'Markenname: <x id="1" ctype="x-span"/>\u00a02.0<x id="2" ctype="image"/>';
  assert.deepEqual(
    (await extract(merged)).map(([source]) => source),
    expected,
  );
});

test('tags the unit does not know, and unpaired ones, are dropped; text that spells a tag stays text', async () => {
  const html = '<p>Use <b>bold</b> for &lt;x/&gt; markers.</p>';
  const units = await extract(html);
  assert.deepEqual(units, [
    ['Use <g id="1" ctype="bold">bold</g> for <ph id="2">&lt;x/&gt;</ph> markers.', 'p'],
  ]);
  const merged = await merge(html, [
    '<g id="9">Fett</g> <g id="1" ctype="bold">fett</g>: <ph id="2">&lt;x/&gt;</ph>-Marken <x id="7"/></g>',
  ]);
  assert.equal(merged, '<p>Fett <b>fett</b>: &lt;x/&gt;-Marken </p>');
});

test('html lang is added when missing, quoted when unquoted; a fragment without <html> gets none', async () => {
  assert.equal(await merge('<html><p>Hi</p></html>', ['Hallo']), '<html lang="de"><p>Hallo</p></html>');
  assert.equal(
    await merge('<html lang=en><p>Hi</p></html>', ['Hallo']),
    '<html lang="de"><p>Hallo</p></html>',
  );
  assert.equal(
    await merge('<p>Hi <img src=a alt=Logo></p>', ['Hallo <x id="1"/>', 'Das Logo']),
    '<p>Hallo <img src=a alt="Das Logo"></p>',
  );
});

test('an attribute value keeps its edge whitespace in the file, as text does', async () => {
  const html = '<p><a href="/help" title=" Help\n">Help</a></p><img alt="&nbsp;Logo " src=x>';
  assert.deepEqual(await extract(html), [
    ['<g id="1" ctype="link">Help</g>', 'p'],
    ['Help', 'a[title]'],
    ['\u00a0Logo', 'img[alt]'],
  ]);
  // Was title="Hilfe" and alt="Das Logo": the value's spaces and its no-break space were lost.
  assert.equal(
    await merge(html, ['<g id="1">Hilfe</g>', 'Hilfe', '\u00a0Das Logo']),
    '<p><a href="/help" title=" Hilfe\n">Hilfe</a></p><img alt="&nbsp;Das Logo " src=x>',
  );
});

test('markup the parser repaired is never spanned by a unit, and merge keeps it', async () => {
  const html = '<p>One <b>bold<p>Two</b> three</span> four</p>';
  assert.deepEqual(await extract(html), [
    ['One <g id="1" ctype="bold">bold</g>', 'p'],
    ['Two', 'p'],
    ['three', 'p'],
    ['four', 'p'],
  ]);
  assert.equal(
    await merge(html, ['Eins <g id="1">fett</g>', 'Zwei', 'drei', 'vier']),
    '<p>Eins <b>fett<p>Zwei</b> drei</span> vier</p>',
  );
});

test('bytes that are not UTF-8 are a FormatError at their position', async () => {
  const bytes = Buffer.concat([Buffer.from('<p>ok</p>\n<p>caf'), Buffer.from([0xe9]), Buffer.from('</p>')]);
  await assert.rejects(htmlFilter.extract(bytes, langs), (err: unknown) => {
    assert.ok(err instanceof FormatError);
    assert.match(err.message, /HTML: invalid UTF-8 byte sequence/);
    assert.equal(err.line, 2);
    return true;
  });
});
