import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormatError, XmlError } from '../errors.ts';
import { readXml } from './xml-reader.ts';

async function* chunks(bytes: Uint8Array, size = bytes.length || 1): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Every event as a string, adjacent text merged (chunking may split text events). */
async function events(bytes: Uint8Array, size?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const e of readXml<string>(chunks(bytes, size), (ctx) => ({
    openTag: (t) =>
      ctx.emit(
        `<${t.name}${Object.entries(t.attributes)
          .map(([k, v]) => ` ${k}=${JSON.stringify(v)}`)
          .join('')}>`,
      ),
    closeTag: (t) => ctx.emit(`</${t.name}>`),
    text: (text) => ctx.emit(`"${text}"`),
  }))) {
    const last = out[out.length - 1];
    if (e.startsWith('"') && last?.startsWith('"')) out[out.length - 1] = last.slice(0, -1) + e.slice(1);
    else out.push(e);
  }
  return out;
}

async function failure(bytes: Uint8Array | string, size?: number): Promise<XmlError> {
  const input = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  try {
    await events(input, size);
  } catch (err) {
    assert.ok(err instanceof XmlError, `expected an XmlError, got ${err}`);
    assert.ok(err instanceof FormatError);
    return err;
  }
  assert.fail('expected the document to be refused');
}

const SAMPLE = '<?xml version="1.0"?>\n<r a="1 &amp; 2">x &lt; y<![CDATA[<c>&]]><e/>é€😀</r>';
const SAMPLE_EVENTS = ['"\n"', '<r a="1 & 2">', '"x < y<c>&"', '<e>', '</e>', '"é€😀"', '</r>'];

