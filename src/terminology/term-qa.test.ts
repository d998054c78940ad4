import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { QA_CODES } from '../text/qa/qa-checks.ts';
import { buildGlossary, recognizeTerms, type TermRecord, type TermStatus } from './glossary.ts';
import { checkTermConsistency, checkTerms, termUses } from './term-qa.ts';

let nextId = 1;
function term(
  conceptId: number,
  lang: string,
  text: string,
  status: TermStatus = 'preferred',
  caseSensitive = false,
): TermRecord {
  return {
    conceptId,
    termId: nextId++,
    lang,
    text,
    status,
    caseSensitive,
    partOfSpeech: 'noun',
    definition: null,
  };
}

const FILE_EN = term(1, 'en', 'file');
const FILE_DE = term(1, 'de', 'Datei');
const FILE_DE_ADMITTED = term(1, 'de', 'File', 'admitted');
const FILE_DE_FORBIDDEN = term(1, 'de', 'Akte', 'forbidden');
const TM_EN = term(2, 'en', 'translation memory');
const TM_DE = term(2, 'de', 'Translation Memory');
const TM_DE_DEPRECATED = term(2, 'de', 'Übersetzungsspeicher', 'deprecated');
const MEMORY_FULL_EN = term(3, 'en', 'memory full');
const MEMORY_FULL_DE = term(3, 'de', 'Speicher voll');
const STORE_EN = term(4, 'en', 'storage');
const STORE_DE_FORBIDDEN = term(4, 'de', 'Speicher', 'forbidden');
const STORE_DE = term(4, 'de', 'Ablage');
const FR_ONLY = term(5, 'fr', 'fichier');

const glossary = buildGlossary(
  [
    FILE_EN,
    FILE_DE,
    FILE_DE_ADMITTED,
    FILE_DE_FORBIDDEN,
    TM_EN,
    TM_DE,
    TM_DE_DEPRECATED,
    MEMORY_FULL_EN,
    MEMORY_FULL_DE,
    STORE_EN,
    STORE_DE_FORBIDDEN,
    STORE_DE,
    FR_ONLY,
  ],
  'en-US',
  'de-DE',
);

const codes = (source: string, target: string | null) =>
  checkTerms(glossary, source, target).map((i) => i.code);

