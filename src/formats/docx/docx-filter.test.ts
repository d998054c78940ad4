import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { buildDocx, fixturePart } from '../../../test/helpers/docx-fixture.ts';
import { FormatError } from '../../errors.ts';
import { scanXml } from '../../xml/xml-scan.ts';
import { docxFilter } from './docx-filter.ts';
import { MAX_COMPRESSION_RATIO, readZip } from './zip-package.ts';

const langs = { srclang: 'en', trglang: 'de' };
const UNITS = [
  ['Quarterly report', 'word/document.xml (Heading1)'],
  ['Revenue grew by <g id="1">12 percent</g> in <g id="2">Europe</g>.', 'word/document.xml'],
  [
    'Name:<x id="1" ctype="x-tab"/>Tessera & friends<x id="2" ctype="lb"/>See <g id="3" ctype="link">our website</g>' +
      ' (page <x id="4" ctype="x-fldChar"/>1<x id="5" ctype="x-fldChar"/>).',
    'word/document.xml',
  ],
  ['Figure: <x id="1" ctype="x-AlternateContent"/>Sales by region', 'word/document.xml'],
  ['Text in a box', 'word/document.xml'],
  ['Region', 'word/document.xml'],
  ['Growth <ph id="1">&lt;x/&gt;</ph>', 'word/document.xml'],
  ['Confidential – page', 'word/header1.xml'],
  ['Figures are unaudited.', 'word/footnotes.xml (FootnoteText)'],
];

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

const TRANSLATIONS = [
  'Quartalsbericht',
  'Der Umsatz stieg in <g id="2">Europa</g> um <g id="1">12 Prozent</g>.',
  'Name:<x id="1" ctype="x-tab"/>Tessera & Freunde<x id="2" ctype="lb"/>Siehe <g id="3" ctype="link">unsere Website</g>' +
    ' (Seite <x id="4" ctype="x-fldChar"/>1<x id="5" ctype="x-fldChar"/>).',
  'Abbildung: Umsatz nach Region',
  'Text in einem Feld',
  null,
  'Wachstum <ph id="1">&lt;x/&gt;</ph> < 5 %',
  'Vertraulich – Seite',
  'Zahlen sind ungeprüft.',
];

const extract = async (docx: Buffer) =>
  (await docxFilter.extract(docx, langs)).map((u) => [u.source, u.context]);

test('extract: paragraphs of document, text boxes, tables, header and footnotes; runs as tags', async () => {
  assert.deepEqual(await extract(await buildDocx()), UNITS);
});

test('merge: translated runs written back, every XML part well-formed, other entries copied unchanged', async () => {
  const docx = await buildDocx();
  const merged = await docxFilter.merge(docx, confirmed(TRANSLATIONS), langs);
  const before = await readZip(docx, 'original');
  const after = await readZip(merged, 'merged');
  assert.deepEqual(
    after.map((e) => [e.name, e.compressed]),
    before.map((e) => [e.name, e.compressed]),
  );
  for (const entry of after) {
    if (entry.name.endsWith('.xml') || entry.name.endsWith('.rels')) {
      assert.doesNotThrow(() => scanXml(entry.data.toString('utf8'), entry.name, {}), entry.name);
    }
    if (!['word/document.xml', 'word/header1.xml', 'word/footnotes.xml'].includes(entry.name)) {
      assert.ok(entry.data.equals(before.find((e) => e.name === entry.name)!.data), entry.name);
    }
  }
  const document = after.find((e) => e.name === 'word/document.xml')!.data.toString('utf8');
  for (const xml of [
    // Paragraph properties and the bookmark around the text stay where they were.
    '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:bookmarkStart w:id="0" w:name="_Toc1"/><w:r><w:t xml:space="preserve">Quartalsbericht</w:t></w:r><w:bookmarkEnd w:id="0"/>',
    // Each stretch of text in the formatting of its tag; the footnote reference after the text kept.
    '<w:r><w:t xml:space="preserve">Der Umsatz stieg in </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">Europa</w:t></w:r>' +
      '<w:r><w:t xml:space="preserve"> um </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">12 Prozent</w:t></w:r>' +
      '<w:r><w:t xml:space="preserve">.</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>',
    '<w:r><w:tab/></w:r><w:r><w:t xml:space="preserve">Tessera &amp; Freunde</w:t></w:r><w:r><w:br/></w:r>',
    '<w:hyperlink r:id="rId4" w:history="1"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t xml:space="preserve">unsere Website</w:t></w:r></w:hyperlink>',
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>',
    // The drawing the translation left out is kept (at the end), with its text box translated.
    '<w:r><w:t xml:space="preserve">Abbildung: Umsatz nach Region</w:t></w:r><w:r><mc:AlternateContent>',
    '<w:txbxContent><w:p><w:r><w:t xml:space="preserve">Text in einem Feld</w:t></w:r></w:p></w:txbxContent></wps:txbx>',
    '<w:p><w:r><w:t>Region</w:t></w:r></w:p>',
    '<w:t xml:space="preserve">Wachstum &lt;x/&gt; &lt; 5 %</w:t>',
  ]) {
    assert.ok(document.includes(xml), xml);
  }
  const header = after.find((e) => e.name === 'word/header1.xml')!.data.toString('utf8');
  assert.ok(
    header.includes(
      '<w:r><w:rPr><w:sz w:val="16"/></w:rPr><w:t xml:space="preserve">Vertraulich – Seite</w:t></w:r>' +
        '<w:r><w:rPr><w:sz w:val="16"/></w:rPr><w:t xml:space="preserve"> </w:t></w:r><w:fldSimple w:instr=" PAGE ">',
    ),
  );
  const footnotes = after.find((e) => e.name === 'word/footnotes.xml')!.data.toString('utf8');
  assert.ok(
    footnotes.includes(
      '<w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r><w:r><w:t xml:space="preserve">Zahlen sind ungeprüft.</w:t></w:r>',
    ),
  );

  // Read again: the translations (tags renumbered in document order; the drawing, now after the text, outside).
  const expected = UNITS.map(([source], i) => TRANSLATIONS[i] ?? source);
  expected[1] = 'Der Umsatz stieg in <g id="1">Europa</g> um <g id="2">12 Prozent</g>.';
  assert.deepEqual(
    (await extract(merged)).map(([source]) => source),
    expected,
  );
});

