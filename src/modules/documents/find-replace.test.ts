import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../errors.ts';
import { compileReplacer, replaceAll } from './find-replace.ts';

const plain = { regex: false, caseSensitive: false };

test('plain text: any case, literal replacement, tags never touched', () => {
  const replace = compileReplacer({ ...plain, find: 'g', replace: '$1 G' });
  assert.equal(replace('a <g id="g">g</g> G'), 'a <g id="g">$1 G</g> $1 G');
  const exact = compileReplacer({ find: 'File', replace: 'Akte', regex: false, caseSensitive: true });
  assert.equal(exact('File file <x id="File"/>File'), 'Akte file <x id="File"/>Akte');
  // Special characters are literal.
  assert.equal(compileReplacer({ ...plain, find: '(a.b)', replace: 'x' })('(a.b) (aXb)'), 'x (aXb)');
});

test('regular expressions: groups by number and name, $& and $$; empty matches insert nothing', () => {
  const re = (find: string, replace: string) =>
    compileReplacer({ find, replace, regex: true, caseSensitive: true });
  assert.equal(re('(\\d+)-(\\d+)', '$2–$1')('1-2 and 30-40'), '2–1 and 40–30');
  assert.equal(re('(?<word>\\w+)!', '¡$<word>!')('Hola!'), '¡Hola!');
  assert.equal(re('\\d+', '[$&] $$')('7'), '[7] $');
  assert.equal(re('x*', '-')('abc'), 'abc');
  assert.equal(re('(?<=a)b', 'B')('ab b'), 'aB b');
});

test('a bad expression is a 400 naming find', () => {
  assert.throws(
    () => compileReplacer({ find: '(open', replace: '', regex: true, caseSensitive: false }),
    (err: unknown) => err instanceof AppError && err.status === 400 && /"find"/.test(err.message),
  );
});

test('a regular expression that backtracks for ever is stopped by its deadline', async () => {
  const texts = [`${'a'.repeat(40)}!`];
  await assert.rejects(
    replaceAll({ find: '^(a+)+$', replace: 'x', regex: true, caseSensitive: true }, texts, 500),
    (err: unknown) => err instanceof AppError && err.status === 400 && /took longer/.test(err.message),
  );
  assert.deepEqual(
    await replaceAll({ find: 'a+', replace: 'b', regex: true, caseSensitive: true }, ['caab', 'x']),
    ['cbb', 'x'],
  );
});