describe('readXml', () => {
  it('reports elements, attributes, text, entities and CDATA', async () => {
    assert.deepEqual(await events(Buffer.from(SAMPLE)), SAMPLE_EVENTS);
  });

  it('gives the same events whatever the chunking, even one byte at a time', async () => {
    for (const size of [1, 2, 3, 5, 7])
      assert.deepEqual(await events(Buffer.from(SAMPLE), size), SAMPLE_EVENTS);
  });

  it('yields records while the input is still being read', async () => {
    const body = '<r>' + '<i/>'.repeat(20_000) + '</r>';
    let chunksRead = 0;
    async function* counted() {
      for await (const c of chunks(Buffer.from(body), 1024)) {
        chunksRead++;
        yield c;
      }
    }
    const it = readXml<number>(counted(), (ctx) => ({ closeTag: (t) => t.name === 'i' && ctx.emit(1) }));
    await it.next();
    assert.ok(chunksRead < 5, `first record after ${chunksRead} chunks`);
    await it.return();
  });

  describe('encodings', () => {
    const text = '<?xml version="1.0" encoding="UTF-16"?><r>Grüße 日本 😀</r>';
    const expected = ['<r>', '"Grüße 日本 😀"', '</r>'];
    const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();

    it('reads UTF-8 with and without a BOM', async () => {
      const plain = '<r>Grüße 日本 😀</r>';
      assert.deepEqual(await events(Buffer.from(plain)), expected);
      assert.deepEqual(
        await events(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(plain)]), 3),
        expected,
      );
    });

    it('reads UTF-16 LE and BE with a BOM', async () => {
      assert.deepEqual(
        await events(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 3),
        expected,
      );
      assert.deepEqual(await events(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]), 3), expected);
    });

    it('reads UTF-16 LE and BE with only the declaration', async () => {
      assert.deepEqual(await events(Buffer.from(text, 'utf16le'), 5), expected);
      assert.deepEqual(await events(utf16be(text), 5), expected);
    });

    it('decodes what the declaration names', async () => {
      const latin = Buffer.from(
        '<?xml version="1.0" encoding="ISO-8859-1"?><r>Gr\u00fc\u00dfe</r>',
        'latin1',
      );
      assert.deepEqual(await events(latin), ['<r>', '"Grüße"', '</r>']);
      const cp1252 = Buffer.concat([
        Buffer.from('<?xml version="1.0" encoding="windows-1252"?><r>'),
        Buffer.from([0x80]),
        Buffer.from('</r>'),
      ]);
      assert.deepEqual(await events(cp1252), ['<r>', '"€"', '</r>']);
      const sjis = Buffer.concat([
        Buffer.from("<?xml version='1.0' encoding='Shift_JIS'?><r>"),
        Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
        Buffer.from('</r>'),
      ]);
      assert.deepEqual(await events(sjis), ['<r>', '"日本"', '</r>']);
    });

    it('reads UTF-8 that is declared UTF-16 by mistake as UTF-8', async () => {
      assert.deepEqual(await events(Buffer.from(text)), expected);
    });

    it('refuses an encoding it cannot decode, naming it', async () => {
      const err = await failure('<?xml version="1.0" encoding="x-klingon"?><r/>');
      assert.equal(
        err.message,
        'Unsupported XML encoding at line 1, column 31: the declared encoding "x-klingon" is not supported',
      );
      const utf32 = await failure(Buffer.from([0xff, 0xfe, 0, 0, 0x3c, 0, 0, 0]));
      assert.match(utf32.message, /UTF-32 is not supported/);
    });

    it('reports bytes that are not valid in the encoding where they are', async () => {
      const bytes = Buffer.concat([Buffer.from('<r>\n  ab'), Buffer.from([0xff]), Buffer.from('c</r>')]);
      const err = await failure(bytes);
      assert.equal(err.message, 'Malformed XML at line 2, column 5: bytes that are not valid UTF-8');
    });
  });

  describe('malformed XML', () => {
    const cases: Array<[string, number, number, string]> = [
      ['<a>\n  <b></c>\n</a>', 2, 9, 'unexpected close tag'],
      ['<a>\n  <b x="1" x="2"/>\n</a>', 2, 18, 'duplicate attribute: x'],
      ['<a>\n  text & more\n</a>', 2, 8, 'a bare "&" is not allowed; write &amp;'],
      ['<a>\n  <b t="x &amp y;"/>\n</a>', 2, 11, 'a bare "&" is not allowed; write &amp;'],
      ['<a>\n  <b>\n', 3, 1, 'unclosed tag: b'],
      ['<a>&nbsp;</a>', 1, 9, 'undefined entity'],
      ['<a></a><b/>', 1, 10, 'documents may contain only one root'],
    ];
    for (const [xml, line, column, detail] of cases) {
      it(`${JSON.stringify(xml)} → line ${line}, column ${column}`, async () => {
        for (const size of [undefined, 1]) {
          const err = await failure(xml, size);
          assert.deepEqual([err.line, err.column, err.detail], [line, column, detail]);
          assert.equal(err.message, `Malformed XML at line ${line}, column ${column}: ${detail}`);
        }
      });
    }

    it('points at a bare "&" that a long run of text follows', async () => {
      const err = await failure(`<a>AT&T ${'x'.repeat(100_000)}</a>`, 1000);
      assert.deepEqual([err.line, err.column], [1, 6]);
    });
  });

  describe('entities and DOCTYPE', () => {
    it('accepts a DOCTYPE naming an external DTD without fetching it', async () => {
      const xml = '<!DOCTYPE tmx SYSTEM "http://127.0.0.1:9/tmx14.dtd"><tmx/>';
      assert.deepEqual(await events(Buffer.from(xml)), ['<tmx>', '</tmx>']);
    });

    it('refuses a DOCTYPE that declares entities, pointing at the declaration', async () => {
      const xml = '<?xml version="1.0"?>\n<!DOCTYPE r [\n  <!ENTITY lol "lol">\n]>\n<r>&lol;</r>';
      const err = await failure(xml);
      assert.equal(
        err.message,
        'Refused XML at line 3, column 3: the DOCTYPE declares entities (<!ENTITY …>), which are refused for security',
      );
      const external = await failure('<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>');
      assert.deepEqual([external.line, external.column], [1, 14]);
      const parameter = await failure('<!DOCTYPE r [\n<!ENTITY % p "x">\n]><r/>');
      assert.deepEqual([parameter.line, parameter.column], [2, 1]);
    });

    it('fails on a reference to an undeclared entity', async () => {
      const err = await failure('<r>\n&xxe;</r>');
      assert.deepEqual([err.line, err.column, err.detail], [2, 5, 'undefined entity']);
    });
  });

  it('lets handlers fail at the current position', async () => {
    const input = chunks(Buffer.from('<a>\n <b/></a>'));
    const run = async () => {
      for await (const _ of readXml(input, (ctx) => ({
        openTag: (t) => t.name === 'b' && ctx.fail('Not a thing', 'no <b> here'),
      })));
    };
    await assert.rejects(run, {
      name: 'XmlError',
      message: 'Not a thing at line 2, column 5: no <b> here',
      line: 2,
      column: 5,
    });
  });
});
