// The deliverable is what the translator saw (issue 23): one test per format round-trips every item — edge
// whitespace, placeholders, inline tags — through the memory (a TMX import whose entries carry the edge
// whitespace real catalogs have, and placeholders and tags other than the document's, so that pre-translation
// projects them), the editor (targets sent as the editor sends them, confirmed) and the export, then asserts
// the exact text of every translated unit and has the format's own ecosystem check the file. Each format whose
// placeholders execute also confirms a target whose placeholders do not match: PO writes it fuzzy with a
// comment, the others refuse the export naming the segment, as document QA listed it beforehand.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { parse as parseHtml } from 'parse5';
import { parse as parseYaml } from 'yaml';
import { readZip } from '../src/formats/docx/zip-package.ts';
import { xliffFilter } from '../src/formats/xliff/xliff-filter.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { buildDocx } from './helpers/docx-fixture.ts';
import { storeTargets } from './helpers/stores.ts';
import { schemaErrors, schemaSkipReason } from './helpers/xmllint.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'deliverable');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

interface Segment {
  id: number;
  position: number;
  source: string;
  target: string | null;
  status: string;
  match_score: number | null;
}

interface QaIssue {
  segment_id: number;
  position: number;
  code: string;
  message: string;
  export?: string;
}

/** A translation unit of the memory's TMX: its source and target as <seg> content (XML). */
type TmxPair = [string, string];

interface FormatCase {
  name: string;
  load(): Buffer | Promise<Buffer>;
  /** The memory: what real catalogs hold, edge whitespace included. */
  memory: TmxPair[];
  /** After pre-translation (auto-accept exact): source → [target, confirmed] of the segments it filled. */
  pretranslated: Record<string, [string, boolean]>;
  /** What the translator types for every other segment, tags as the source holds them: source → target. */
  typed: Record<string, string>;
  /** The text of the exported original (DOCX: the paragraphs of its parts). */
  text?(merged: Buffer): string | Promise<string>;
  /** What `text` must give: every translated unit exactly. */
  expected: string;
  /** The format's own tool accepts the exported original. */
  accept(merged: Buffer): void | Promise<void>;
  /** A format whose placeholders execute: a confirmed target whose placeholders do not match. */
  mismatch?: { source: string; target: string; problem: string; export: 'fuzzy' | 'blocked'; fuzzy?: string };
}

// In CI a missing tool fails the test (the helper's rule); elsewhere its tests are skipped, saying why.
const skipReason =
  schemaSkipReason ??
  (spawnSync('msgfmt', ['--version']).status === 0 || process.env.CI === 'true'
    ? undefined
    : 'msgfmt not installed (apt-get install gettext): deliverable tests SKIPPED');

/** xmllint --noout on XML text: "" when well-formed, else what it printed. */
function xmlErrors(xml: Buffer | string): string {
  const run = spawnSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.status === 0 ? '' : run.stderr;
}

/** msgfmt -c on a catalog: its exit status and what it printed (with --statistics). */
function msgfmt(po: Buffer | string) {
  const run = spawnSync('msgfmt', ['-c', '--statistics', '-o', '/dev/null', '-'], { input: po });
  return { status: run.status, stderr: run.stderr.toString() };
}

/** A file's lines, joined. */
const lines = (...text: string[]) => text.join('\n');

const utf8 = (data: Buffer) => new TextDecoder('utf-8', { fatal: true }).decode(data);

