// Segment-edge whitespace through every format: planned sources never hold it (the unit's is in lead/trail),
// and a merge rebuilt from segments (unitText) writes the skeleton's once and a target's never — even a
// target saved with edge whitespace before it was trimmed on the way in.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { buildDocx, fixturePart } from '../../../test/helpers/docx-fixture.ts';
import { readZip } from '../../formats/docx/zip-package.ts';
import { filterByFormat } from '../../formats/registry.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import { joinPieces, planSegments, splitPiece, unitText } from './segment-plan.ts';

const options = { srclang: 'en', trglang: 'de' };

/** Each unit translated as «source» with edge whitespace around it: what a careless save once stored. */
async function translated(format: string, original: Buffer): Promise<Buffer> {
  const filter = filterByFormat(format)!;
  const units = await filter.extract(original, options);
  const segments = planSegments(units, 'en');
  for (const s of segments) assert.equal(withoutEdges(s.source), s.source, `${format}: ${JSON.stringify(s)}`);
  const withTargets = segments.map((s) => ({ ...s, target: ` \n«${s.source}»\n ` }));
  return filter.merge(
    original,
    units.map((_, i) => {
      const own = withTargets.filter((s) => s.unit_index === i);
      return own.length > 0 ? { text: unitText(own), confirmed: true } : null;
    }),
    options,
  );
}

const PO_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';

/** Format, original, the merge expected: every edge as the source has it, once. */
const CASES: [format: string, original: string, merged: string][] = [
  ['text', '  Indented paragraph.  \n\nSecond one.\n', '  «Indented paragraph.»  \n\n«Second one.»\n'],
  [
    'html',
    '<html><body><p>  Spaced. </p><dt> root </dt><p>\n  Two\n  lines.\n</p><td>Cell.<br></td><img alt=" Logo "></body></html>',
    // Whitespace inside an HTML paragraph is wrapping: the filter reads it as one space. A line break at a
    // unit's edge is its skeleton too, and so are an attribute value's spaces.
    '<html lang="de"><body><p>  «Spaced.» </p><dt> «root» </dt><p>\n  «Two lines.»\n</p><td>«Cell.»<br></td><img alt=" «Logo» "></body></html>',
  ],
  ['markdown', '# Title  \n\n  Para with edges.  \n', '# «Title»  \n\n  «Para with edges.»  \n'],
  [
    'json',
    '{"a": " lead and trail ", "b": "Exiting.\\n", "c": "two\\nlines"}',
    '{"a": " «lead and trail» ", "b": "«Exiting.»\\n", "c": "«two\\nlines»"}',
  ],
  [
    'yaml',
    'en:\n  a: " quoted edges "\n  b: "Exiting.\\n"\n  c: plain\n  d: |\n    block text\n',
    'de:\n  a: " «quoted edges» "\n  b: "«Exiting.»\\n"\n  c: «plain»\n  d: |\n    «block text»\n',
  ],
  [
    // Unquoted edge whitespace is not part of an Android string (the filter leaves it in the file); what a
    // string keeps at its edges is written as escapes (\u0020, \n) or quoted: the skeleton's, as PO's \n is.
    'android',
    '<resources><string name="a">\\u0020Hello</string><string name="b">  spaced  </string><string name="c">Line\\n</string><string name="d">"  Quoted "</string></resources>',
    '<resources><string name="a">\\u0020«Hello»</string><string name="b">  «spaced»  </string><string name="c">«Line»\\n</string><string name="d">"  «Quoted» "</string></resources>',
  ],
  [
    'xliff',
    '<?xml version="1.0"?><xliff version="1.2"><file original="a" source-language="en" target-language="de" datatype="plaintext"><body>' +
      '<trans-unit id="1"><source> Edge </source></trans-unit>' +
      '<trans-unit id="2"><source>Exiting.\n</source><target>Programmende.\n</target></trans-unit></body></file></xliff>',
    '<?xml version="1.0"?><xliff version="1.2"><file original="a" source-language="en" target-language="de" datatype="plaintext"><body>' +
      '<trans-unit id="1"><source> Edge </source><target state="translated"> «Edge» </target></trans-unit>' +
      '<trans-unit id="2"><source>Exiting.\n</source><target state="translated">«Exiting.»\n</target></trans-unit></body></file></xliff>',
  ],
  [
    'po',
    `${PO_HEADER}msgid "Exiting.\\n"\nmsgstr ""\n\nmsgid "  Usage: app\\n  -h  help\\n"\nmsgstr ""\n\nmsgid " Loading "\nmsgstr ""\n`,
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: de\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n\n' +
      'msgid "Exiting.\\n"\nmsgstr "«Exiting.»\\n"\n\n' +
      'msgid "  Usage: app\\n  -h  help\\n"\nmsgstr ""\n"  «Usage: app\\n"\n"  -h  help»\\n"\n\n' +
      'msgid " Loading "\nmsgstr " «Loading» "\n',
  ],
];

