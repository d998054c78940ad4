// Editing a target with tags and placeholders by hand, as CodeMirror's transactions do it: every keystroke kept,
// no tag cut, clumped or left behind empty.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EditorSelection, EditorState } from '@codemirror/state';
import { protectedUnits } from '../tags/tag-parts.ts';
import { safeTagEditing } from './tag-editing.ts';

const G1 = '<g id="1">';
const C = '</g>';

function editor(doc: string, anchor: number, head = anchor) {
  return EditorState.create({
    doc,
    selection: EditorSelection.single(anchor, head),
    extensions: [safeTagEditing],
  });
}

/** Replaces the selection with `text` as typing does (the browser's input arrives as one change). */
function type(state: EditorState, text: string) {
  const { from, to } = state.selection.main;
  return state.update({
    changes: { from, to, insert: text },
    selection: { anchor: from + text.length },
    userEvent: 'input.type',
  }).state;
}

function keys(state: EditorState, text: string) {
  let s = type(state, text[0]);
  for (const ch of text.slice(1)) s = type(s, ch);
  return s;
}

test('typing over a selected pair keeps every keystroke, inside the pair', () => {
  const doc = `${G1}Introduction${C}`;
  const s = keys(editor(doc, 0, doc.length), 'Einleitung');
  assert.equal(s.doc.toString(), `${G1}Einleitung${C}`);
  assert.equal(s.selection.main.head, `${G1}Einleitung`.length);
});

test('typing over a selection with a tag mid-sentence takes the tags with it: nothing clumps at the end', () => {
  const doc = `Read the ${G1}manual${C} now.`;
  const s = keys(editor(doc, 0, doc.length), 'Lies es');
  assert.equal(s.doc.toString(), 'Lies es');
});

test('however the browser’s input is diffed, the selection becomes what was typed', () => {
  // Typing "R" over "Read the [1]manual[/1] now." arrives as "keep the R, delete the rest".
  const doc = `Read the ${G1}manual${C} now.`;
  const s = editor(doc, 0, doc.length).update({
    changes: { from: 1, to: doc.length },
    selection: { anchor: 1 },
    userEvent: 'input.type',
  }).state;
  assert.equal(s.doc.toString(), 'R');
  assert.equal(s.selection.main.head, 1);
});

test('deleting a selection takes its tags; Backspace against a tag does nothing', () => {
  const doc = `${G1}Introduction${C}`;
  let s = editor(doc, 0, doc.length);
  s = s.update({ changes: { from: 0, to: doc.length }, userEvent: 'delete.selection' }).state;
  assert.equal(s.doc.toString(), '');
  const t = editor(`ab${G1}c`, `ab${G1}`.length);
  const tr = t.update({ changes: { from: 2, to: 2 + G1.length }, userEvent: 'delete.backward' });
  assert.equal(tr.state.doc.toString(), `ab${G1}c`);
  assert.equal(tr.state.selection.main.head, `ab${G1}`.length);
});

test('a change that reaches into a tag keeps the tag and the rest of the change', () => {
  const doc = `ab${G1}cd`;
  const s = editor(doc, 1).update({ changes: { from: 1, to: doc.length - 1 }, userEvent: 'delete.forward' });
  assert.equal(s.state.doc.toString(), `a${G1}d`);
});

test('a placeholder is taken whole or not at all', () => {
  const doc = 'Datei %s gelöscht';
  assert.deepEqual(
    protectedUnits(doc).map((u) => [u.kind, doc.slice(u.from, u.to)]),
    [['placeholder', '%s']],
  );
  // A deletion that ends inside it takes all of it.
  const s = editor(doc, 8).update({ changes: { from: 7, to: 8 }, userEvent: 'delete.backward' });
  assert.equal(s.state.doc.toString(), 'Datei  gelöscht');
  // Typing over a selection that ends inside it replaces all of it.
  const t = type(editor(doc, 3, 7), 'x');
  assert.equal(t.doc.toString(), 'Datx gelöscht');
});

test('the editor’s own commands are not filtered', () => {
  const doc = `${G1}a${C}`;
  const s = editor(doc, 0).update({ changes: { from: 0, to: doc.length, insert: 'b' }, filter: false });
  assert.equal(s.state.doc.toString(), 'b');
});
