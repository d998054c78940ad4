import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { readTmx, type TmxUnit } from './tmx-reader.ts';
import { formatTmxDate, type TmxEntry, type TmxHeader, writeTmx } from './tmx-writer.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures');
const DTD = join(FIXTURES, 'schemas', 'tmx14.dtd');
const HEADER: TmxHeader = {
  srclang: 'en-US',
  trglang: 'de-DE',
  creationTool: 'Tessera',
  creationToolVersion: '0.1.0',
};

async function write(
  entries: Iterable<TmxEntry> | AsyncIterable<TmxEntry>,
  header = HEADER,
): Promise<string> {
  let out = '';
  for await (const chunk of writeTmx(entries, header)) out += chunk;
  return out;
}

async function readBack(xml: string, srclang = 'en', trglang = 'de'): Promise<TmxUnit[]> {
  const units: TmxUnit[] = [];
  for await (const u of readTmx(Readable.from([Buffer.from(xml)]), { srclang, trglang })) units.push(u);
  return units;
}

const xmllintMissing = spawnSync('xmllint', ['--version']).error !== undefined;
const skipXmllint =
  xmllintMissing && process.env.CI !== 'true'
    ? 'xmllint is not installed (apt install libxml2-utils)'
    : false;
if (skipXmllint) console.log(`# SKIPPING DTD validation: ${skipXmllint}`);

