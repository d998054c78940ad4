import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { literalToTagged, taggedToLiteral } from './tagged-literal.ts';

describe('literalToTagged / taggedToLiteral', () => {
  it('leaves ordinary text alone, even with < and &', () => {
    assert.equal(literalToTagged('a < b & <b>bold</b>'), 'a < b & <b>bold</b>');
  });

  it('wraps text that spells an inline element, so it comes back exactly', () => {
    const literal = 'Use <ph>a&amp;b</ph> and <x/>.';
    const tagged = literalToTagged(literal);
    assert.equal(
      tagged,
      'Use <ph id="1">&lt;ph&gt;a&amp;amp;b&lt;/ph&gt;</ph> and <ph id="2">&lt;x/&gt;</ph>.',
    );
    assert.equal(taggedToLiteral(tagged), literal);
  });

  it('protects placeholders with shared numbering and a native form', () => {
    const ids = { last: 4 };
    const tagged = literalToTagged('Hi {{name}} & {{x}}', {
      protect: /\{\{[^{}]*\}\}/g,
      ids,
      native: (s) => `[${s}]`,
    });
    assert.equal(tagged, 'Hi <ph id="5">[{{name}}]</ph> & <ph id="6">[{{x}}]</ph>');
    assert.equal(ids.last, 6);
    assert.equal(taggedToLiteral(tagged), 'Hi [{{name}}] & [{{x}}]');
  });

  it('writes foreign paired and empty tags as they are', () => {
    assert.equal(taggedToLiteral('<g id="1">A</g><x id="2"/>'), '<g id="1">A</g><x id="2"/>');
  });
});
