// The TBX reader on each dialect's shapes and the writer's output read back; Lilt's CSV both ways.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormatError, XmlError } from '../../errors.ts';
import { readTbx } from './tbx-reader.ts';
import { writeTbx } from './tbx-writer.ts';
import { readTermCsv, writeTermCsv } from './term-csv.ts';
import type { ConceptRecord } from './termbase.ts';
import { statusFromFile } from './termbase.ts';

async function* bytes(text: string, size = 7): AsyncGenerator<Uint8Array> {
  const all = Buffer.from(text);
  for (let i = 0; i < all.length; i += size) yield all.subarray(i, i + size);
}

async function read(text: string): Promise<ConceptRecord[]> {
  const out: ConceptRecord[] = [];
  for await (const c of readTbx(bytes(text))) out.push(c);
  return out;
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
}

const DCT = `<?xml version="1.0"?>
<tbx type="TBX-Basic" style="dct" xmlns="urn:iso:std:iso:30042:ed-2" xmlns:min="http://www.tbxinfo.net/ns/min" xmlns:basic="http://www.tbxinfo.net/ns/basic">
<tbxHeader><fileDesc><sourceDesc><p>header <note>not a concept note</note></p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="k1"><min:subjectField>printing</min:subjectField>
 <langSec xml:lang="en"><basic:definition>A sheet</basic:definition>
  <termSec><term>page</term><min:partOfSpeech>noun</min:partOfSpeech><min:administrativeStatus>preferredTerm-admn-sts</min:administrativeStatus><basic:context>Turn the <hi>page</hi>.</basic:context></termSec>
 </langSec>
 <langSec xml:lang="fr"><termSec><term>feuillet</term><min:administrativeStatus>deprecatedTerm-admn-sts</min:administrativeStatus><note>forbidden</note></termSec></langSec>
</conceptEntry>
</body></text></tbx>`;

describe('readTbx', () => {
  it('reads DCT style (namespaced data categories), nested inline markup as text, the header left out', async () => {
    const [c] = await read(DCT);
    assert.equal(c.externalId, 'k1');
    assert.equal(c.domain, 'printing');
    assert.equal(c.note, undefined);
    assert.deepEqual(c.terms[0], {
      lang: 'en',
      text: 'page',
      status: 'preferred',
      caseSensitive: false,
      partOfSpeech: 'noun',
      context: 'Turn the page.',
      definition: 'A sheet',
    });
    assert.equal(c.terms[1].status, 'forbidden');
    assert.equal(c.terms[1].note, undefined);
  });

  it('knows the version and dialect, and refuses what is not TBX with a position', async () => {
    const reader = readTbx(bytes('<martif type="TBX-Default"><text><body/></text></martif>'));
    for await (const _ of reader);
    assert.deepEqual(reader.info, { version: 2, dialect: 'TBX-Default' });
    await assert.rejects(read('<?xml version="1.0"?>\n<tmx/>'), (err: Error) => {
      assert.ok(err instanceof XmlError);
      assert.match(err.message, /^Not a TBX file at line 2, column \d+: the root is <tmx>/);
      return true;
    });
    await assert.rejects(read(''), FormatError);
    await assert.rejects(
      read(
        '<martif><text><body><termEntry><langSet><tig><term>x</term></tig></langSet></termEntry></body></text></martif>',
      ),
      /Invalid TBX at line 1, column \d+: <langSet> has no xml:lang/,
    );
    await assert.rejects(
      read('<martif><text><body>\n<termEntry id="e">\n</termEntry></body></text></martif>'),
      /Invalid TBX at line 2, column \d+: <termEntry> has no term/,
    );
  });

  it('maps every status spelling, the strictest winning', async () => {
    assert.equal(statusFromFile('standardizedTerm'), 'preferred');
    assert.equal(statusFromFile('admittedTerm-admn-sts'), 'admitted');
    assert.equal(statusFromFile('supersededTerm-admn-sts'), 'deprecated');
    assert.equal(statusFromFile('not recommended'), 'deprecated');
    assert.equal(statusFromFile('Do not use'), 'forbidden');
    assert.equal(statusFromFile('noun'), undefined);
    const [c] = await read(
      '<martif><text><body><termEntry><langSet xml:lang="de"><tig><term>X</term><termNote type="usageNote">forbidden</termNote><termNote type="administrativeStatus">admittedTerm-admn-sts</termNote></tig></langSet></termEntry></body></text></martif>',
    );
    assert.equal(c.terms[0].status, 'forbidden');
  });
});

