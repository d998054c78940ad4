// The round trip every registered filter makes, checked on real files of its format (and encoding and layout
// variants of them): all-null translations give the bytes back, a translated merge reads back with the
// translations in place, and a wrong count is refused. What is particular to a format is in its own tests.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildDocx } from '../../test/helpers/docx-fixture.ts';
import { FILTERS } from './registry.ts';

const options = { srclang: 'en', trglang: 'de' };
const fixture = (path: string) => readFileSync(new URL(path, import.meta.url));
const crlf = (file: Buffer) => Buffer.from(file.toString('utf8').replace(/\n/g, '\r\n'));

/** Translations a person confirmed, as the export gives them. */
const confirmed = (texts: readonly (string | null)[]) =>
  texts.map((text) => (text === null ? null : { text, confirmed: true }));

/** The formats that carry their translations beside the sources (a re-read gives them as targets). */
const BILINGUAL = new Set(['xliff', 'po']);

/** Sample files by filter name. */
const SAMPLES: Record<string, () => Buffer[] | Promise<Buffer[]>> = {
  text: () => [
    fixture('plain-text/fixtures/release-notes.txt'),
    fixture('plain-text/fixtures/windows-bom.txt'),
  ],
  xliff: () => {
    const angular = fixture('xliff/fixtures/angular-messages.xlf').toString('utf8');
    return [
      fixture('xliff/fixtures/angular-messages.xlf'),
      fixture('xliff/fixtures/segmented.xlf'),
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(angular.replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le'),
      ]),
      Buffer.from(
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n<xliff version="1.2"><file original="a" source-language="en" datatype="plaintext">' +
          '<body><trans-unit id="1"><source>Café crème</source></trans-unit></body></file></xliff>',
        'latin1',
      ),
    ];
  },
  po: () => [
    fixture('po/fixtures/linux-pam-de.po'),
    fixture('po/fixtures/tessera.pot'),
    crlf(fixture('po/fixtures/linux-pam-de.po')),
    Buffer.from(
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "Ä"\nmsgstr ""\n',
      'latin1',
    ),
  ],
  json: () => {
    const en = fixture('json/fixtures/en.json').toString('utf8');
    return [
      fixture('json/fixtures/en.json'),
      Buffer.from(`\ufeff${en.replace(/\n/g, '\r\n').replace(/^( +)/gm, '$1$1')}`),
      Buffer.from('"just a string"'),
      Buffer.from('[ 1.5e3, -0, "x", {"a":[]} ]'),
    ];
  },
  html: () => [fixture('html/fixtures/product-page.html')],
  markdown: () => [fixture('markdown/fixtures/getting-started.md.txt')],
  docx: async () => [await buildDocx()],
  android: () => {
    const xml = fixture('android/fixtures/strings.xml').toString('utf8');
    return [
      fixture('android/fixtures/strings.xml'),
      Buffer.from(`\ufeff${xml.replace(/\n/g, '\r\n')}`),
      Buffer.from(`\ufeff${xml.replace('utf-8', 'utf-16')}`, 'utf16le'),
    ];
  },
  yaml: () => [
    fixture('yaml/fixtures/en.yml'),
    crlf(fixture('yaml/fixtures/en.yml')),
    Buffer.from('--- a\n--- b\n'),
  ],
};

describe('every registered filter', () => {
  for (const filter of FILTERS) {
    it(`${filter.name}: all-null translations give back the same bytes; a wrong count is refused`, async () => {
      const samples = SAMPLES[filter.name];
      assert.ok(samples, `no sample files for the ${filter.name} filter`);
      for (const original of await samples()) {
        const units = await filter.extract(original, options);
        assert.ok(units.length > 0, 'a sample without units proves nothing');
        const merged = await filter.merge(
          original,
          units.map(() => null),
          options,
        );
        assert.ok(merged.equals(original));
        const sources = units.map((u) => u.source);
        for (const wrong of [[...sources, 'one too many'], sources.slice(1)]) {
          if (wrong.length === 0) continue;
          await assert.rejects(
            filter.merge(original, confirmed(wrong), options),
            new RegExp(`: ${wrong.length} translations for ${units.length} units$`),
          );
        }
      }
    });

    it(`${filter.name}: a translated merge reads back with every translation in its unit`, async () => {
      for (const original of await SAMPLES[filter.name]!()) {
        const units = await filter.extract(original, options);
        // Text added in front keeps every tag and placeholder of the source where it was.
        const translations = units.map((u) => `Übersetzt: ${u.source}`);
        const merged = await filter.merge(original, confirmed(translations), options);
        const again = await filter.extract(merged, options);
        if (BILINGUAL.has(filter.name)) {
          assert.deepEqual(
            again.map((u) => [u.source, u.target]),
            units.map((u, i) => [u.source, translations[i]]),
          );
        } else {
          assert.deepEqual(
            again.map((u) => u.source),
            translations,
          );
        }
      }
    });
  }
});