test('a zip bomb is refused', async () => {
  const size = 4 * 1024 * 1024;
  const docx = await buildDocx({}, (zip) =>
    zip.addBuffer(Buffer.alloc(size, 0x20), 'word/media/padding.bin'),
  );
  assert.ok(size / deflateRawSync(Buffer.alloc(size, 0x20)).length > MAX_COMPRESSION_RATIO);
  await assert.rejects(docxFilter.extract(docx, langs), (err: unknown) => {
    assert.ok(err instanceof FormatError);
    assert.match(
      err.message,
      /^DOCX: zip bomb refused: "word\/media\/padding.bin" inflates to 4194304 bytes/,
    );
    return true;
  });
});

test('an entry that inflates past the size its headers declare is refused', async () => {
  const docx = await buildDocx({}, (zip) =>
    zip.addBuffer(Buffer.alloc(50_000, 0x20), 'word/media/padding.bin'),
  );
  // Make the headers claim 1,000 bytes: inside every limit, so only the inflating itself can catch it.
  const name = Buffer.from('word/media/padding.bin');
  for (let at = docx.indexOf('PK\x01\x02'); at >= 0; at = docx.indexOf('PK\x01\x02', at + 4)) {
    if (!docx.subarray(at + 46, at + 46 + docx.readUInt16LE(at + 28)).equals(name)) continue;
    docx.writeUInt32LE(1000, at + 24);
    docx.writeUInt32LE(1000, docx.readUInt32LE(at + 42) + 22);
  }
  await assert.rejects(
    docxFilter.extract(docx, langs),
    /^FormatError: DOCX: damaged zip package \(too many bytes in the stream/,
  );
});

test('entry names with .. or an absolute path are refused', async () => {
  for (const [safe, unsafe] of [
    ['xx/evil.txt', '../evil.txt'],
    ['xetc/passwd', '/etc/passwd'],
  ]) {
    const docx = await buildDocx({}, (zip) => zip.addBuffer(Buffer.from('x'), safe));
    // yazl refuses to write such names: put them in by rewriting the bytes (same length, CRC unchanged).
    const forged = Buffer.from(docx.toString('latin1').split(safe).join(unsafe), 'latin1');
    await assert.rejects(docxFilter.extract(forged, langs), new RegExp(`unsafe zip entry name "${unsafe}"`));
  }
});

test('entity declarations in a part are refused', async () => {
  const xml = fixturePart('word/document.xml').replace(
    '<w:document',
    '<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<w:document',
  );
  await assert.rejects(
    docxFilter.extract(await buildDocx({ 'word/document.xml': xml }), langs),
    (err: unknown) => {
      assert.ok(err instanceof FormatError);
      assert.equal(
        err.message,
        'DOCX word/document.xml: entity declarations are not allowed at line 2, column 1',
      );
      return true;
    },
  );
});

test('malformed XML names the part, line and column; a non-zip or non-Word file says so', async () => {
  const broken =
    '<?xml version="1.0"?>\n<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">\n<w:p></w:hdr>';
  await assert.rejects(
    docxFilter.extract(await buildDocx({ 'word/header1.xml': broken }), langs),
    (err: unknown) => {
      assert.ok(err instanceof FormatError);
      assert.match(err.message, /^DOCX word\/header1.xml: malformed XML: unexpected close tag/);
      assert.deepEqual([err.line, err.column], [3, 14]);
      return true;
    },
  );
  await assert.rejects(docxFilter.extract(Buffer.from('plain text'), langs), /DOCX: not a zip package/);
  const types = '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';
  await assert.rejects(
    docxFilter.extract(await buildDocx({ '[Content_Types].xml': types }), langs),
    /DOCX: not a Word document \(no main document part\)/,
  );
});
