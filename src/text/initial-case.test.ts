import assert from 'node:assert/strict';
import { test } from 'node:test';
import { raiseInitialCase } from './initial-case.ts';

test('a sentence matched by a fragment: the target starts with a capital', () => {
  assert.equal(
    raiseInitialCase(
      'could not open file "%s": %s',
      'konnte Datei »%s« nicht öffnen: %s',
      'Could not open file “%s”: %s',
      'de',
    ),
    'Konnte Datei »%s« nicht öffnen: %s',
  );
  assert.equal(
    raiseInitialCase('élément manquant', 'élément absent', 'Élément manquant', 'fr'),
    'Élément absent',
  );
  // Another first word: what counts is that the segment starts as a sentence.
  assert.equal(
    raiseInitialCase('could not open', 'konnte nicht öffnen', 'Cannot open', 'de'),
    'Konnte nicht öffnen',
  );
  // Turkish dotted i: the language's own upper case.
  assert.equal(raiseInitialCase('insert a disk', 'iki disk takın', 'Insert a disk', 'tr'), 'İki disk takın');
  // Tags before the words of a source do not count; the sources' letters do.
  assert.equal(raiseInitialCase('<g id="1">open</g> it', 'öffnen', '<g id="1">Open</g> it', 'de'), 'Öffnen');
});

test('left as it is: never lowered, other letters, a target that does not start with a lower-case letter', () => {
  // A fragment matched by a sentence: a German capital may be the noun's own.
  assert.equal(
    raiseInitialCase(
      'File could not be read',
      'Datei konnte nicht gelesen werden',
      'file could not be read',
      'de',
    ),
    'Datei konnte nicht gelesen werden',
  );
  // The same case on both sides; a source that starts with no letter.
  assert.equal(
    raiseInitialCase('could not open', 'konnte nicht öffnen', 'could not open it', 'de'),
    'konnte nicht öffnen',
  );
  assert.equal(
    raiseInitialCase('Could not open', 'konnte nicht öffnen', 'Could not open it', 'de'),
    'konnte nicht öffnen',
  );
  assert.equal(
    raiseInitialCase('could not open', 'konnte nicht öffnen', '"Could not open"', 'de'),
    'konnte nicht öffnen',
  );
  // The target starts with a placeholder, a tag, a digit or a capital already.
  assert.equal(
    raiseInitialCase('could not open %s', '%s konnte nicht geöffnet werden', 'Could not open %s', 'de'),
    '%s konnte nicht geöffnet werden',
  );
  assert.equal(
    raiseInitialCase('open <b>it</b>', '<g id="1">öffnen</g>', 'Open <b>it</b>', 'de'),
    '<g id="1">öffnen</g>',
  );
  assert.equal(
    raiseInitialCase('could not open', 'Konnte nicht öffnen', 'Could not open', 'de'),
    'Konnte nicht öffnen',
  );
  // Scripts without case.
  assert.equal(raiseInitialCase('open the file', 'ファイルを開く', 'Open the file', 'ja'), 'ファイルを開く');
});
