import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FormatError, XmlError } from '../../errors.ts';
import { parseTmxDate, readTmx, type TmxReadOptions, type TmxUnit } from './tmx-reader.ts';

// Samples of the real memories (every 20th unit; test/fixtures/README.md).
const DATA = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'corpus');
const FIXTURE = readFileSync(new URL('./fixtures/inline.tmx', import.meta.url), 'utf8');
const EN_DE = { srclang: 'en', trglang: 'de' };

async function* chunks(bytes: Uint8Array, size = 4096): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(bytes: Uint8Array | string, options: TmxReadOptions = EN_DE, size?: number) {
  const reader = readTmx(chunks(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, size), options);
  const units: TmxUnit[] = [];
  for await (const unit of reader) units.push(unit);
  return { units, stats: reader.stats };
}

/** A minimal TMX document around the given units' XML. */
function tmx(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" srclang="en" datatype="plaintext"/>
<body>${body}</body></tmx>`;
}

function unit(source: string, target: string): string {
  return `<tu><tuv xml:lang="en"><seg>${source}</seg></tuv><tuv xml:lang="de"><seg>${target}</seg></tuv></tu>`;
}

const FIXTURE_UNITS: TmxUnit[] = [
  {
    source: 'Click <bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> now.',
    target: 'Klicken Sie <bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept>.',
    tuid: 'bold',
    creationDate: 1706702400,
    changeDate: 1706776205,
    creationId: 'alice',
    props: { 'x-context': 'button' },
    notes: ['Keep the bold.'],
  },
  {
    source:
      'A<ph x="2" type="image">&lt;img src="a.png"/&gt;</ph>B<it pos="begin" x="3">&lt;i&gt;</it>C<ut>{\\b}</ut><ph/>',
    target:
      'A<ph x="2" type="image">&lt;img src="a.png"/&gt;</ph>B<it pos="begin" x="3">&lt;i&gt;</it>C<ut>{\\b}</ut><ph/>',
    tuid: 'codes',
  },
  {
    source: '<ph>&lt;a title="<sub>Home page</sub>"&gt;</ph>Home<hi type="x-term">page</hi>',
    target:
      '<ph>&lt;a title="<sub type="x-title">Startseite</sub>"&gt;</ph>Start<hi type="x-term">seite</hi>',
    tuid: 'sub',
  },
  {
    source: `5 < 6 && 7 > 3 AB <b>raw</b> & more "quoted" 'single'`,
    target: '  two  spaces,\na newline,\ta tab  ',
    tuid: 'escapes',
  },
  { source: 'Hello', target: 'Hallo', tuid: 'languages' },
  {
    source: 'Dated',
    target: 'Datiert',
    tuid: 'tuv-dates',
    creationDate: 1609459200,
    changeId: 'bob',
    props: { 'x-origin': 'mt' },
    notes: ['checked'],
  },
];

describe('readTmx', () => {
  describe('the real memories', () => {
    const files: Array<[string, string, number, number]> = [
      ['en-de.tmx.gz', 'de', 3_650, 3_634],
      ['en-es.tmx.gz', 'es', 2_624, 2_616],
      ['en-ja.tmx.gz', 'ja', 2_012, 2_004],
    ];
    for (const [file, trglang, count, distinct] of files) {
      it(`${file}: ${count} units, none skipped, ${distinct} distinct pairs`, async () => {
        const reader = readTmx(createReadStream(`${DATA}/${file}`), { srclang: 'en', trglang });
        const pairs = new Set<string>();
        let first: TmxUnit | undefined;
        for await (const u of reader) {
          first ??= u;
          pairs.add(`${u.source}\u0000${u.target}`);
        }
        assert.deepEqual([reader.stats.units, reader.stats.skipped], [count, 0]);
        assert.equal(pairs.size, distinct);
        assert.equal(first?.source, ' %a %b %e %H:%M:%S %Z %Y');
      });
    }
  });

  it('reads inline markup, entities, CDATA, whitespace, metadata and languages exactly', async () => {
    const { units, stats } = await read(FIXTURE);
    assert.deepEqual(units, FIXTURE_UNITS);
    assert.deepEqual([stats.units, stats.skipped], [6, 1]);
  });

  it('gives the same units whatever the chunk size', async () => {
    for (const size of [1, 7, 100]) assert.deepEqual((await read(FIXTURE, EN_DE, size)).units, FIXTURE_UNITS);
  });

  it('returns the stats as the generator result too', async () => {
    const reader = readTmx(chunks(Buffer.from(FIXTURE)), EN_DE);
    let next = await reader.next();
    while (!next.done) next = await reader.next();
    assert.deepEqual([next.value.units, next.value.skipped], [6, 1]);
    assert.equal(next.value, reader.stats);
  });

  describe('encodings and compression', () => {
    const utf16 = FIXTURE.replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const cases: Array<[string, Buffer]> = [
      ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')])],
      [
        'UTF-16 BE with BOM',
        Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(utf16, 'utf16le').swap16()]),
      ],
      ['UTF-16 LE with only the declaration', Buffer.from(utf16, 'utf16le')],
      ['UTF-16 BE with only the declaration', Buffer.from(utf16, 'utf16le').swap16()],
      ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(FIXTURE)])],
      ['gzipped UTF-8', gzipSync(FIXTURE)],
      [
        'gzipped UTF-16 LE',
        gzipSync(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')])),
      ],
    ];
    for (const [name, bytes] of cases) {
      it(name, async () => {
        for (const size of [3, 4096]) assert.deepEqual((await read(bytes, EN_DE, size)).units, FIXTURE_UNITS);
      });
    }
  });

  describe('languages', () => {
    it('matches by primary subtag, case-insensitively, preferring an exact tag', async () => {
      const { units } = await read(FIXTURE, { srclang: 'EN-us', trglang: 'de_AT' });
      assert.deepEqual(
        units.map((u) => u.target),
        FIXTURE_UNITS.slice(0, 4)
          .map((u) => u.target)
          .concat(['Servus', 'Datiert']),
      );
    });

    it('reads the pair in either direction and counts units lacking a language as skipped', async () => {
      const { units, stats } = await read(FIXTURE, { srclang: 'fr', trglang: 'en' });
      assert.deepEqual(
        units.map((u) => [u.tuid, u.source, u.target]),
        [
          ['languages', 'Bonjour', 'Hello'],
          ['no-target', 'Seul', 'Lonely'],
        ],
      );
      assert.deepEqual([stats.units, stats.skipped], [2, 5]);
      // Why: units without a French variant, or without an English one beside it, and what they have.
      assert.equal(stats.noSource! + stats.noTarget!, 5);
      assert.ok(stats.noSource! > 0 && stats.skippedLanguages!.includes('de-de'), JSON.stringify(stats));
    });

    it('takes two variants of one primary language for a same-language pair', async () => {
      const xml = tmx(
        '<tu><tuv xml:lang="en-GB"><seg>colour</seg></tuv><tuv xml:lang="en-US"><seg>color</seg></tuv></tu>',
      );
      assert.deepEqual((await read(xml, { srclang: 'en-US', trglang: 'en-GB' })).units, [
        { source: 'color', target: 'colour' },
      ]);
      assert.deepEqual((await read(xml, { srclang: 'en', trglang: 'en' })).units, [
        { source: 'colour', target: 'color' },
      ]);
    });

    it('skips a unit whose variant has no language, and a unit with one variant', async () => {
      const xml = tmx(`<tu><tuv><seg>a</seg></tuv><tuv xml:lang="de"><seg>b</seg></tuv></tu>
        <tu><tuv xml:lang="en"><seg>only</seg></tuv></tu>${unit('yes', 'ja')}`);
      assert.deepEqual(await read(xml), {
        units: [{ source: 'yes', target: 'ja' }],
        stats: { units: 1, skipped: 2, noSource: 1, noTarget: 1, skippedLanguages: ['de', 'en'] },
      });
    });
  });

  describe('inline markup', () => {
    const cases: Array<[string, string, string]> = [
      [
        'CDATA inside a code element',
        '<bpt i="1"><![CDATA[<b>]]></bpt>x<ept i="1">&lt;/b></ept>',
        '<bpt i="1">&lt;b&gt;</bpt>x<ept i="1">&lt;/b&gt;</ept>',
      ],
      ['a self-closing code element', '<ph x="1"/>', '<ph x="1"/>'],
      [
        'nested hi',
        '<hi type="a">x<hi>y</hi><ph>&amp;</ph></hi>',
        '<hi type="a">x<hi>y</hi><ph>&amp;</ph></hi>',
      ],
      [
        'sub with a code element inside',
        '<bpt i="1">&lt;a t="<sub>x<ph>&amp;nbsp;</ph></sub>"&gt;</bpt>',
        '<bpt i="1">&lt;a t="<sub>x<ph>&amp;nbsp;</ph></sub>"&gt;</bpt>',
      ],
      [
        'attribute values re-escaped',
        '<ph type="a&amp;b &quot;q&quot; &lt;">x</ph>',
        '<ph type="a&amp;b &quot;q&quot; &lt;">x</ph>',
      ],
      ['XLIFF tags some tools put into TMX', 'a<g id="1">b</g><x id="2"/>', 'a<g id="1">b</g><x id="2"/>'],
      ['an unknown element keeps its text only', 'a<foo>b</foo>c', 'abc'],
      ['comments and processing instructions vanish', 'a<!-- note -->b<?pi x?>c', 'abc'],
      ['character references', '&#x1F600;&#233;&#10;', '😀é\n'],
      ['only whitespace', ' \n\t ', ' \n\t '],
      ['empty', '', ''],
    ];
    for (const [name, seg, expected] of cases) {
      it(name, async () => {
        const { units } = await read(tmx(unit(seg, 'x')));
        assert.equal(units[0].source, expected);
      });
    }

    it('keeps a mapped tag as a code element when its content is not the tag it names', async () => {
      const seg =
        '<ph type="x-tag-x">&lt;g id="1"&gt;</ph><bpt i="5" type="x-tag-g">not a tag</bpt><ept i="5">&lt;/g&gt;</ept>';
      const { units } = await read(tmx(unit(seg, 'x')));
      assert.equal(
        units[0].source,
        '<ph type="x-tag-x">&lt;g id="1"&gt;</ph><bpt i="5" type="x-tag-g">not a tag</bpt><ept i="5">&lt;/g&gt;</ept>',
      );
    });
  });

  it('reads TMX 1.1 lang, TMX dates with separators, and ignores header notes and props', async () => {
    const xml = tmx(
      `<tu creationdate="2024-01-31T12:00:00Z" changedate="garbage"><tuv lang="EN"><seg>a</seg></tuv><tuv lang="DE-ch"><seg>b</seg></tuv></tu>`,
    );
    assert.deepEqual((await read(xml)).units, [{ source: 'a', target: 'b', creationDate: 1706702400 }]);
    assert.equal(parseTmxDate('20241301T000000Z'), undefined);
    assert.equal(parseTmxDate('20240229T235959Z'), 1709251199);
  });

  describe('bad input', () => {
    it('reports malformed XML with its line and column', async () => {
      const xml = FIXTURE.replace('<seg>Lonely</seg>', '<seg>Lonely</sag>');
      const err = await read(xml).catch((e: unknown) => e);
      assert.ok(err instanceof XmlError);
      assert.equal(err.message, 'Malformed XML at line 51, column 42: unexpected close tag');
    });

    it('reports a truncated file', async () => {
      const gz = gzipSync(tmx(unit('a', 'b')).slice(0, -20));
      await assert.rejects(read(gz), {
        name: 'XmlError',
        message: /^Malformed XML at line 3, column \d+: unclosed tag: /,
      });
    });

    it('refuses a file that is not TMX', async () => {
      const xliff = '<?xml version="1.0"?>\n<xliff version="1.2"><file/></xliff>';
      await assert.rejects(read(xliff), (err: Error) => {
        assert.ok(err instanceof FormatError);
        assert.equal(
          err.message,
          'Not a TMX file at line 2, column 21: the root element is <xliff>, expected <tmx>',
        );
        return true;
      });
    });

    it('refuses a DOCTYPE that declares entities', async () => {
      const xml = FIXTURE.replace('<!DOCTYPE tmx SYSTEM "tmx14.dtd">', '<!DOCTYPE tmx [<!ENTITY a "b">]>');
      await assert.rejects(read(xml), { name: 'XmlError', line: 2, column: 16 });
    });
  });
});