const hasMsgfmt = spawnSync('msgfmt', ['--version']).status === 0;

describe('segment-edge whitespace in every format', () => {
  for (const [format, original, merged] of CASES) {
    it(`${format}: the skeleton's edges once, a target's never`, async () => {
      const out = (await translated(format, Buffer.from(original))).toString('utf8');
      assert.equal(out, merged);
      if (format === 'po' && hasMsgfmt) {
        const check = spawnSync('msgfmt', ['-c', '-o', '/dev/null', '-'], { input: out });
        assert.equal(check.status, 0, check.stderr.toString());
      }
    });
  }

  it('docx: the runs of a paragraph keep its edges once', async () => {
    const body =
      '<w:p><w:r><w:t xml:space="preserve">  Leading and trailing. </w:t></w:r></w:p>' +
      '<w:p><w:r><w:t>Tab after</w:t></w:r><w:r><w:tab/></w:r></w:p>' +
      '<w:p><w:r><w:tab/><w:t>Tab and break in the run.</w:t><w:br/></w:r></w:p>';
    const original = await buildDocx({
      'word/document.xml': fixturePart('word/document.xml').replace('<w:body>', `<w:body>${body}`),
    });
    const out = await translated('docx', original);
    const xml = (await readZip(out, 'docx'))
      .find((e) => e.name === 'word/document.xml')!
      .data.toString('utf8');
    const first = xml.slice(xml.indexOf('<w:body>'), xml.indexOf('</w:p>', xml.indexOf('in the run')));
    const texts = [...first.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>|<w:tab\/>|<w:br\/>/g)].map(
      (m) => m[1] ?? (m[0] === '<w:tab/>' ? '\t' : '\n'),
    );
    // A tab and a break the run holds around the text are its edges too (they were the segment's tags, and
    // a translation without them had the tab written at the end).
    assert.deepEqual(texts, [
      '  ',
      '«Leading and trailing.»',
      ' ',
      '«Tab after»',
      '\t',
      '\t',
      '«Tab and break in the run.»',
      '\n',
    ]);
  });

  it('a line break tag at a target’s edge is written once: the skeleton’s', () => {
    const br = '<x id="1" ctype="lb"/>';
    // A draft filled from an entry that held the tag at its edge (stored before it went to the skeleton).
    assert.equal(
      unitText([{ lead: '', trail: br, source: 'Done.', target: `Fertig.${br}` }]),
      `Fertig.${br}`,
    );
    // A segment imported before: its source holds the tag, a target without it gets it from there.
    assert.equal(
      unitText([{ lead: '', trail: '', source: `Done.${br}`, target: 'Fertig.' }]),
      `Fertig.${br}`,
    );
    assert.equal(
      unitText([{ lead: '', trail: '', source: `Done.${br}`, target: `Fertig.${br}` }]),
      `Fertig.${br}`,
    );
  });
});

describe('segmentation modes, joining and splitting', () => {
  const unit = { source: 'One. Two.  Three.', segmentable: true };
  it('by sentence, or one segment per unit', () => {
    assert.deepEqual(
      planSegments([unit], 'en').map((s) => s.source),
      ['One.', 'Two.', 'Three.'],
    );
    assert.deepEqual(
      planSegments([unit], 'en', { by: 'unit' }).map((s) => s.source),
      ['One. Two.  Three.'],
    );
  });
  it('a join keeps the text between the segments, and the export of the two', () => {
    const [a, b] = planSegments([unit], 'en');
    const joined = joinPieces({ ...a, target: 'Eins.' }, b);
    assert.equal(joined.source, 'One. Two.');
    assert.equal(joined.target, 'Eins. Two.');
    assert.equal(unitText([joined]), unitText([{ ...a, target: 'Eins.' }, b]));
    assert.equal(joinPieces(a, b).target, null);
  });
  it('a split puts the whitespace at the cut in the skeleton; join and split are inverse', () => {
    const [whole] = planSegments([unit], 'en', { by: 'unit' });
    const piece = { ...whole, target: 'Eins. Zwei.  Drei.' };
    const [first, second] = splitPiece(piece, 'One. Two.'.length + 1, 'Eins. Zwei.'.length + 1)!;
    assert.deepEqual(
      [first.source, first.target, first.trail, second.lead, second.source, second.target],
      ['One. Two.', 'Eins. Zwei.', ' ', ' ', 'Three.', 'Drei.'],
    );
    assert.equal(unitText([first, second]), unitText([piece]));
    const { lead, trail, source, target } = piece;
    assert.deepEqual(joinPieces(first, second), { lead, trail, source, target });
    assert.equal(splitPiece(piece, 0), null);
  });
});