const tmx = (pairs: readonly TmxPair[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="catalogs" creationtoolversion="1" segtype="sentence" o-tmf="po" adminlang="en" srclang="en" datatype="plaintext"/>
<body>
${pairs.map(([s, t]) => `<tu><tuv xml:lang="en"><seg>${s}</seg></tuv><tuv xml:lang="de"><seg>${t}</seg></tuv></tu>`).join('\n')}
</body></tmx>`;

const EXITING: TmxPair = ['Exiting.\n', 'Programmende.\n'];
const DONE: TmxPair = ['Done.\n', 'Fertig.\n'];

const CASES: FormatCase[] = [
  {
    name: 'notes.txt',
    load: () => fixture('notes.txt'),
    memory: [
      EXITING,
      [
        'Press %d to continue, or wait {n} seconds.',
        'Drücken Sie %d, um fortzufahren, oder warten Sie {n} Sekunden.',
      ],
    ],
    pretranslated: {
      'Exiting.': ['Programmende.', true],
      'Press %s to continue, or wait {count} seconds.': [
        'Drücken Sie %s, um fortzufahren, oder warten Sie {count} Sekunden.',
        false,
      ],
    },
    typed: {
      'Welcome to Tessera.': 'Willkommen bei Tessera.',
      'Read these notes first.': 'Lesen Sie zuerst diese Hinweise.',
    },
    expected: lines(
      '  Willkommen bei Tessera.',
      '    Lesen Sie zuerst diese Hinweise.',
      '',
      'Drücken Sie %s, um fortzufahren, oder warten Sie {count} Sekunden.',
      '',
      'Programmende.',
      '',
    ),
    accept: (merged) => void utf8(merged),
  },
  {
    name: 'app.po',
    load: () => fixture('app.po'),
    memory: [
      EXITING,
      [
        'Usage: app [options]\n  -h  show this help\n',
        'Aufruf: app [Optionen]\n  -h  diese Hilfe anzeigen\n',
      ],
      ['Delete %d files?', '%d Dateien löschen?'],
      [
        '&lt;i&gt;Warning:&lt;/i&gt; the disk is full &amp;amp; read-only',
        '&lt;i&gt;Warnung:&lt;/i&gt; die Festplatte ist voll &amp;amp; schreibgeschützt',
      ],
      ['%d files removed\n', '%d Dateien entfernt\n'],
      ['Done.\n', 'Fertig.\n'],
    ],
    pretranslated: {
      'Exiting.': ['Programmende.', true],
      'Usage: app [options]\n  -h  show this help': [
        'Aufruf: app [Optionen]\n  -h  diese Hilfe anzeigen',
        true,
      ],
      'Delete %s files?': ['%s Dateien löschen?', false],
      '<b>Warning:</b> the disk is full &amp; read-only': [
        '<b>Warnung:</b> die Festplatte ist voll &amp; schreibgeschützt',
        false,
      ],
      '%d files removed': ['%d Dateien entfernt', true],
      'Done.': ['Fertig.', true],
    },
    typed: {
      '%1$s of %2$d files copied': '%2$d Dateien kopiert: %1$s',
      '%d file removed': '%d Datei entfernt',
      'Loading…': 'Wird geladen…',
    },
    expected: lines(
      'msgid ""',
      'msgstr ""',
      '"Content-Type: text/plain; charset=UTF-8\\n"',
      '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
      '"Language: de\\n"',
      '"Content-Transfer-Encoding: 8bit\\n"',
      '',
      'msgid "Exiting.\\n"',
      'msgstr "Programmende.\\n"',
      '',
      'msgid ""',
      '"Usage: app [options]\\n"',
      '"  -h  show this help\\n"',
      'msgstr ""',
      '"Aufruf: app [Optionen]\\n"',
      '"  -h  diese Hilfe anzeigen\\n"',
      '',
      '#, c-format',
      'msgid "Delete %s files?"',
      'msgstr "%s Dateien löschen?"',
      '',
      '#, c-format',
      'msgid "%1$s of %2$d files copied"',
      'msgstr "%2$d Dateien kopiert: %1$s"',
      '',
      'msgid "<b>Warning:</b> the disk is full &amp; read-only"',
      'msgstr "<b>Warnung:</b> die Festplatte ist voll &amp; schreibgeschützt"',
      '',
      '#, c-format',
      'msgid "%d file removed\\n"',
      'msgid_plural "%d files removed\\n"',
      'msgstr[0] "%d Datei entfernt\\n"',
      'msgstr[1] "%d Dateien entfernt\\n"',
      '',
      'msgid "\\n"',
      '"Done.\\n"',
      'msgstr ""',
      '"\\n"',
      '"Fertig.\\n"',
      '',
      'msgid "  Loading…  "',
      'msgstr "  Wird geladen…  "',
      '',
    ),
    mismatch: {
      source: 'Delete %s files?',
      target: 'Dateien löschen?',
      problem: 'Placeholder %s of the source is missing',
      export: 'fuzzy',
      fuzzy: lines(
        '# Tessera: fuzzy, its placeholders would not run: Placeholder %s of the source is missing',
        '#, fuzzy, c-format',
        'msgid "Delete %s files?"',
        'msgstr "Dateien löschen?"',
        '',
      ),
    },
    accept(merged) {
      const checked = msgfmt(merged);
      assert.equal(checked.status, 0, checked.stderr);
    },
  },
  {
    name: 'app.json',
    load: () => fixture('app.json'),
    memory: [
      EXITING,
      ['You have {{total}} new files', 'Sie haben {{total}} neue Dateien'],
      ['Usage: app\n  -h  help\n', 'Aufruf: app\n  -h  Hilfe\n'],
    ],
    pretranslated: {
      'Exiting.': ['Programmende.', true],
      'You have <ph id="1">{{count}}</ph> new files': [
        'Sie haben <ph id="1">{{count}}</ph> neue Dateien',
        false,
      ],
      'Usage: app\n  -h  help': ['Aufruf: app\n  -h  Hilfe', true],
    },
    typed: {
      // A placeholder typed rather than copied from the source.
      'Hello <ph id="1">{name}</ph>, welcome back!': 'Hallo {name}, willkommen zurück!',
      '<ph id="1">{count, plural, one {</ph><ph id="2">#</ph> file removed<ph id="3">} other {</ph><ph id="4">#</ph> files removed<ph id="5">}}</ph>':
        '<ph id="1">{count, plural, one {</ph><ph id="2">#</ph> Datei entfernt<ph id="3">} other {</ph><ph id="4">#</ph> Dateien entfernt<ph id="5">}}</ph>',
      'Click <ph id="1">&lt;1&gt;</ph>Save<ph id="2">&lt;/1&gt;</ph> to keep it':
        'Klicken Sie auf <ph id="1">&lt;1&gt;</ph>Speichern<ph id="2">&lt;/1&gt;</ph>, um es zu behalten',
    },
    expected: lines(
      '{',
      '  "exit": " Programmende. ",',
      '  "files": "Sie haben {{count}} neue Dateien",',
      '  "greeting": "Hallo {name}, willkommen zurück!",',
      '  "removed": "{count, plural, one {# Datei entfernt} other {# Dateien entfernt}}",',
      '  "usage": "Aufruf: app\\n  -h  Hilfe\\n",',
      '  "nested": {',
      '    "save": "Klicken Sie auf <1>Speichern</1>, um es zu behalten"',
      '  }',
      '}',
      '',
    ),
    mismatch: {
      source: 'You have <ph id="1">{{count}}</ph> new files',
      target: 'Sie haben neue Dateien',
      problem: 'Placeholder {{count}} of the source is missing',
      export: 'blocked',
    },
    accept: (merged) => void JSON.parse(utf8(merged)),
  },
  {
    name: 'page.html',
    load: () => fixture('page.html'),
    memory: [
      DONE,
      ['Manual', 'Handbuch'],
      ['Root', 'Wurzel'],
      [
        'Press <bpt i="1">&lt;a href="/docs"&gt;</bpt>Help<ept i="1">&lt;/a&gt;</ept> or run <ph>&lt;code&gt;msgfmt&lt;/code&gt;</ph>.',
        'Drücken Sie <bpt i="1">&lt;a href="/docs"&gt;</bpt>Hilfe<ept i="1">&lt;/a&gt;</ept> oder führen Sie <ph>&lt;code&gt;msgfmt&lt;/code&gt;</ph> aus.',
      ],
    ],
    pretranslated: {
      // The cell's trailing <br> is edge whitespace, the skeleton's: an exact match (it was the segment's tag,
      // `Done.<x id="1" ctype="lb"/>`, and the entry filled it as a draft without it).
      'Done.': ['Fertig.', true],
      Manual: ['Handbuch', true],
      'Press <g id="1" ctype="link">Help</g> or run <ph id="2" ctype="x-code">&lt;code&gt;gettext&lt;/code&gt;</ph>.':
        [
          'Drücken Sie <g id="1" ctype="link">Hilfe</g> oder führen Sie <ph id="2" ctype="x-code">&lt;code&gt;gettext&lt;/code&gt;</ph> aus.',
          false,
        ],
      // A case-only match is no longer confirmed: the user name stays the translator's to decide.
      root: ['Wurzel', false],
    },
    typed: {
      'Read the <g id="1" ctype="bold">manual</g><x id="2" ctype="lb"/> before you start.':
        'Lesen Sie das <g id="1" ctype="bold">Handbuch</g><x id="2" ctype="lb"/> vor dem Start.',
      root: 'root',
      'The administrator.': 'Der Administrator.',
      // The title attribute's: its value's edge spaces stay (they were lost: title="Hilfe").
      Help: 'Hilfe',
      'Loading…': 'Wird geladen…',
    },
    expected: lines(
      '<!DOCTYPE html>',
      '<html lang="de">',
      '<head><meta charset="utf-8"><title>Handbuch</title></head>',
      '<body>',
      '<p>',
      '  Lesen Sie das <b>Handbuch</b><br> vor dem Start.',
      '</p>',
      '<p>Drücken Sie <a href="/help" title=" Hilfe ">Hilfe</a> oder führen Sie <code>gettext</code> aus.</p>',
      '<p>&nbsp;Wird geladen…&nbsp;</p>',
      '<table><tr><td>Fertig.<br></td></tr></table>',
      '<dl><dt>root</dt><dd>Der Administrator.</dd></dl>',
      '</body>',
      '</html>',
      '',
    ),
    accept(merged) {
      const errors: string[] = [];
      parseHtml(utf8(merged), { onParseError: (e) => errors.push(e.code) });
      assert.deepEqual(errors, []);
    },
  },
  {
    name: 'guide.md',
    load: () => fixture('guide.md'),
    memory: [
      EXITING,
      ['Getting started', 'Erste Schritte'],
      [
        'Press <bpt i="1">[</bpt>Help<ept i="1">](https://example.com/docs)</ept> or run <ph>`msgfmt`</ph>.',
        'Drücken Sie <bpt i="1">[</bpt>Hilfe<ept i="1">](https://example.com/docs)</ept> oder führen Sie <ph>`msgfmt`</ph> aus.',
      ],
    ],
    pretranslated: {
      'Exiting.': ['Programmende.', true],
      'Getting started': ['Erste Schritte', true],
      'Press <g id="1" ctype="link">Help</g> or run <ph id="2" ctype="x-inlineCode">`gettext`</ph>.': [
        'Drücken Sie <g id="1" ctype="link">Hilfe</g> oder führen Sie <ph id="2" ctype="x-inlineCode">`gettext`</ph> aus.',
        false,
      ],
    },
    typed: {
      'Read the <g id="1" ctype="italic">manual</g><x id="2" ctype="lb"/>before you start.':
        'Lesen Sie das <g id="1" ctype="italic">Handbuch</g><x id="2" ctype="lb"/>vor dem Start.',
      'Press <ph id="1" ctype="x-html">&lt;kbd&gt;</ph>Ctrl<ph id="2" ctype="x-html">&lt;/kbd&gt;</ph>+<g id="3" ctype="bold">S</g> to save {{ site.name }}.':
        'Drücken Sie <ph id="1" ctype="x-html">&lt;kbd&gt;</ph>Strg<ph id="2" ctype="x-html">&lt;/kbd&gt;</ph>+<g id="3" ctype="bold">S</g>, um {{ site.name }} zu speichern.',
    },
    expected: lines(
      '# Erste Schritte',
      '',
      'Lesen Sie das *Handbuch*  ',
      'vor dem Start.',
      '',
      'Drücken Sie [Hilfe](https://example.com/help) oder führen Sie `gettext` aus.',
      '',
      '  Programmende.   ',
      '',
      '- Drücken Sie <kbd>Strg</kbd>+**S**, um {{ site.name }} zu speichern.',
      '',
    ),
    accept(merged) {
      assert.ok(fromMarkdown(utf8(merged)).children.length > 0);
    },
  },
  {
    name: 'letter.docx',
    load: () => buildDocx({ 'word/document.xml': fixture('document.xml').toString() }),
    async text(merged) {
      const parts = await readZip(merged, 'letter.docx');
      return ['word/document.xml', 'word/header1.xml', 'word/footnotes.xml']
        .flatMap(
          (name) =>
            parts
              .find((e) => e.name === name)!
              .data.toString()
              .match(/<w:p[ >].*?<\/w:p>/g)!,
        )
        .join('\n');
    },
    memory: [
      DONE,
      EXITING,
      [
        'Dear <ph x="1">«Name»</ph>, you have new messages.',
        'Hallo <ph x="1">«Name»</ph>, Sie haben neue Nachrichten.',
      ],
    ],
    // The run's leading <w:tab/> and trailing <w:br/> are edge whitespace: `Done.` is an exact match, and the
    // tab stays before the text (it was the segment's tag, and a translation without it had it written after).
    pretranslated: {
      'Done.': ['Fertig.', true],
      'Exiting.': ['Programmende.', true],
      'Dear <x id="1" ctype="x-fldSimple"/>, you have new messages.': [
        'Hallo <x id="1" ctype="x-fldSimple"/>, Sie haben neue Nachrichten.',
        false,
      ],
    },
    typed: {
      'Click <g id="1">Save</g> or read <g id="2" ctype="link">the help</g>.<x id="3" ctype="lb"/>Then close it.':
        'Klicken Sie auf <g id="1">Speichern</g> oder lesen Sie <g id="2" ctype="link">die Hilfe</g>.<x id="3" ctype="lb"/>Schließen Sie sie dann.',
      'Confidential – page': 'Vertraulich – Seite',
      'Figures are unaudited.': 'Die Zahlen sind ungeprüft.',
      '<g id="1">Note: </g>the file is read-only.': '<g id="1">Hinweis: </g>die Datei ist schreibgeschützt.',
    },
    expected: lines(
      '<w:p><w:r><w:t xml:space="preserve">  </w:t></w:r><w:r><w:t xml:space="preserve">Programmende.</w:t></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r></w:p>',
      '<w:p><w:r><w:t xml:space="preserve">Hallo </w:t></w:r><w:fldSimple w:instr=" MERGEFIELD FirstName "><w:r><w:t>«FirstName»</w:t></w:r></w:fldSimple><w:r><w:t xml:space="preserve">, Sie haben neue Nachrichten.</w:t></w:r></w:p>',
      '<w:p><w:r><w:t xml:space="preserve">Klicken Sie auf </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Speichern</w:t></w:r><w:r><w:t xml:space="preserve"> oder lesen Sie </w:t></w:r><w:hyperlink r:id="rId4" w:history="1"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t xml:space="preserve">die Hilfe</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve">.</w:t></w:r><w:r><w:br/></w:r><w:r><w:t xml:space="preserve">Schließen Sie sie dann.</w:t></w:r></w:p>',
      '<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve"> </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Hinweis: </w:t></w:r><w:r><w:t xml:space="preserve">die Datei ist schreibgeschützt.</w:t></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r></w:p>',
      '<w:p><w:r><w:tab/></w:r><w:r><w:t xml:space="preserve">Fertig.</w:t></w:r><w:r><w:br/></w:r></w:p>',
      '<w:p><w:pPr><w:jc w:val="right"/></w:pPr><w:r><w:rPr><w:sz w:val="16"/></w:rPr><w:t xml:space="preserve">Vertraulich – Seite</w:t></w:r><w:r><w:rPr><w:sz w:val="16"/></w:rPr><w:t xml:space="preserve"> </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>',
      '<w:p><w:r><w:separator/></w:r></w:p>',
      '<w:p><w:r><w:continuationSeparator/></w:r></w:p>',
      '<w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r><w:r><w:t xml:space="preserve">Die Zahlen sind ungeprüft.</w:t></w:r></w:p>',
    ),
    async accept(merged) {
      for (const entry of await readZip(merged, 'letter.docx')) {
        if (entry.name.endsWith('.xml') || entry.name.endsWith('.rels'))
          assert.equal(xmlErrors(entry.data), '', entry.name);
      }
    },
  },
  {
    name: 'strings.xml',
    load: () => fixture('strings.xml'),
    memory: [
      EXITING,
      ['Welcome, %s! You have %d messages.', 'Willkommen, %s! Sie haben %d Nachrichten.'],
      ['%d files removed\n', '%d Dateien entfernt\n'],
      ['Done.\n', 'Fertig.\n'],
    ],
    // `"  Loading…  "` and `Done.\n`: edge whitespace as Android writes it is the skeleton's (the segments were
    // `"  Loading…  "` and `Done.\n`, which the memory's `Done.` did not even match). A string is one segment,
    // however many sentences it holds (issue 25).
    pretranslated: {
      'Exiting.': ['Programmende.', true],
      'Welcome, %1$s! You have %2$d messages.': ['Willkommen, %1$s! Sie haben %2$d Nachrichten.', false],
      '%d files removed': ['%d Dateien entfernt', true],
      'Done.': ['Fertig.', true],
    },
    typed: {
      '%d file removed': '%d Datei entfernt',
      'Loading…': 'Wird geladen…',
      'Tap <bpt id="1">&lt;b&gt;</bpt>Save<ept id="1">&lt;/b&gt;</ept> to keep it':
        'Tippen Sie auf <bpt id="1">&lt;b&gt;</bpt>Speichern<ept id="1">&lt;/b&gt;</ept>, um es zu behalten',
    },
    expected: lines(
      '<?xml version="1.0" encoding="utf-8"?>',
      '<resources>',
      '    <string name="exit">',
      '        Programmende.',
      '    </string>',
      '    <string name="loading">"  Wird geladen…  "</string>',
      '    <string name="done">Fertig.\\n</string>',
      '    <string name="welcome">Willkommen, %1$s! Sie haben %2$d Nachrichten.</string>',
      '    <plurals name="removed">',
      '        <item quantity="one">%d Datei entfernt</item>',
      '        <item quantity="other">%d Dateien entfernt</item>',
      '    </plurals>',
      '    <string name="save">Tippen Sie auf <b>Speichern</b>, um es zu behalten</string>',
      '</resources>',
      '',
    ),
    mismatch: {
      source: 'Welcome, %1$s! You have %2$d messages.',
      target: 'Willkommen! Sie haben %2$d Nachrichten.',
      problem: 'Placeholder %1$s of the source is missing',
      export: 'blocked',
    },
    accept: (merged) => assert.equal(xmlErrors(merged), ''),
  },
  {
    name: 'en.yml',
    load: () => fixture('en.yml'),
    memory: [
      EXITING,
      ['%{total} new files', '%{total} neue Dateien'],
      ['Usage: app\n  -h  help\n', 'Aufruf: app\n  -h  Hilfe\n'],
    ],
    pretranslated: {
      'Exiting.': ['Programmende.', true],
      '<ph id="1">%{count}</ph> new files': ['<ph id="1">%{count}</ph> neue Dateien', false],
      'Usage: app\n  -h  help': ['Aufruf: app\n  -h  Hilfe', true],
    },
    typed: {
      'Click <b>Save</b> to keep it': 'Klicken Sie auf <b>Speichern</b>, um es zu behalten',
      'Loading…': 'Wird geladen…',
      'Read the manual before you start.': 'Lesen Sie das Handbuch vor dem Start.',
    },
    expected: lines(
      'de:',
      '  exit: " Programmende. "',
      "  loading: '  Wird geladen…  '",
      '  files: "%{count} neue Dateien"',
      '  usage: |',
      '    Aufruf: app',
      '      -h  Hilfe',
      '  notice: |',
      '    Lesen Sie das Handbuch vor dem Start.',
      '  save: "Klicken Sie auf <b>Speichern</b>, um es zu behalten"',
      '',
    ),
    mismatch: {
      source: '<ph id="1">%{count}</ph> new files',
      target: 'neue Dateien',
      problem: 'Placeholder %{count} of the source is missing',
      export: 'blocked',
    },
    accept(merged) {
      const data = parseYaml(utf8(merged));
      assert.deepEqual(Object.keys(data), ['de']);
    },
  },
  {
    name: 'app.xlf',
    load: () => fixture('app.xlf'),
    memory: [
      EXITING,
      ['Delete %d files? You have {n} left.', '%d Dateien löschen? Sie haben noch {n}.'],
      [
        'Click <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> to keep<ph x="2">&lt;br/&gt;</ph> the file.',
        'Klicken Sie auf <bpt i="1">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept>, um die Datei<ph x="2">&lt;br/&gt;</ph> zu behalten.',
      ],
    ],
    pretranslated: {
      'Exiting.': ['Programmende.', true],
      // A unit of a bilingual file is one segment, however many sentences it holds (issue 25).
      'Delete %s files? You have {count} left.': ['%s Dateien löschen? Sie haben noch {count}.', false],
      'Click <g id="1">Save</g> to keep<x id="2"/> the file.': [
        'Klicken Sie auf <g id="1">Speichern</g>, um die Datei<x id="2"/> zu behalten.',
        false,
      ],
    },
    typed: { 'Loading…': 'Wird geladen…' },
    expected: lines(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
      '  <file original="app" source-language="en" target-language="de" datatype="plaintext">',
      '    <body>',
      '      <trans-unit id="exit" xml:space="preserve">',
      '        <source> Exiting. </source>',
      '        <target state="translated"> Programmende. </target>',
      '      </trans-unit>',
      '      <trans-unit id="loading">',
      '        <source>',
      '          Loading…',
      '        </source>',
      '        <target state="translated">',
      '          Wird geladen…',
      '        </target>',
      '      </trans-unit>',
      '      <trans-unit id="files">',
      '        <source>Delete %s files? You have {count} left.</source>',
      '        <target state="translated">%s Dateien löschen? Sie haben noch {count}.</target>',
      '      </trans-unit>',
      '      <trans-unit id="save">',
      '        <source>Click <g id="1">Save</g> to keep<x id="2"/> the file.</source>',
      '        <target state="translated">Klicken Sie auf <g id="1">Speichern</g>, um die Datei<x id="2"/> zu behalten.</target>',
      '      </trans-unit>',
      '    </body>',
      '  </file>',
      '</xliff>',
      '',
    ),
    accept: (merged) => assert.equal(schemaErrors(merged.toString()), ''),
  },
];

for (const target of await storeTargets()) {
  describe(`the deliverable is what the translator saw, on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    async function projectWithMemory(name: string, pairs: readonly TmxPair[]) {
      const memoryId = (await api.post('/v2/memories', { name, srclang: 'en', trglang: 'de' })).json().id;
      const res = await api.upload('/v2/memories/import', tmx(pairs), {
        'lilt-api': JSON.stringify({ memory_id: memoryId, name: `${name}.tmx` }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const task = await api.waitForTask(res.json().task_id);
      assert.equal(task.state, 'succeeded', JSON.stringify(task));
      assert.equal(task.result.imported, pairs.length, JSON.stringify(task.result));
      return (await api.post('/v2/projects', { name, memory_id: memoryId })).json().id as number;
    }

    async function waitFor(id: number, done: (doc: Record<string, unknown>) => boolean) {
      for (let i = 0; i < 3000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (done(doc)) return doc;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`document ${id} stuck`);
    }

    const segmentsOf = async (id: number) =>
      (await api.get(`/v2/documents/segments?id=${id}&limit=1000`)).json().segments as Segment[];

    async function confirm(segment: Segment, text: string) {
      const res = await api.put('/v2/segments', { id: segment.id, target: text, is_confirmed: true });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'confirmed');
    }

    for (const c of CASES) {
      test(c.name, { skip: skipReason }, async () => {
        const projectId = await projectWithMemory(c.name, c.memory);
        const upload = await api.upload('/v2/documents/files', await c.load(), {
          'lilt-api': JSON.stringify({ name: c.name, project_id: projectId }),
        });
        assert.equal(upload.statusCode, 200, upload.body);
        const id = upload.json().id as number;
        const imported = await waitFor(id, (d) => !d.import_in_progress);
        assert.equal(imported.import_succeeded, true, String(imported.import_error_message));

        const pre = await api.post('/v2/documents/pretranslate', { id: [id], auto_accept: true });
        assert.equal(pre.statusCode, 202, pre.body);
        await waitFor(id, (d) => !d.is_pretranslating);
        const segments = await segmentsOf(id);
        // Every segment is either filled from the memory or typed: the test covers every item of the file.
        assert.deepEqual(
          segments.map((s) => s.source).sort(),
          [...new Set([...Object.keys(c.pretranslated), ...Object.keys(c.typed)])].sort(),
        );
        const filled = Object.fromEntries(
          segments
            .filter((s) => s.target !== null)
            .map((s) => [s.source, [s.target, s.status === 'confirmed']]),
        );
        assert.deepEqual(filled, c.pretranslated);

        // The translator confirms the drafts as pre-translation wrote them, and types the rest.
        for (const s of segments) {
          const typed = c.typed[s.source];
          if (typed !== undefined) await confirm(s, typed);
          else if (s.status !== 'confirmed') await confirm(s, s.target!);
        }

        const merged = await api.get(`/v2/documents/files?id=${id}&is_xliff=false`);
        assert.equal(merged.statusCode, 200, merged.body);
        const text = await (c.text ?? utf8)(merged.rawPayload);
        assert.equal(text, c.expected);
        await c.accept(merged.rawPayload);

        const xliff = await api.get(`/v2/documents/files?id=${id}&is_xliff=true`);
        assert.equal(xliff.statusCode, 200);
        assert.equal(schemaErrors(xliff.body), '');
        const units = await xliffFilter.extract(xliff.rawPayload, { srclang: 'en', trglang: 'de' });
        const confirmed = await segmentsOf(id);
        assert.deepEqual(
          units.map((u) => [u.source, u.target, u.state]),
          confirmed.map((s) => [s.source, s.target, 'translated']),
        );

        const m = c.mismatch;
        if (!m) return;
        const wrong = confirmed.find((s) => s.source === m.source)!;
        await confirm(wrong, m.target);
        const qa = await api.get(`/v2/documents/qa?id=${id}`);
        assert.equal(qa.statusCode, 200, qa.body);
        const issues = qa.json().issues as QaIssue[];
        assert.equal(issues[0]?.segment_id, wrong.id, JSON.stringify(issues));
        const listed = issues.filter((i) => i.export !== undefined);
        assert.deepEqual(
          listed.map((i) => [i.segment_id, i.message, i.export]),
          [[wrong.id, m.problem, m.export]],
        );
        const exported = await api.get(`/v2/documents/files?id=${id}&is_xliff=false`);
        if (m.export === 'blocked') {
          assert.equal(exported.statusCode, 422, exported.body);
          const answer = exported.json();
          assert.equal(answer.code, 'EXPORT_BLOCKED');
          assert.match(answer.message, new RegExp(`confirmed segment ${wrong.position + 1} would not run`));
          assert.deepEqual(
            answer.segments.map((s: { segment_id: number }) => s.segment_id),
            [wrong.id],
          );
        } else {
          assert.equal(exported.statusCode, 200, exported.body);
          assert.ok(exported.body.includes(m.fuzzy!), exported.body);
          await c.accept(exported.rawPayload);
        }
      });
    }
  });
}
