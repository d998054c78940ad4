import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { FormatError } from '../../errors.ts';
import { textFilter } from './plain-text-filter.ts';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
const options = { srclang: 'en', trglang: 'de' };

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

describe('textFilter', () => {
  it('extracts one unit per paragraph, tag look-alikes protected', async () => {
    assert.deepEqual(await textFilter.extract(fixture('release-notes.txt'), options), [
      { source: 'Tessera 0.1 release notes', segmentable: true },
      {
        source:
          'This release adds the plain text filter. Paragraphs are separated by\n' +
          'blank lines; a line break inside a paragraph is only wrapping.',
        segmentable: true,
      },
      {
        source:
          'Indented paragraphs keep their indentation. So does H<ph id="1">&lt;sub&gt;</ph>2<ph id="2">&lt;/sub&gt;</ph>O.',
        segmentable: true,
      },
      { source: 'Trailing whitespace after the last paragraph is kept too.', segmentable: true },
    ]);
  });

  it('merges translations in place, keeping layout, BOM and CRLF line endings', async () => {
    const merged = await textFilter.merge(
      fixture('windows-bom.txt'),
      confirmed(['Erster Absatz im Windows-Stil.\nZweite Zeile davon.', null]),
      options,
    );
    assert.deepEqual(
      merged,
      Buffer.from('\ufeffErster Absatz im Windows-Stil.\r\nZweite Zeile davon.\r\n\r\nSecond paragraph.\r\n'),
    );
    const notes = await textFilter.merge(
      fixture('release-notes.txt'),
      confirmed([
        null,
        null,
        'Eingerückte Absätze bleiben eingerückt. H<ph id="1">&lt;sub&gt;</ph>2<ph id="2">&lt;/sub&gt;</ph>O auch.',
        'Ende.',
      ]),
      options,
    );
    assert.equal(
      notes.toString('utf8'),
      fixture('release-notes.txt')
        .toString('utf8')
        .replace(
          'Indented paragraphs keep their indentation. So does H<sub>2</sub>O.',
          'Eingerückte Absätze bleiben eingerückt. H<sub>2</sub>O auch.',
        )
        .replace('Trailing whitespace after the last paragraph is kept too.', 'Ende.'),
    );
  });

  it('reads and writes UTF-16 with a BOM', async () => {
    const original = Buffer.from('\ufeffÜber uns\n\nKontakt\n', 'utf16le');
    assert.deepEqual(await textFilter.extract(original, options), [
      { source: 'Über uns', segmentable: true },
      { source: 'Kontakt', segmentable: true },
    ]);
    const merged = await textFilter.merge(original, confirmed([null, 'Contact']), options);
    assert.deepEqual(merged, Buffer.from('\ufeffÜber uns\n\nContact\n', 'utf16le'));
  });

  it('handles empty and whitespace-only files', async () => {
    assert.deepEqual(await textFilter.extract(Buffer.from(''), options), []);
    assert.deepEqual(await textFilter.extract(Buffer.from(' \n\t\n'), options), []);
    assert.deepEqual(await textFilter.merge(Buffer.from(' \n'), [], options), Buffer.from(' \n'));
  });

  it('rejects bytes that are not UTF-8, naming where', async () => {
    const bad = Buffer.concat([Buffer.from('ok\nbad '), Buffer.from([0xff]), Buffer.from(' byte\n')]);
    await assert.rejects(textFilter.extract(bad, options), (e: unknown) => {
      assert.ok(e instanceof FormatError);
      assert.equal(e.message, 'text file: invalid UTF-8 byte sequence at line 2, column 5');
      return true;
    });
  });
});