/** xmllint's verdict on the document against tmx14.dtd: '' when valid, its messages otherwise. */
function dtdErrors(xml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmx-writer-'));
  try {
    const file = join(dir, 'out.tmx');
    writeFileSync(file, xml);
    const run = spawnSync('xmllint', ['--noout', '--dtdvalid', DTD, file], { encoding: 'utf8' });
    if (run.error) throw run.error;
    return run.status === 0 ? '' : run.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// One string per inline tag kind and mapping case; each must come back from TMX exactly.
const TAGGED = [
  'plain text',
  '',
  '  leading and trailing whitespace, a\ttab,\na newline and CR\r\n  ',
  'a < b && c > d "quoted" \'apos\' &amp; literally',
  '😀 日本語 Grüße',
  'Click <bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept>',
  'A<ph x="2" type="image">&lt;img src="a.png"/&gt;</ph>B<ph/>C<ph assoc="p"></ph>',
  '<it pos="begin" x="3">&lt;i&gt;</it>open',
  '<ut>{\\b}</ut>',
  '<ph>&lt;a title="<sub>Home</sub>"&gt;</ph><bpt i="2">&lt;a t="<sub type="t">x<ph>&amp;</ph></sub>"&gt;</bpt>y<ept i="2">&lt;/a&gt;</ept>',
  'Home<hi type="x-term">page<hi>nested<ph x="1">%s</ph></hi></hi><hi x="1"/>',
  'Click <g id="1">Save <g id="2" ctype="bold">now</g></g>',
  'a<x id="2"/>b<x id="3" ctype="lb" equiv-text="&#10;"/>',
  '<bx id="3" rid="1"/>a<ex id="4" rid="1"/>',
  '<mrk mtype="term">word</mrk>',
  '<g id="1">unpaired open',
  'unpaired close</g>',
  '<hi type="b">unpaired hi',
  '<hi foo="b">hi with a foreign attribute</hi>',
  '<sub>sub outside a code element</sub>',
  '<ph id="1" ctype="image">&lt;img/&gt;</ph>',
  '<bpt id="1" rid="1">&lt;b&gt;</bpt>x<ept id="2" rid="1">&lt;/b&gt;</ept>',
  '<bpt>&lt;b&gt;</bpt>',
  "<ph>a &quot;b&quot; <sub x='1'>c</sub></ph>",
  '<ph type="x-tag-x">&lt;x/&gt;</ph>',
  '<bpt i="7">[</bpt><g id="1">x</g><ept i="7">]</ept>',
  '<g id="1"><x id="2"/></g>crossed<hi>a<g id="3">b</hi>c</g>',
  '<ph>code with CR\r inside</ph><bpt i="1" >spaced</bpt >',
  '<b>not a tag</b> <g id="1" && broken',
];

describe('writeTmx', () => {
  it('writes a TMX 1.4 document with header, units, dates and escaped metadata', async () => {
    const xml = await write(
      [
        {
          source: 'Hello <g id="1">world</g>',
          target: 'Hallo <g id="1">Welt</g>',
          id: 7,
          createdAt: 1706702400,
          updatedAt: 1706776205,
          createdBy: 'Ann <ann@x>',
          resourceName: 'a&b.tmx',
        },
        { source: 'x', target: 'y' },
      ],
      { ...HEADER, creationDate: 1700000000 },
    );
    assert.equal(
      xml,
      `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="Tessera" creationtoolversion="0.1.0" segtype="sentence" o-tmf="tessera" adminlang="en" srclang="en-US" datatype="plaintext" creationdate="20231114T221320Z"/>
  <body>
    <tu tuid="7" creationdate="20240131T120000Z" creationid="Ann &lt;ann@x&gt;" changedate="20240201T083005Z">
      <prop type="x-resource-name">a&amp;b.tmx</prop>
      <tuv xml:lang="en-US"><seg>Hello <bpt i="1" type="x-tag-g">&lt;g id="1"&gt;</bpt>world<ept i="1">&lt;/g&gt;</ept></seg></tuv>
      <tuv xml:lang="de-DE"><seg>Hallo <bpt i="1" type="x-tag-g">&lt;g id="1"&gt;</bpt>Welt<ept i="1">&lt;/g&gt;</ept></seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en-US"><seg>x</seg></tuv>
      <tuv xml:lang="de-DE"><seg>y</seg></tuv>
    </tu>
  </body>
</tmx>
`,
    );
    assert.deepEqual(await readBack(xml), [
      {
        source: 'Hello <g id="1">world</g>',
        target: 'Hallo <g id="1">Welt</g>',
        tuid: '7',
        creationDate: 1706702400,
        changeDate: 1706776205,
        creationId: 'Ann <ann@x>',
        props: { 'x-resource-name': 'a&b.tmx' },
      },
      { source: 'x', target: 'y' },
    ]);
  });

  it('formats TMX dates in UTC', () => {
    assert.equal(formatTmxDate(0), '19700101T000000Z');
    assert.equal(formatTmxDate(1709251199.9), '20240229T235959Z');
  });

  it('gives back every tagged string exactly after export and import', async () => {
    const entries = TAGGED.map((source, i) => ({ source, target: TAGGED[TAGGED.length - 1 - i] }));
    const units = await readBack(await write(entries));
    assert.deepEqual(
      units.map((u) => [u.source, u.target]),
      entries.map((e) => [e.source, e.target]),
    );
  });

  it('writes output valid against tmx14.dtd for every tag kind', { skip: skipXmllint }, async () => {
    const entries = TAGGED.map((source, i) => ({
      source,
      target: source,
      id: i,
      createdAt: 1706702400,
      createdBy: 'a',
      resourceName: 'r',
    }));
    assert.equal(dtdErrors(await write(entries)), '');
    assert.equal(dtdErrors(await write([])), '');
    // The check does catch invalid TMX: a raw <g> inside a seg.
    assert.notEqual(
      dtdErrors((await write([{ source: 'x', target: 'y' }])).replace('<seg>x', '<seg><g>x</g>')),
      '',
    );
  });

  it('round-trips the real en-de memory: read, write, read gives the same units', async () => {
    const units: TmxUnit[] = [];
    for await (const u of readTmx(createReadStream(join(FIXTURES, 'corpus', 'en-de.tmx.gz')), {
      srclang: 'en',
      trglang: 'de',
    })) {
      units.push(u);
    }
    const xml = await write(units, { ...HEADER, srclang: 'en', trglang: 'de' });
    const back = await readBack(xml);
    assert.equal(back.length, 3_650);
    assert.deepEqual(back, units);
  });

  it('streams in chunks of about 64 KB, pulling entries only as output is read', async () => {
    let pulled = 0;
    function* entries() {
      for (let i = 0; i < 100_000; i++) {
        pulled++;
        yield { source: `Source sentence number ${i}`, target: `Zielsatz Nummer ${i}` };
      }
    }
    const stream = Readable.from(writeTmx(entries(), HEADER), { highWaterMark: 1 });
    const sizes: number[] = [];
    for await (const chunk of stream) {
      sizes.push(chunk.length);
      if (sizes.length === 3) break;
    }
    assert.ok(
      sizes.every((size) => size >= 65_536 && size < 65_536 + 300),
      `chunk sizes ${sizes}`,
    );
    assert.ok(pulled < 5_000, `${pulled} entries pulled for 3 chunks`);
  });
});
