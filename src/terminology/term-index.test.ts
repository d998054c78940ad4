import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTermIndex, type IndexedTerm, TermIndex } from './term-index.ts';

/** The matches of a text as [the text matched, term ids]. */
function found(index: TermIndex, text: string, overlapping = false): [string, number[]][] {
  return index.find(text, { overlapping }).map((m) => [text.slice(m.start, m.end), m.termIds]);
}

const terms = (...texts: string[]): IndexedTerm[] => texts.map((text, i) => ({ termId: i + 1, text }));

describe('term recognition', () => {
  test('inflections: the stemmer’s forms of a word find its term (English)', () => {
    const index = buildTermIndex('en', terms('file', 'save'));
    assert.deepEqual(found(index, 'Files saved: 3 file, saving…'), [
      ['Files', [1]],
      ['saved', [2]],
      ['file', [1]],
      ['saving', [2]],
    ]);
  });

  test('German: "Dateien" finds "Datei" and "Übersetzungen" finds "Übersetzung" (the Snowball stemmer does it)', () => {
    const index = buildTermIndex('de-DE', terms('Datei', 'Übersetzung'));
    assert.deepEqual(found(index, 'Alle Dateien und Übersetzungen der Datei.'), [
      ['Dateien', [1]],
      ['Übersetzungen', [2]],
      ['Datei', [1]],
    ]);
    // What it does not do: compounds stay whole words ("Dateiname" is no "Datei"), and the participle
    // "gespeichert" is not reduced to "speichern".
    assert.deepEqual(found(index, 'Der Dateiname'), []);
    const verbs = buildTermIndex('de', terms('speichern'));
    assert.deepEqual(found(verbs, 'Gespeichert. Speichern Sie.'), [['Speichern', [1]]]);
  });

  test('a language without a stemmer is matched by lower-cased words only', () => {
    const index = buildTermIndex('xx', terms('foo bar'));
    assert.deepEqual(found(index, 'FOO Bar, foos bar'), [['FOO Bar', [1]]]);
  });

  test('multi-word terms, and the longest match wins over a shorter overlapping one', () => {
    const index = buildTermIndex('en', terms('memory', 'translation memory', 'translation', 'memory full'));
    assert.deepEqual(found(index, 'The translation memories are full.'), [['translation memories', [2]]]);
    assert.deepEqual(found(index, 'Translation memory full'), [['Translation memory', [2]]]);
    // Every occurrence, overlaps included, when asked.
    assert.deepEqual(found(index, 'Translation memory full', true), [
      ['Translation memory', [2]],
      ['Translation', [3]],
      ['memory full', [4]],
      ['memory', [1]],
    ]);
  });

  test('a case-sensitive term matches only its case as written; others ignore case', () => {
    const index = new TermIndex('en');
    index.add({ termId: 1, text: 'Apple', caseSensitive: true });
    index.add({ termId: 2, text: 'apple' });
    index.add({ termId: 3, text: 'US', caseSensitive: true });
    assert.deepEqual(found(index, 'Apple sells apples'), [
      ['Apple', [1, 2]],
      ['apples', [2]],
    ]);
    // The case is compared letter by letter, so an inflected form keeps the term's case: "Apples" is Apple.
    assert.deepEqual(found(index, 'APPLE Apples'), [
      ['APPLE', [2]],
      ['Apples', [1, 2]],
    ]);
    assert.deepEqual(found(index, 'Tell us about the US'), [['US', [3]]]);
  });

  test('CJK by characters: a term is found inside a run of Han and kana, and the longest one wins', () => {
    const ja = buildTermIndex('ja', terms('翻訳', '翻訳メモリ', 'ファイル'));
    assert.deepEqual(found(ja, 'ファイルを翻訳メモリに保存し、翻訳します。'), [
      ['ファイル', [3]],
      ['翻訳メモリ', [2]],
      ['翻訳', [1]],
    ]);
    const zh = buildTermIndex('zh-CN', terms('翻译记忆库', '文件'));
    assert.deepEqual(found(zh, '将文件保存到翻译记忆库。'), [
      ['文件', [2]],
      ['翻译记忆库', [1]],
    ]);
  });

  test('Korean: syllables, a match begins a word and may end before its particle', () => {
    const ko = buildTermIndex('ko', terms('파일', '번역 메모리'));
    assert.deepEqual(found(ko, '파일을 번역 메모리에 저장합니다. 프로파일'), [
      ['파일', [1]],
      ['번역 메모리', [2]],
    ]);
  });

  test('tags inside a term are skipped and enclosed by its offsets; a placeholder is not', () => {
    const index = buildTermIndex('en', terms('translation memory'));
    const tagged = 'Open the translation <g id="1">memory</g> now';
    assert.deepEqual(found(index, tagged), [['translation <g id="1">memory', [1]]]);
    assert.deepEqual(found(index, 'A translation <b>memory</b>.'), [['translation <b>memory', [1]]]);
    assert.deepEqual(found(index, 'translation {0} memory'), []);
  });

  test('punctuation: a term ends at a mark, a mark between its words breaks it, a mark in it must be there', () => {
    const index = buildTermIndex('en', terms('file', 'translation memory', 'C++', 'Save as…'));
    assert.deepEqual(found(index, '(file), "file".'), [
      ['file', [1]],
      ['file', [1]],
    ]);
    assert.deepEqual(found(index, 'translation, memory'), []);
    assert.deepEqual(found(index, 'Learn C++ or C.'), [['C++', [3]]]);
    assert.deepEqual(found(index, 'Click Save as… or Save as.'), [['Save as…', [4]]]);
  });

  test('a term is not matched inside a longer word', () => {
    const index = buildTermIndex('en', terms('file', 'log'));
    assert.deepEqual(found(index, 'profile, logfile, file-based, file.txt, catalog, blog'), []);
  });

  test('add and remove are incremental; a term with no word or a placeholder is refused', () => {
    const index = new TermIndex('en');
    assert.equal(index.add({ termId: 7, text: 'project manager' }), true);
    assert.equal(index.add({ termId: 7, text: 'project manager' }), false);
    assert.equal(index.add({ termId: 8, text: '...' }), false);
    assert.equal(index.add({ termId: 9, text: '%s files' }), false);
    assert.deepEqual(found(index, 'Ask the project managers.'), [['project managers', [7]]]);
    assert.equal(index.remove({ termId: 7, text: 'project manager' }), true);
    assert.equal(index.remove({ termId: 7, text: 'project manager' }), false);
    assert.equal(index.size, 0);
    assert.equal(index.garbage, 1);
    assert.deepEqual(found(index, 'Ask the project managers.'), []);
  });

  test('many terms: grown tables still answer every term', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
    const index = buildTermIndex(
      'en',
      words.map((w, i) => ({ termId: i, text: i % 2 ? `${w} ${words[(i * 7) % words.length]}` : w })),
    );
    assert.equal(index.size, words.length);
    for (const i of [0, 1, 2, 999, 4998, 4999]) {
      const text = i % 2 ? `${words[i]} ${words[(i * 7) % words.length]}` : words[i];
      assert.deepEqual(index.find(`see ${text}.`)[0]?.termIds, [i], text);
    }
    assert.ok(index.memoryBytes() > 0);
  });
});
