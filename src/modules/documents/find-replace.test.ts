import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../errors.ts';
import { compileReplacer } from './find-replace.ts';

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

test('a result longer than the bound is not built: null, whatever the number of matches', () => {
  const replace = compileReplacer({ ...plain, find: 'e', replace: 'x'.repeat(5000) }, 20_000);
  assert.equal(replace('e'.repeat(4)), 'x'.repeat(20_000));
  assert.equal(replace('e'.repeat(5)), null);
  assert.equal(replace(`${'e'.repeat(100_000)}<x id="1"/>`), null);
  // Nothing matched: the text itself, even past the bound.
  assert.equal(replace('a'.repeat(30_000)), 'a'.repeat(30_000));
  // Tags count towards the length.
  const tagged = compileReplacer({ ...plain, find: 'a', replace: 'bb' }, 12);
  assert.equal(tagged('a<x id="1"/>a'), null);
  assert.equal(
    compileReplacer({ ...plain, find: 'a', replace: 'bb' }, 16)('a<x id="1"/>a'),
    'bb<x id="1"/>bb',
  );
});

test("a regular expression's replacement is expanded under the bound: $& repeated over a long match is null", () => {
  const re = (replace: string, max: number) =>
    compileReplacer({ find: '.+', replace, regex: true, caseSensitive: true }, max);
  // 2,500 copies of a million characters: refused without building them.
  assert.equal(re('$&'.repeat(2500), 20_000)('b'.repeat(1_000_000)), null);
  assert.equal(re('$&$&', 20_000)('b'.repeat(10_000)), 'b'.repeat(20_000));
  assert.equal(re('$&$&!', 20_000)('b'.repeat(10_000)), null);
  // Groups, names and $$ count as they expand.
  assert.equal(
    compileReplacer({ find: '(?<w>ab)', replace: '$<w>$1$$', regex: true, caseSensitive: true }, 5)('ab'),
    'abab$',
  );
  assert.equal(
    compileReplacer({ find: '(?<w>ab)', replace: '$<w>$1$$', regex: true, caseSensitive: true }, 4)('ab'),
    null,
  );
});
