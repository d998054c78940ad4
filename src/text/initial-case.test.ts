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
  // [the match's source, its target, the segment's source, the target language, why the target stays]
  const unchanged: [string, string, string, string, string][] = [
    [
      'File could not be read',
      'Datei konnte nicht gelesen werden',
      'file could not be read',
      'de',
      'never lowered: a German capital may be the noun’s own',
    ],
    ['could not open', 'konnte nicht öffnen', 'could not open it', 'de', 'both sources in lower case'],
    ['Could not open', 'konnte nicht öffnen', 'Could not open it', 'de', 'both sources with a capital'],
    ['could not open', 'konnte nicht öffnen', '"Could not open"', 'de', 'the source starts with no letter'],
    [
      'could not open %s',
      '%s konnte nicht geöffnet werden',
      'Could not open %s',
      'de',
      'the target starts with a placeholder',
    ],
    ['open <b>it</b>', '<g id="1">öffnen</g>', 'Open <b>it</b>', 'de', 'the target starts with a tag'],
    ['could not open', 'Konnte nicht öffnen', 'Could not open', 'de', 'the target has its capital'],
    ['open the file', 'ファイルを開く', 'Open the file', 'ja', 'a script without case'],
  ];
  for (const [matchSource, target, source, language, why] of unchanged) {
    assert.equal(raiseInitialCase(matchSource, target, source, language), target, why);
  }
});