describe('writeTbx', () => {
  const concepts = [
    {
      id: 4,
      domain: 'ui & menus',
      note: 'a <note>',
      terms: [
        {
          lang: 'en',
          text: 'Save & close',
          status: 'preferred' as const,
          caseSensitive: false,
          partOfSpeech: 'verb',
          definition: 'Store, then shut',
        },
        {
          lang: 'de',
          text: 'Speichern & schließen',
          status: 'admitted' as const,
          caseSensitive: false,
          context: '"Quotes"',
        },
        { lang: 'de', text: 'Sichern', status: 'forbidden' as const, caseSensitive: false, note: 'old' },
      ],
    },
  ];
  for (const version of [2, 3] as const) {
    it(`writes TBX-Basic v${version} that reads back as it was`, async () => {
      const tbx = await text(writeTbx(concepts, { lang: 'en', source: 'test', version }));
      assert.match(tbx, version === 3 ? /<conceptEntry id="c4">/ : /<termEntry id="c4">/);
      assert.match(
        tbx,
        /<termNote type="administrativeStatus">deprecatedTerm-admn-sts<\/termNote><note>forbidden<\/note><note>old<\/note>/,
      );
      const [back] = await read(tbx);
      assert.equal(back.domain, 'ui & menus');
      assert.equal(back.note, 'a <note>');
      assert.deepEqual(
        back.terms.map((t) => [t.lang, t.text, t.status, t.definition, t.context, t.note]),
        [
          ['en', 'Save & close', 'preferred', 'Store, then shut', undefined, undefined],
          ['de', 'Speichern & schließen', 'admitted', undefined, '"Quotes"', undefined],
          ['de', 'Sichern', 'forbidden', undefined, undefined, 'old'],
        ],
      );
    });
  }
});

describe("Lilt's termbase CSV", () => {
  const languages = { srclang: 'en', trglang: 'de' };
  async function csv(body: string, hasHeaderRow?: boolean) {
    const reader = readTermCsv(bytes(body), { ...languages, hasHeaderRow });
    const out: ConceptRecord[] = [];
    for await (const c of reader) out.push(c);
    return { concepts: out, skipped: reader.stats.skipped };
  }

  it("reads Lilt's rows, with and without a header, skipping rows without both terms", async () => {
    const lilt = await csv(
      'source text,target text,status,created date,updated date\nhello,hallo,272542,2021-04-09 15:25,2021-04-09 15:25\n,leer,1,,\n',
    );
    assert.equal(lilt.skipped, 1);
    assert.deepEqual(lilt.concepts[0].terms, [
      { lang: 'en', text: 'hello', status: 'preferred', caseSensitive: false },
      { lang: 'de', text: 'hallo', status: 'preferred', caseSensitive: false },
    ]);
    assert.equal((await csv('source,target\n')).concepts.length, 0, 'a header of source and target');
    assert.equal((await csv('a,b\nc,d\n')).concepts.length, 2, 'no header: every row is data');
    assert.equal(
      (await csv('a,b\nc,d\n', true)).concepts.length,
      1,
      'has_header_row: the first row is skipped',
    );
    await assert.rejects(csv('only one cell\n'), /line 1: expected the source term and the target term/);
    await assert.rejects(csv('"open quote,b\n'), FormatError);
  });

  it('writes every column and reads them back', async () => {
    const out = await text(
      writeTermCsv(
        [
          {
            domain: 'ui',
            createdAt: 0,
            updatedAt: 60,
            terms: [
              {
                lang: 'en-US',
                text: 'file, document',
                status: 'preferred',
                caseSensitive: true,
                partOfSpeech: 'noun',
              },
              {
                lang: 'de',
                text: 'Datei',
                status: 'preferred',
                caseSensitive: false,
                context: 'Die "Datei"',
              },
              { lang: 'de', text: 'Akte', status: 'forbidden', caseSensitive: false },
            ],
          },
        ],
        languages,
      ),
    );
    const lines = out.split('\r\n');
    assert.equal(
      lines[1],
      '"file, document",Datei,preferred,1970-01-01 00:00,1970-01-01 00:01,preferred,noun,,"Die ""Datei""",,ui,true',
    );
    assert.ok(lines[2].startsWith('"file, document",Akte,forbidden,'), lines[2]);
    const back = await csv(out);
    assert.deepEqual(
      back.concepts.map((c) => [
        c.domain,
        c.terms[1].text,
        c.terms[1].status,
        c.terms[1].context,
        c.terms[0].caseSensitive,
      ]),
      [
        ['ui', 'Datei', 'preferred', 'Die "Datei"', true],
        ['ui', 'Akte', 'forbidden', undefined, true],
      ],
    );
  });
});
