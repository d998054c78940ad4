import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taggedToLiteral } from '../tagged-literal.ts';
import { messageToTagged } from './message-tags.ts';

const ph = (id: number, code: string) =>
  `<ph id="${id}">${code.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</ph>`;

describe('messageToTagged', () => {
  it('protects the structure of select and nested plural, not the branch texts', () => {
    const message =
      '{gender, select, female {She has {n, plural, one {# cat} other {# cats}}} other {They}}!';
    const { tagged, structured } = messageToTagged(message);
    assert.equal(
      tagged,
      `${ph(1, '{gender, select, female {')}She has ${ph(2, '{n, plural, one {')}${ph(3, '#')} cat` +
        `${ph(4, '} other {')}${ph(5, '#')} cats${ph(6, '}}')}${ph(7, '} other {')}They${ph(8, '}}')}!`,
    );
    assert.equal(structured, true);
    assert.equal(taggedToLiteral(tagged), message);
  });

  it('keeps formatted arguments, nesting and markup whole', () => {
    const message =
      'Total {sum, number, ::currency/EUR} by {d, date, short}: $t(a.b, {"n": (1)}) <br/> {{- raw}}';
    assert.deepEqual(messageToTagged(message), {
      tagged:
        `Total ${ph(1, '{sum, number, ::currency/EUR}')} by ${ph(2, '{d, date, short}')}: ` +
        `${ph(3, '$t(a.b, {"n": (1)})')} ${ph(4, '<br/>')} ${ph(5, '{{- raw}}')}`,
      structured: false,
    });
  });

  it('leaves braces that are not placeholders as text, # outside plurals too', () => {
    assert.deepEqual(messageToTagged('Use {} or { a b } or {{open and #1'), {
      tagged: 'Use {} or { a b } or {{open and #1',
      structured: false,
    });
    // An unclosed plural is text, though the {x} inside it is still an argument.
    assert.deepEqual(messageToTagged('{n, plural, one {x}'), {
      tagged: `{n, plural, one ${ph(1, '{x}')}`,
      structured: false,
    });
  });

  it('protects a plural nested past 32 levels whole, and reads 20,000 levels without running out of stack', () => {
    const nested = (n: number) => `${'{x, plural, other {a '.repeat(n)}#${'}}'.repeat(n)}`;
    const deep = messageToTagged(nested(33));
    assert.equal(taggedToLiteral(deep.tagged), nested(33));
    // Levels 1–32 are structure (head and close, 64 codes); the 33rd level is one code, its # inside it.
    assert.equal(deep.tagged.match(/<ph /g)?.length, 65);
    assert.ok(deep.tagged.includes(ph(33, '{x, plural, other {a #}}')), deep.tagged.slice(0, 200));
    assert.equal(taggedToLiteral(messageToTagged(nested(20_000)).tagged), nested(20_000));
    // Thousands of unclosed arguments and {{ stay text, as one does.
    const unclosed = `${'{a, b {{ '.repeat(20_000)}}`;
    assert.equal(messageToTagged(unclosed).tagged, unclosed);
  });
});
