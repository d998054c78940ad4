import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { FormatError } from '../../errors.ts';
import { markdownFilter } from './markdown-filter.ts';

const langs = { srclang: 'en', trglang: 'de' };
// .md.txt: Biome would reformat a .md fixture (and break its front matter).
const guide = readFileSync(new URL('fixtures/getting-started.md.txt', import.meta.url));

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

const extract = async (md: string | Buffer) =>
  (await markdownFilter.extract(Buffer.from(md), langs)).map((u) => [u.source, u.context]);
const merge = async (md: string | Buffer, translations: (string | null)[]) =>
  (await markdownFilter.merge(Buffer.from(md), confirmed(translations), langs)).toString('utf8');

/** The document's block structure: block node types and their nesting (paragraph and heading contents aside). */
function structure(md: string): unknown {
  const shape = (n: Root | Nodes): unknown => {
    if (n.type === 'heading') return `heading ${n.depth}`;
    if (n.type === 'paragraph' || !('children' in n)) return n.type;
    return [n.type, ...(n.children as Nodes[]).map(shape)];
  };
  return shape(fromMarkdown(md));
}

const GUIDE_UNITS = [
  ['Getting <g id="1" ctype="italic">started</g> with Tessera', 'heading 1'],
  [
    'Tessera is a <g id="1" ctype="bold">self-hosted</g> translation memory server. It speaks the ' +
      '<g id="2" ctype="link">Lilt API</g>, so your existing scripts keep working.',
    'paragraph',
  ],
  ['<g id="1" ctype="x-image">Architecture diagram</g>', 'paragraph'],
  ['Install', 'heading 2'],
  [
    'Run <ph id="1" ctype="x-inlineCode">`npm install`</ph> and then <ph id="2" ctype="x-inlineCode">`npm start`</ph>.' +
      '<x id="3" ctype="lb"/>The server listens on port 8080 & prints an API key.',
    'paragraph',
  ],
  ['<g id="1" ctype="bold">Note:</g> keys are shown once. Store them safely.', 'blockquote'],
  ['Create a <g id="1" ctype="link">memory</g>', 'list item'],
  ['Import your TMX files (up to 1 GB)', 'list item'],
  ['See <ph id="1" ctype="x-link">&lt;https://example.com/faq&gt;</ph> for help', 'list item'],
  ['Setting', 'table cell'],
  ['Default', 'table cell'],
  ['Meaning', 'table cell'],
  ['8080', 'table cell'],
  ['Port to <g id="1" ctype="italic">listen</g> on', 'table cell'],
  ['127.0.0.1', 'table cell'],
  ['Address | host name', 'table cell'],
  ['Setext heading', 'heading 2'],
];

const GUIDE_TRANSLATIONS = [
  'Erste Schritte mit <g id="1" ctype="italic">Tessera</g>',
  'Tessera spricht die <g id="2" ctype="link">Lilt-API</g> und ist ein <g id="1" ctype="bold">selbst gehosteter</g> ' +
    'Translation-Memory-Server [beta] mit *Sternen* & _Unterstrichen_, snake_case bleibt.',
  '<g id="1" ctype="x-image">Architekturdiagramm [v2]</g>',
  '#1 Installation',
  'Führen Sie <ph id="1" ctype="x-inlineCode">`npm install`</ph> und <ph id="2" ctype="x-inlineCode">`npm start`</ph> aus.' +
    '<x id="3" ctype="lb"/>- Der Server lauscht auf Port 8080 &amp; gibt einen <Schlüssel> aus.',
  '<g id="1" ctype="bold">Hinweis:</g> Schlüssel werden\neinmal angezeigt.',
  '1. Ein <g id="1" ctype="link">Memory</g> anlegen',
  null,
  'Hilfe: <ph id="1" ctype="x-link">&lt;https://example.com/faq&gt;</ph>',
  'Einstellung',
  'Standard',
  'Bedeutung',
  null,
  'Port, auf dem <g id="1" ctype="italic">gelauscht</g> wird',
  null,
  'Adresse | Hostname',
  '> Setext-Überschrift',
];

test('extract: headings, paragraphs, list items, quotes and table cells; code, HTML blocks and front matter left out', async () => {
  assert.deepEqual(await extract(guide), GUIDE_UNITS);
});

test('merge: same structure read again, translations escaped so they read back exactly, URLs untouched', async () => {
  const merged = await merge(guide, GUIDE_TRANSLATIONS);
  assert.deepEqual(structure(merged), structure(guide.toString('utf8')));
  const expected = GUIDE_UNITS.map(([source], i) => (GUIDE_TRANSLATIONS[i] ?? source).replace('\n', ' '));
  // Tags are numbered in document order.
  expected[1] = expected[1]
    .replace('"2" ctype="link"', '"1" ctype="link"')
    .replace('"1" ctype="bold"', '"2" ctype="bold"');
  assert.deepEqual(
    (await extract(merged)).map(([source]) => source),
    expected,
  );
  for (const line of [
    '---\ntitle: Getting started\ntags: [setup, install]\n---\n',
    '# Erste Schritte mit *Tessera*\n',
    'Tessera spricht die [Lilt-API](https://lilt.com/docs/api "Lilt REST API v2") und ist ein **selbst gehosteter** ' +
      'Translation-Memory-Server \\[beta\\] mit \\*Sternen\\* & \\_Unterstrichen\\_, snake_case bleibt.\n',
    '![Architekturdiagramm \\[v2\\]](docs/architecture.png)\n',
    '## \\#1 Installation\n',
    'Führen Sie `npm install` und `npm start` aus.\\\n\\- Der Server lauscht auf Port 8080 \\&amp; gibt einen \\<Schlüssel> aus.\n',
    '> **Hinweis:** Schlüssel werden einmal angezeigt.\n',
    '- 1\\. Ein [Memory][memories] anlegen\n',
    '| `TESSERA_HOST` | 127.0.0.1 | Adresse \\| Hostname |\n',
    '\\> Setext-Überschrift\n--------------\n',
    '```sh\nnpm install\nnpm start\n```\n',
  ]) {
    assert.ok(merged.includes(line), line);
  }
});

test('CRLF line ends and a BOM are kept', async () => {
  const md = '\ufeffIntro *text*\r\nwith a soft break.\r\n\r\n* item\r\n';
  const bytes = Buffer.from(md, 'utf8');
  assert.deepEqual(await extract(bytes), [
    ['Intro <g id="1" ctype="italic">text</g> with a soft break.', 'paragraph'],
    ['item', 'list item'],
  ]);
  const merged = await markdownFilter.merge(
    bytes,
    confirmed(['Einleitung <g id="1">Text</g>.', null]),
    langs,
  );
  assert.equal(merged.toString('utf8'), '\ufeffEinleitung *Text*.\r\n\r\n* item\r\n');
});

test('bytes that are not UTF-8 are a FormatError with a line', async () => {
  const bytes = Buffer.concat([
    Buffer.from('# Title\n\ncaf'),
    Buffer.from([0xe9]),
    Buffer.from(' au lait\n'),
  ]);
  await assert.rejects(markdownFilter.extract(bytes, langs), (err: unknown) => {
    assert.ok(err instanceof FormatError);
    assert.match(err.message, /Markdown: invalid UTF-8 byte sequence/);
    assert.equal(err.line, 3);
    return true;
  });
});
