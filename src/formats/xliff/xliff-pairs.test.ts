import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readXliffPairs } from './xliff-pairs.ts';

async function read(xml: string, langs = { srclang: 'en', trglang: 'de' }) {
  async function* input() {
    yield Buffer.from(xml);
  }
  const reader = readXliffPairs(input(), langs);
  const units = [];
  for await (const unit of reader) units.push([unit.source, unit.target]);
  return { units, stats: reader.stats };
}

const doc = (body: string, langs = 'source-language="en-US" target-language="de-DE"') =>
  `<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" ${langs} datatype="html"><body>${body}</body></file></xliff>`;

describe('readXliffPairs', () => {
  it('streams: units in groups and files, split across tiny chunks, with prefixes, keep their contexts', async () => {
    const xml =
      '<?xml version="1.0"?>\n<x:xliff version="1.2" xmlns:x="urn:oasis:names:tc:xliff:document:1.2">' +
      '<x:file original="a" source-language="en" target-language="de"><x:body>' +
      '<x:group id="g" translate="no"><x:trans-unit id="1" resname="one"><x:source>One &amp; <x:g id="1">all</x:g></x:source>' +
      '<x:target>Eins &amp; <x:g id="1">alle</x:g></x:target></x:trans-unit></x:group>\n' +
      '<x:trans-unit id="2"><x:source>Two</x:source></x:trans-unit><!-- a comment with <x:trans-unit> in it -->' +
      '</x:body></x:file><x:file original="b"><x:body>' +
      '<x:trans-unit id="3"><x:source>Three</x:source><x:target>Drei</x:target></x:trans-unit>' +
      '</x:body></x:file></x:xliff>';
    async function* tiny() {
      const bytes = Buffer.from(xml);
      for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
    }
    const reader = readXliffPairs(tiny(), { srclang: 'en', trglang: 'de' });
    const pairs = [];
    for await (const unit of reader) pairs.push(unit);
    assert.deepEqual(pairs, [
      {
        source: 'One & <g id="1">all</g>',
        target: 'Eins & <g id="1">alle</g>',
        context: { key: 'one', prev: null, next: 'Two' },
      },
      { source: 'Three', target: 'Drei', context: { key: null, prev: 'Two', next: null } },
    ]);
    assert.deepEqual(reader.stats, { units: 2, skipped: 1 });
  });

  it('gives a pair per translated unit with its inline tags, skipping units without a target', async () => {
    const { units, stats } = await read(
      doc(
        '<trans-unit id="1"><source>Click <g id="1">Save</g>.</source><target>Klicken Sie auf <g id="1">Speichern</g>.</target></trans-unit>' +
          '<trans-unit id="2"><source>Untranslated.</source></trans-unit>' +
          '<trans-unit id="3"><source>A &amp; B</source><target>A &amp; B</target></trans-unit>',
      ),
    );
    assert.deepEqual(units, [
      ['Click <g id="1">Save</g>.', 'Klicken Sie auf <g id="1">Speichern</g>.'],
      ['A & B', 'A & B'],
    ]);
    assert.deepEqual(stats, { units: 2, skipped: 1 });
  });

  it('pairs segmented units by mid', async () => {
    const { units } = await read(
      doc(
        '<trans-unit id="1"><source>One. Two.</source><seg-source><mrk mtype="seg" mid="1">One.</mrk> <mrk mtype="seg" mid="2">Two.</mrk></seg-source>' +
          '<target><mrk mtype="seg" mid="2">Zwei.</mrk> <mrk mtype="seg" mid="1">Eins.</mrk></target></trans-unit>',
      ),
    );
    assert.deepEqual(units, [
      ['One.', 'Eins.'],
      ['Two.', 'Zwei.'],
    ]);
  });

  it('refuses a file for other languages, and names line and column of malformed XML', async () => {
    await assert.rejects(
      read(doc('', 'source-language="en" target-language="fr"')),
      /target-language is fr, the memory's is de/,
    );
    await assert.rejects(
      read(doc('<trans-unit id="1"><source>x</target></trans-unit>')),
      /line 2, column \d+/,
    );
    // Inline markup nested past the XML reader's bound: refused once, in one voice.
    const nested = `${'<g id="1">'.repeat(600)}x${'</g>'.repeat(600)}`;
    await assert.rejects(
      read(doc(`<trans-unit id="1"><source>${nested}</source></trans-unit>`)),
      /^FormatError: XLIFF: elements nested more than 512 deep at line 2, column \d+$/,
    );
  });
});
