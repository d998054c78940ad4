import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { STEMMED_LANGUAGES, stemmerOf } from './stemmers.ts';
import { buildTermIndex } from './term-index.ts';
import { termTokenizer } from './term-tokens.ts';

const finds = (lang: string, term: string, text: string) =>
  buildTermIndex(lang, [{ termId: 1, text: term }]).find(text).length > 0;

describe('stemmers', () => {
  test('the languages stemmed, by primary subtag; a region or script subtag changes nothing', () => {
    assert.deepEqual(STEMMED_LANGUAGES, [
      ...[
        'ar',
        'bg',
        'da',
        'de',
        'el',
        'en',
        'es',
        'fi',
        'fr',
        'ga',
        'hi',
        'hu',
        'hy',
        'id',
        'it',
        'lt',
        'nb',
      ],
      ...['ne', 'nl', 'nn', 'no', 'pt', 'ro', 'ru', 'sr', 'sv', 'ta', 'tr', 'uk'],
    ]);
    assert.equal(stemmerOf('pt-BR'), stemmerOf('pt'));
    assert.equal(stemmerOf('sr-Latn-RS'), stemmerOf('sr'));
    assert.equal(stemmerOf('pl'), undefined);
    assert.equal(stemmerOf('ja'), undefined);
  });

  // What the Snowball stemmers really do: plurals and regular inflections, not irregular forms, and nothing
  // for a language they do not cover.
  const cases: [lang: string, term: string, text: string, found: boolean][] = [
    ['en', 'run', 'running', true],
    ['en', 'run', 'ran', false],
    ['en', 'analysis', 'analyses', false],
    ['fr', 'fichier', 'Les fichiers', true],
    ['es', 'archivo', 'Los archivos', true],
    ['it', 'memoria', 'le memorie', true],
    ['pt', 'arquivo', 'os arquivos', true],
    ['nl', 'bestand', 'de bestanden', true],
    ['sv', 'fil', 'filerna', true],
    ['da', 'fil', 'filerne', true],
    ['nb', 'fil', 'filene', true],
    ['de', 'Haus', 'Häuser', true],
    ['de', 'Speicher', 'des Speichers', true],
    ['ru', 'файл', 'файлов', true],
    ['uk', 'файл', 'файлів', true],
    ['bg', 'файл', 'файлове', true],
    ['fi', 'tiedosto', 'tiedostot', true],
    ['hu', 'fájl', 'fájlok', true],
    ['tr', 'dosya', 'dosyaları', true],
    ['el', 'αρχείο', 'αρχεία', true],
    ['ar', 'ملف', 'الملفات', true],
    ['ro', 'fișier', 'fișierele', true],
    ['lt', 'failas', 'failai', true],
    ['pl', 'plik', 'plików', false],
    ['cs', 'soubor', 'souborů', false],
    ['pl', 'plik', 'Plik', true],
  ];
  for (const [lang, term, text, found] of cases) {
    test(`${lang}: "${term}" ${found ? 'is' : 'is not'} found in "${text}"`, () => {
      assert.equal(finds(lang, term, text), found);
    });
  }

  test('keys: NFC, the typographic apostrophe, Turkish dotted and dotless I', () => {
    assert.ok(finds('en', 'café', 'two cafe\u0301s'));
    assert.equal(termTokenizer('en').keyOf('user’s'), termTokenizer('en').keyOf("user's"));
    assert.ok(finds('tr', 'İstanbul', 'istanbul'));
    assert.equal(termTokenizer('tr').keyOf('I'), 'ı');
    assert.equal(termTokenizer('en').keyOf('I'), 'i');
  });

  test('numbers are words of a term, wide digits read as ASCII ones', () => {
    assert.ok(finds('en', 'Windows 10', 'on windows 10 only'));
    assert.ok(finds('ja', 'Windows 10', 'Windows １０で'));
    assert.ok(!finds('en', 'Windows 10', 'Windows 11'));
  });
});
