import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schemaErrors, schemaSkipReason } from '../../../test/helpers/xmllint.ts';
import { xliffFilter } from './xliff-filter.ts';
import { toXliffInline } from './xliff-inline.ts';
import { writeXliff, type XliffUnit } from './xliff-writer.ts';

const langs = { srclang: 'en', trglang: 'de' };

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

async function xliffOf(units: XliffUnit[], datatype = 'html'): Promise<string> {
  const chunks = await collect(writeXliff({ original: 'guide.html', ...langs, datatype, units }));
  return chunks.join('');
}

// Tagged text as the filters and the editor produce it: canonical XLIFF-form tags.
const ROUND_TRIP_UNITS: XliffUnit[] = [
  {
    id: 101,
    source: 'Press <g id="1" ctype="bold">Save</g> & wait <x id="2" ctype="lb"/>now.',
    target: 'Drücken Sie <g id="1" ctype="bold">Speichern</g> & warten Sie <x id="2" ctype="lb"/>jetzt.',
    state: 'translated',
    context: 'p',
    notes: ['Button label', 'Keep "Save" bold'],
  },
  { id: 102, source: 'Use a < b and c > d, not &amp;.', target: null },
  {
    id: 103,
    source: 'Code <ph id="1">&lt;br/&gt;</ph> and <bpt id="2">&lt;i&gt;</bpt>it<ept id="2">&lt;/i&gt;</ept>',
  },
  {
    id: 104,
    source: '<g id="1">Opened here.',
    target: '<g id="1">Hier geöffnet.',
    state: 'needs-review-translation',
  },
  { id: 105, source: 'Closed here.</g>', target: 'Hier geschlossen.</g>', state: 'signed-off' },
  { id: 106, source: '  two  spaces\tand a\r\nCRLF  ', target: '', context: 'line\nbreak "quoted"' },
  {
    id: 'a-7',
    source: 'Emoji 😀 and 中文 <bx id="3"/>x<ex id="3"/>',
    target: 'Emoji 😀 und 中文',
    state: 'translated',
  },
];

test('writeXliff: one file with its attributes, one trans-unit per unit, targets and notes where given', async () => {
  const xml = await xliffOf(ROUND_TRIP_UNITS.slice(0, 2));
  assert.equal(
    xml,
    `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="guide.html" source-language="en" target-language="de" datatype="html" xml:space="preserve">
    <body>
      <trans-unit id="101" resname="p">
        <source>Press <g id="1" ctype="bold">Save</g> &amp; wait <x id="2" ctype="lb"/>now.</source>
        <target state="translated">Drücken Sie <g id="1" ctype="bold">Speichern</g> &amp; warten Sie <x id="2" ctype="lb"/>jetzt.</target>
        <note>Button label</note>
        <note>Keep "Save" bold</note>
      </trans-unit>
      <trans-unit id="102">
        <source>Use a &lt; b and c &gt; d, not &amp;amp;.</source>
      </trans-unit>
    </body>
  </file>
</xliff>
`,
  );
});

test('writeXliff output validates against the strict schema', { skip: schemaSkipReason }, async () => {
  assert.equal(schemaErrors(await xliffOf(ROUND_TRIP_UNITS)), '');
});

test('what writeXliff writes, the XLIFF filter reads back: same sources, targets, states, contexts, notes', async () => {
  const xml = await xliffOf(ROUND_TRIP_UNITS);
  const units = await xliffFilter.extract(Buffer.from(xml), langs);
  assert.deepEqual(
    units.map((u) => [u.source, u.target, u.state, u.context, u.notes]),
    ROUND_TRIP_UNITS.map((u) => [
      u.source,
      u.target || undefined,
      u.target ? u.state : undefined,
      u.context,
      u.notes,
    ]),
  );
});

test('TMX-only inline markup is mapped to legal XLIFF: ids supplied, hi → g, ut → ph, type → ctype', async () => {
  const tmx =
    '<bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>Bold<ept i="1">&lt;/b&gt;</ept> <ph type="index">{0}</ph> ' +
    '<hi type="emphasis">very</hi> <ut>\\par</ut> <it pos="end" type="ulined">&lt;/u&gt;</it>';
  assert.equal(
    toXliffInline(tmx),
    '<bpt id="1" ctype="bold">&lt;b&gt;</bpt>Bold<ept id="1">&lt;/b&gt;</ept> <ph id="2" ctype="x-index">{0}</ph> ' +
      '<g id="3" ctype="x-emphasis">very</g> <ph id="4">\\par</ph> <it id="5" pos="close" ctype="underlined">&lt;/u&gt;</it>',
  );
});

test('rid constraints of the strict schema: unique bpt rids, ept rids that name a bpt', () => {
  assert.equal(
    toXliffInline(
      '<bpt id="1" rid="r1">a</bpt><bpt id="2" rid="r1">b</bpt><ept id="3" rid="r1">c</ept><ept id="4" rid="zz">d</ept>',
    ),
    '<bpt id="1" rid="r1">a</bpt><bpt id="2">b</bpt><ept id="3" rid="r1">c</ept><ept id="4">d</ept>',
  );
});

test('native code with <sub> keeps sub as an element and its text re-escaped', () => {
  assert.equal(
    toXliffInline('<ph x="1">&lt;img alt="<sub type="x-alt">A &amp; B</sub>"&gt;</ph>'),
    '<ph id="1">&lt;img alt="<sub ctype="x-alt">A &amp; B</sub>"&gt;</ph>',
  );
});

test('characters XML cannot hold become U+FFFD; CR is kept as a character reference', () => {
  assert.equal(toXliffInline('a\u0001b\uD800c\r\n'), 'a\uFFFDb\uFFFDc&#13;\n');
});

test('TMX-style and odd markup still validates', { skip: schemaSkipReason }, async () => {
  const xml = await xliffOf(
    [
      {
        id: 1,
        source:
          '<bpt i="1" type="bold">&lt;b&gt;</bpt>Bold<ept i="1">&lt;/b&gt;</ept> <ph>{0}</ph> <hi type="x">hi</hi>' +
          '<ut>u</ut> <it pos="begin">&lt;i&gt;</it> <mrk>m</mrk> <sub>s</sub> <ph>a && b</ph> <ex rid="none"/>',
        target: '<g>unpaired open <x/> <bx rid="q"/><ex rid="q"/><ex rid="q"/>',
        state: 'translated',
      },
    ],
    'markdown',
  );
  assert.match(xml, /datatype="x-markdown"/);
  assert.equal(schemaErrors(xml), '');
});

test('chunks are about 64 KB and concatenate to the whole document', async () => {
  const units = Array.from({ length: 2000 }, (_, i) => ({
    id: i + 1,
    source: `Segment number ${i + 1} of the text.`,
  }));
  const chunks = await collect(writeXliff({ original: 'a.txt', ...langs, datatype: 'plaintext', units }));
  assert.ok(chunks.length > 1);
  for (const c of chunks.slice(0, -1)) assert.ok(c.length >= 64 * 1024 && c.length < 64 * 1024 + 200);
  const extracted = await xliffFilter.extract(Buffer.from(chunks.join('')), langs);
  assert.equal(extracted.length, 2000);
  assert.equal(extracted[1999].source, 'Segment number 2000 of the text.');
});

test('a repeated unit id is refused', async () => {
  const units = [
    { id: 1, source: 'a' },
    { id: '1', source: 'b' },
  ];
  await assert.rejects(
    collect(writeXliff({ original: 'a', ...langs, datatype: 'po', units })),
    /unit id 1 appears twice/,
  );
});
