import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../errors.ts';
import { requireFileName } from './file-names.ts';

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
