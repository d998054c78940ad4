import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../errors.ts';
import { requireFileName, targetTag, translatedFileName } from './file-names.ts';

test('plain file names pass, in any script', () => {
  for (const name of ['guide.txt', 'Übersicht 2024.docx', '説明書.md', 'a.b.c.po', "it's (final).html"]) {
    assert.equal(requireFileName(name), name);
  }
});

test('paths, "..", control, separator and bidi characters are refused naming the parameter', () => {
  const bad = [
    '../etc/passwd.txt',
    'dir/a.txt',
    'C:\\a.txt',
    '..hidden.txt',
    'a\u0000.txt',
    'a\n.txt',
    'a\u007f.txt',
    'a\u0085.txt',
    'a\u2028.txt',
    'a\u2029.txt',
    'invoice\u202efdp.exe',
    'a\u2066b.txt',
    'a\u200f.txt',
    'x'.repeat(256),
  ];
  for (const name of bad) {
    assert.throws(
      () => requireFileName(name, 'name'),
      (err) => err instanceof AppError && err.status === 400 && /"name"/.test(err.message),
      JSON.stringify(name),
    );
  }
  assert.throws(() => requireFileName('  '), /Parameter "name" is required/);
});

test('a translated file is named with its target tag before the extension, replacing the source tag', () => {
  assert.equal(translatedFileName('manual.html', 'en', 'de-DE'), 'manual.de-DE.html');
  assert.equal(translatedFileName('messages.po', 'en', 'de'), 'messages.de.po');
  assert.equal(translatedFileName('messages.en.po', 'en', 'de'), 'messages.de.po');
  assert.equal(translatedFileName('strings.en-US.json', 'en', 'fr'), 'strings.fr.json');
  assert.equal(translatedFileName('adduser.pot', 'en', 'de'), 'adduser.de.po');
  assert.equal(translatedFileName('README', 'en', 'de'), 'README.de');
  // A part that is no tag of the source language stays.
  assert.equal(translatedFileName('guide.v2.md', 'en', 'de'), 'guide.v2.de.md');
  assert.equal(translatedFileName('notes.fr.txt', 'en', 'de'), 'notes.fr.de.txt');
  assert.equal(translatedFileName('.hidden', 'en', 'de'), '.hidden.de');
});

test('the target tag is the locale when whole, the language and a region-only locale, or the language', () => {
  assert.equal(targetTag('de', 'de-AT'), 'de-AT');
  assert.equal(targetTag('de', 'DE'), 'de-DE');
  assert.equal(targetTag('de', null), 'de');
});