describe('term QA', () => {
  test('the glossary keeps the pair’s languages only, and recognition answers each concept’s target terms by status', () => {
    assert.equal(glossary.size, 12);
    const [found] = recognizeTerms(glossary, 'Open the files.');
    assert.deepEqual(found.terms, [FILE_EN]);
    assert.deepEqual(
      found.targets.map((t) => [t.text, t.status]),
      [
        ['Datei', 'preferred'],
        ['File', 'admitted'],
        ['Akte', 'forbidden'],
      ],
    );
  });

  test('a required term present in any inflection passes; missing, it is a warning naming the term', () => {
    assert.deepEqual(codes('Open the file.', 'Öffnen Sie die Datei.'), []);
    assert.deepEqual(codes('Open the files.', 'Öffnen Sie die Dateien.'), []);
    // An admitted term counts as much as the preferred one.
    assert.deepEqual(codes('Open the file.', 'Öffnen Sie das File.'), []);
    const [missing, ...rest] = checkTerms(glossary, 'Open the file.', 'Öffnen Sie das Dokument.');
    assert.deepEqual(rest, []);
    assert.equal(missing.code, QA_CODES.termMissing);
    assert.equal(missing.severity, 'warning');
    assert.equal(
      missing.message,
      'Term "file" of the source is not translated as the termbase says: "Datei" or "File"',
    );
    // No target yet: nothing to say (TARGET_EMPTY is the other checks' business).
    assert.deepEqual(codes('Open the file.', ''), []);
    assert.deepEqual(codes('Open the file.', null), []);
  });

  test('multi-word terms on both sides', () => {
    assert.deepEqual(codes('Import the translation memory.', 'Importieren Sie das Translation Memory.'), []);
    assert.deepEqual(codes('Import the translation memory.', 'Importieren Sie das Memory.'), [
      QA_CODES.termMissing,
    ]);
  });

  test('a forbidden term is an error placed in the target, naming what to use; a deprecated one a warning', () => {
    const target = 'Öffnen Sie die Akten.';
    const issues = checkTerms(glossary, 'Open the file.', target);
    assert.deepEqual(
      issues.map((i) => [
        i.code,
        i.severity,
        i.message,
        i.start === undefined ? null : target.slice(i.start, i.end),
      ]),
      [
        [
          QA_CODES.termMissing,
          'warning',
          'Term "file" of the source is not translated as the termbase says: "Datei" or "File"',
          null,
        ],
        [QA_CODES.termForbidden, 'error', '"Akten" is a forbidden term; use "Datei" or "File"', 'Akten'],
      ],
    );
    // Forbidden whatever the source says.
    assert.deepEqual(codes('Close it.', 'Schließen Sie die Akte.'), [QA_CODES.termForbidden]);
    const deprecated = checkTerms(glossary, 'Hello.', 'Der Übersetzungsspeicher.');
    assert.deepEqual(
      deprecated.map((i) => [i.code, i.severity, i.message]),
      [
        [
          QA_CODES.termDeprecated,
          'warning',
          '"Übersetzungsspeicher" is a deprecated term; use "Translation Memory"',
        ],
      ],
    );
  });

  test('a forbidden term inside a longer acceptable one is no error', () => {
    assert.deepEqual(codes('The memory full message.', 'Die Meldung Speicher voll.'), []);
    assert.deepEqual(codes('The memory is full.', 'Der Speicher ist voll.'), [QA_CODES.termForbidden]);
    assert.deepEqual(codes('The storage.', 'Die Ablage im Speicher.'), [QA_CODES.termForbidden]);
  });

  test('a term forbidden in one concept and preferred in a concept of the source is no error', () => {
    let id = 1000;
    const homonyms = buildGlossary(
      [
        { conceptId: 10, termId: id++, lang: 'en', text: 'bank', status: 'preferred', caseSensitive: false },
        { conceptId: 10, termId: id++, lang: 'de', text: 'Bank', status: 'preferred', caseSensitive: false },
        { conceptId: 11, termId: id++, lang: 'en', text: 'bench', status: 'preferred', caseSensitive: false },
        { conceptId: 11, termId: id++, lang: 'de', text: 'Bank', status: 'forbidden', caseSensitive: false },
        {
          conceptId: 11,
          termId: id++,
          lang: 'de',
          text: 'Sitzbank',
          status: 'preferred',
          caseSensitive: false,
        },
      ],
      'en',
      'de',
    );
    const check = (source: string, target: string) => checkTerms(homonyms, source, target).map((i) => i.code);
    assert.deepEqual(check('Go to the bank.', 'Geh zur Bank.'), []);
    assert.deepEqual(check('Sit on the bench.', 'Setz dich auf die Bank.'), [
      QA_CODES.termMissing,
      QA_CODES.termForbidden,
    ]);
  });

  test('a case-sensitive target term is present only in its case', () => {
    const cased = buildGlossary(
      [term(20, 'en', 'Word'), term(20, 'de', 'Word', 'preferred', true)],
      'en',
      'de',
    );
    assert.deepEqual(checkTerms(cased, 'Open Word.', 'Öffnen Sie Word.'), []);
    assert.deepEqual(
      checkTerms(cased, 'Open Word.', 'Öffnen Sie WORD.').map((i) => i.code),
      [QA_CODES.termMissing],
    );
  });

  test('term uses: which acceptable target term renders each concept of the source', () => {
    const target = 'Die Datei im Translation Memory.';
    const uses = termUses(glossary, 'The file in the translation memory.', target);
    assert.deepEqual(
      uses.map((u) => [u.conceptId, u.sourceTermId, u.targetTermId, target.slice(u.start, u.end)]),
      [
        [1, FILE_EN.termId, FILE_DE.termId, 'Datei'],
        [2, TM_EN.termId, TM_DE.termId, 'Translation Memory'],
      ],
    );
  });

  test('a concept translated two ways across a document: the segments departing from the usual term are warned', () => {
    const segments = [
      { id: 11, source: 'Open the file.', target: 'Öffnen Sie die Datei.' },
      { id: 12, source: 'Save the file.', target: 'Speichern Sie das File.' },
      { id: 13, source: 'Close the files.', target: 'Schließen Sie die Dateien.' },
      { id: 14, source: 'The translation memory.', target: 'Das Translation Memory.' },
    ];
    const found = checkTermConsistency(
      glossary,
      segments.map((s) => ({ segmentId: s.id, uses: termUses(glossary, s.source, s.target) })),
    );
    assert.deepEqual(
      found.map((f) => [
        f.segmentId,
        f.issue.code,
        f.issue.severity,
        f.issue.message,
        segments[1].target.slice(f.issue.start, f.issue.end),
      ]),
      [
        [
          12,
          QA_CODES.termInconsistent,
          'warning',
          'Term "file" is translated as "File" here and as "Datei" in 2 other segments',
          'File',
        ],
      ],
    );
    // One translation throughout: nothing to say.
    assert.deepEqual(
      checkTermConsistency(glossary, [
        { segmentId: 1, uses: termUses(glossary, 'A file.', 'Eine Datei.') },
        { segmentId: 2, uses: termUses(glossary, 'Files.', 'Dateien.') },
      ]),
      [],
    );
  });

  test('the glossary follows edits: a term removed or changed is recognized no more as it was', () => {
    const g = buildGlossary([term(30, 'en', 'workflow'), term(30, 'de', 'Workflow')], 'en', 'de');
    const [source] = [...recognizeTerms(g, 'The workflow.')[0].terms];
    assert.equal(g.add({ ...source, text: 'work flow' }), true);
    assert.deepEqual(recognizeTerms(g, 'The workflow.'), []);
    assert.equal(recognizeTerms(g, 'The work flow.').length, 1);
    assert.equal(g.remove(source.termId), true);
    assert.deepEqual(recognizeTerms(g, 'The work flow.'), []);
    assert.equal(g.add(term(31, 'fr', 'flux')), false);
  });
});
