import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits, unitEdits } from './filter.ts';

describe('applyEdits', () => {
  it('replaces ranges in any order, keeping the text between them', () => {
    const edits = [
      { start: 6, end: 11, text: 'Welt' },
      { start: 0, end: 5, text: 'Hallo' },
    ];
    assert.equal(applyEdits('hello world!', edits), 'Hallo Welt!');
  });

  it('writes an insertion before a replacement that starts where it is, and at the very end', () => {
    const edits = [
      { start: 0, end: 2, text: '' },
      { start: 0, end: 0, text: 'head\n' },
      { start: 5, end: 5, text: '\ntail' },
    ];
    assert.equal(applyEdits('# body', edits.slice(0, 2)), 'head\nbody');
    assert.equal(applyEdits('hello', edits.slice(2)), 'hello\ntail');
  });

  it('applies an edit inside another one only through its render', () => {
    const inner = { start: 3, end: 6, text: 'ONE' };
    const outer = {
      start: 0,
      end: 9,
      replace: (render: (range: { start: number; end: number }) => string) =>
        `${render({ start: 3, end: 9 })}|${render({ start: 0, end: 3 })}`,
    };
    assert.equal(applyEdits('ab one cd!', [inner, outer]), 'ONE cd|ab !');
  });
});

describe('unitEdits', () => {
  it('edits the units that have a translation, except where the edit declines', () => {
    const units = [
      { start: 0, end: 3 },
      { start: 4, end: 7 },
      { start: 8, end: 11 },
    ];
    const translations = [{ text: 'uno', confirmed: true }, null, { text: '%s', confirmed: false }];
    const edits = unitEdits(units, translations, (unit, t) =>
      t.text.includes('%') ? null : { ...unit, text: t.text },
    );
    assert.equal(applyEdits('one two six', edits), 'uno two six');
  });
});
