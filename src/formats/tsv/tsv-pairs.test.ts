import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readTsvPairs } from './tsv-pairs.ts';

const LANGS = { srclang: 'en', trglang: 'de' };

async function read(text: string | Buffer, chunk = 7) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  async function* input() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const reader = readTsvPairs(input(), LANGS);
  const units = [];
  for await (const unit of reader) units.push([unit.source, unit.target]);
  return { units, stats: reader.stats };
}

describe('readTsvPairs', () => {
  it('reads source and target a line, skipping a header naming the languages and empty sides', async () => {
    const { units, stats } = await read(
      '\ufeffen-US\tde-DE\r\nOpen the file.\tÖffnen Sie die Datei.\r\n\r\nSave.\t\nClose it.\tSchließen.\n',
    );
    assert.deepEqual(units, [
      ['Open the file.', 'Öffnen Sie die Datei.'],
      ['Close it.', 'Schließen.'],
    ]);
    assert.deepEqual(stats, { units: 2, skipped: 1 });
  });

  it('swaps the columns when the header names them the other way round, and reads gzip', async () => {
    const { units } = await read(gzipSync('de\ten\nÖffnen.\tOpen.\n'));
    assert.deepEqual(units, [['Open.', 'Öffnen.']]);
  });

  it('keeps quotes and text that looks like markup literal: tagged text is never escaped', async () => {
    const { units } = await read('Say "hi" to <b>me</b> & co.\tSag "hallo" & <x/>.\n');
    assert.deepEqual(units, [['Say "hi" to <b>me</b> & co.', 'Sag "hallo" & <ph id="1">&lt;x/&gt;</ph>.']]);
  });

  it('names the line of a row without a tab, and of a header for other languages', async () => {
    await assert.rejects(
      read('One.\tEins.\nTwo without a tab\n'),
      /line 2: expected the source and the target separated by a tab/,
    );
    await assert.rejects(
      read('en-US\tfr-FR\nOne.\tUn.\n'),
      /line 1: the columns are en-US and fr-FR, the memory is en → de/,
    );
  });

  it('reads a first row of short words as data, even where they are language codes', async () => {
    for (const first of ['OK\tOK', 'Hi\tHi', 'no\tnein', 'en\tfr', 'Yes\tJa']) {
      const { units } = await read(`${first}\nOne.\tEins.\n`);
      assert.deepEqual(units, [first.split('\t'), ['One.', 'Eins.']], first);
    }
  });
});
