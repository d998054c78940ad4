// Which spans of a source the termbase protects, what they are restored to, and the DeepL entries: the
// preferred target term first, else an admitted one, never a deprecated or forbidden one; a term crossing a tag
// or holding a placeholder left as words; a sentence-initial term capitalized; the hash changing with the entries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TermRecord } from '../../terminology/glossary.ts';
import { maskForMt, unmaskMt } from '../../text/mt-masking.ts';
import { glossaryEntries, makeTermbase, protectedSpans } from './termbase.ts';

const term = (termId: number, conceptId: number, lang: string, text: string, status = 'preferred') =>
  ({ termId, conceptId, lang, text, status, caseSensitive: false }) as TermRecord;

const TERMS = [
  term(1, 1, 'en', 'print queue'),
  term(2, 1, 'es', 'cola de impresión', 'admitted'),
  term(3, 1, 'es', 'cola de trabajos'),
  term(4, 2, 'en', 'folder'),
  term(5, 2, 'es', 'carpeta', 'forbidden'),
  term(6, 2, 'es', 'directorio', 'deprecated'),
  term(7, 3, 'en', 'printer'),
  term(8, 3, 'es', 'impresora', 'admitted'),
];

test('the preferred target term is substituted, else an admitted one; a concept with neither is left to MT', () => {
  const tb = makeTermbase(1, TERMS, 'en', 'es');
  const source = 'Open the print queue of the printer in a folder.';
  const spans = protectedSpans(tb, source);
  assert.deepEqual(
    spans.map((s) => [source.slice(s.start, s.end), s.target]),
    [
      ['print queue', 'cola de trabajos'],
      ['printer', 'impresora'],
    ],
  );
  const mask = maskForMt(source, spans);
  assert.equal(mask.masked, 'Open the <x1/> of the <x2/> in a folder.');
  assert.equal(
    unmaskMt(source, mask, 'Abre la <x1/> de la <x2/> en una carpeta.'),
    'Abre la cola de trabajos de la impresora en una carpeta.',
  );
  assert.equal(
    unmaskMt(source, mask, 'Abre la cola de la <x2/>.'),
    null,
    'a lost term is refused like a tag',
  );
});

test('a term at the start of a sentence is capitalized; tags and placeholders keep their elements', () => {
  const tb = makeTermbase(1, TERMS, 'en', 'es');
  const source = 'Printer: <g id="1">restart</g> the printer for {user}.';
  const mask = maskForMt(source, protectedSpans(tb, source));
  assert.equal(mask.masked, '<x1/>: <g2>restart</g2> the <x3/> for <x4/>.');
  assert.equal(
    unmaskMt(source, mask, '<x1/>: <g2>reinicia</g2> la <x3/> para <x4/>.'),
    'Impresora: <g id="1">reinicia</g> la impresora para {user}.',
  );
  // A term crossing a tag stays words.
  const crossing = 'The print <g id="1">queue</g> is full.';
  assert.equal(maskForMt(crossing, protectedSpans(tb, crossing)).masked, 'The print <g1>queue</g1> is full.');
});

test('DeepL entries: each source term to its first acceptable target term; the hash follows them', () => {
  assert.deepEqual(
    [...glossaryEntries(TERMS, 'en-US', 'es-ES')],
    [
      ['print queue', 'cola de trabajos'],
      ['printer', 'impresora'],
    ],
  );
  const a = makeTermbase(1, TERMS, 'en', 'es');
  const b = makeTermbase(1, [...TERMS, term(9, 2, 'es', 'carpeta de archivos', 'admitted')], 'en', 'es');
  assert.equal(b.entries.get('folder'), 'carpeta de archivos');
  assert.notEqual(a.hash, b.hash);
  assert.equal(makeTermbase(2, [...TERMS].reverse(), 'en', 'es').hash, a.hash, 'order does not matter');
});
