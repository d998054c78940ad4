// The key table: every combination is bound once, none is the browser's or the system's, none is Ctrl+Alt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ACTIONS, type Action, bindings, tableProblems } from './actions.ts';
import { formatCombo, type KeyLike, matchesEvent, parseCombo } from './key-combos.ts';

const key = (k: Partial<KeyLike> & { key: string }): KeyLike => ({
  code: '',
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...k,
});

test('the table has no duplicate, reserved or Ctrl+Alt combination, on Windows/Linux and on a Mac', () => {
  assert.deepEqual(tableProblems('other'), []);
  assert.deepEqual(tableProblems('mac'), []);
});

test('the check finds each kind of problem', () => {
  const bad: Action[] = [
    { id: 'revert', label: 'a', group: 'Target', keys: ['Alt+ArrowDown'] },
    { id: 'nextSegment', label: 'b', group: 'Segments', keys: ['Alt+ArrowDown'] },
    { id: 'copySource', label: 'c', group: 'Target', keys: ['Mod+T', 'Ctrl+Alt+Q', 'Alt+ArrowLeft'] },
    { id: 'insertNextTag', label: 'd', group: 'Target', keys: ['Alt+T'] },
  ];
  const problems = tableProblems('other', bad);
  assert.equal(problems.length, 4, problems.join('\n'));
  assert.match(problems[0], /Alt\+ArrowDown is bound twice/);
  assert.match(problems[1], /Mod\+T .* reserved/);
  assert.match(problems[2], /Ctrl\+Alt\+Q .* AltGr/);
  assert.match(problems[3], /Alt\+ArrowLeft .* reserved/);
  assert.match(
    tableProblems('mac', bad).join('\n'),
    /Alt\+T \(insertNextTag\) types a character with Option/,
  );
});

test('the actions the issue names have their keys', () => {
  const combos = new Map(
    bindings('other')
      .filter((b) => b.action.mode !== 'review')
      .map((b) => [b.combo, b.action.id]),
  );
  assert.equal(combos.get('Mod+Enter'), 'confirmAndNext');
  assert.equal(combos.get('Alt+ArrowDown'), 'nextSegment');
  assert.equal(combos.get('Alt+ArrowUp'), 'previousSegment');
  assert.equal(combos.get('Mod+I'), 'copySource');
  assert.equal(combos.get('Escape'), 'revert');
  assert.equal(combos.get('Alt+T'), 'insertNextTag');
  assert.equal(combos.get('?'), 'help');
  assert.equal(combos.get('Alt+Shift+M'), 'toggleFullTags');
  for (let n = 1; n <= 9; n++) assert.equal(combos.get(`Alt+${n}`), 'insertMatch');
  assert.ok(ACTIONS.every((a) => a.label.length > 0));
});

test('review mode: Ctrl+Enter sets Reviewed and Ctrl+Shift+Enter withdraws it; a key is bound once per mode', () => {
  const review = new Map(
    bindings('other')
      .filter((b) => b.action.mode !== 'translate')
      .map((b) => [b.combo, b.action.id]),
  );
  assert.equal(review.get('Mod+Enter'), 'reviewAndNext');
  assert.equal(review.get('Mod+Shift+Enter'), 'unreview');
  assert.equal(review.get('Alt+ArrowDown'), 'nextSegment');
  // The same key in two modes is no problem; in one mode and in both it is.
  const shared: Action[] = [
    { id: 'confirmAndNext', label: 'a', group: 'Segments', keys: ['Mod+Enter'], mode: 'translate' },
    { id: 'reviewAndNext', label: 'b', group: 'Segments', keys: ['Mod+Enter'], mode: 'review' },
  ];
  assert.deepEqual(tableProblems('other', shared), []);
  const clash: Action[] = [
    ...shared,
    { id: 'nextSegment', label: 'c', group: 'Segments', keys: ['Mod+Enter'] },
  ];
  assert.equal(tableProblems('other', clash).length, 2);
});

test('combinations match the events browsers send', () => {
  const other = (text: string) => parseCombo(text, 'other');
  assert.ok(matchesEvent(other('Mod+Enter'), key({ key: 'Enter', ctrlKey: true })));
  assert.ok(!matchesEvent(other('Mod+Enter'), key({ key: 'Enter', ctrlKey: true, shiftKey: true })));
  assert.ok(matchesEvent(other('Alt+1'), key({ key: '1', code: 'Digit1', altKey: true })));
  assert.ok(matchesEvent(other('Alt+T'), key({ key: 't', code: 'KeyT', altKey: true })));
  assert.ok(
    matchesEvent(other('Alt+Shift+M'), key({ key: 'M', code: 'KeyM', altKey: true, shiftKey: true })),
  );
  // Option+T types "†" on a Mac; the physical key still says T.
  assert.ok(matchesEvent(parseCombo('Ctrl+T', 'mac'), key({ key: '†', code: 'KeyT', ctrlKey: true })));
  assert.ok(matchesEvent(parseCombo('Mod+I', 'mac'), key({ key: 'i', code: 'KeyI', metaKey: true })));
  assert.ok(!matchesEvent(parseCombo('Mod+I', 'mac'), key({ key: 'i', code: 'KeyI', ctrlKey: true })));
  // "?" is Shift+/ on a US keyboard and Shift+ß on a German one: shift does not count for a symbol.
  assert.ok(matchesEvent(other('?'), key({ key: '?', code: 'Slash', shiftKey: true })));
  assert.ok(matchesEvent(other('?'), key({ key: '?', code: 'Minus', shiftKey: true })));
  assert.ok(!matchesEvent(other('Alt+ArrowDown'), key({ key: 'ArrowDown' })));
});

test('combinations are printed for people', () => {
  assert.equal(formatCombo('Mod+Enter', 'other'), 'Ctrl+Enter');
  assert.equal(formatCombo('Mod+Enter', 'mac'), 'Cmd+Enter');
  assert.equal(formatCombo('Alt+Shift+ArrowDown', 'other'), 'Alt+Shift+↓');
  assert.equal(formatCombo('Alt+ArrowDown', 'mac'), 'Option+↓');
});
