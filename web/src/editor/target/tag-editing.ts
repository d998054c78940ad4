// What an edit typed by hand may do to the target's tags and placeholders (the units the editor protects):
//   - a unit is never cut: an edit that reaches into one takes it whole or leaves it whole;
//   - typing, pasting or deleting over a selection replaces the selection with every keystroke kept, and the
//     tags inside it go with it (Missing tags then lists them, Alt+T puts them back in order) — except the pairs
//     that enclose the whole selection when something is typed: `[1]Introduction[/1]` selected and typed over
//     with "Einleitung" is `[1]Einleitung[/1]`. Nothing is left behind clumped, nothing is typed before a chip
//     that was meant to go;
//   - Backspace or Delete against a tag does nothing (Missing tags would list it, and the next key would eat the
//     text before it); against a placeholder it takes the placeholder whole.
// The editor's own commands (insert a match or a tag, copy the source, revert) pass `filter: false`.
import { EditorState, Transaction, type TransactionSpec } from '@codemirror/state';
import { protectedUnits, type Unit } from '../tags/tag-parts.ts';

export interface Edit {
  from: number;
  to: number;
  insert: string;
}

/**
 * The edit that replaces a selection [from, to) with `typed` (empty for a deletion): widened over any unit it
 * cuts, and, when something is typed, narrowed inside the pairs of tags that enclose the whole selection.
 */
export function replaceSelection(units: readonly Unit[], from: number, to: number, typed: string): Edit {
  let a = from;
  let b = to;
  for (const u of units) {
    if (u.from < a && a < u.to) a = u.from;
    if (u.from < b && b < u.to) b = u.to;
  }
  if (typed !== '') {
    for (;;) {
      const open = units.findIndex((u) => u.from === a && u.role === 'open');
      const close = open < 0 ? undefined : units[open].partner;
      if (close === undefined || units[close].to !== b) break;
      a = units[open].to;
      b = units[close].from;
    }
  }
  return { from: a, to: b, insert: typed };
}

/**
 * A change typed at a cursor (not over a selection), made safe: the parts of its deleted range that are tags
 * are kept, a placeholder it cuts is taken whole.
 */
function cursorChange(units: readonly Unit[], from: number, to: number, insert: string): Edit[] {
  let a = from;
  let b = to;
  for (const u of units) {
    if (u.kind !== 'placeholder') continue;
    if (u.from < a && a < u.to) a = u.from;
    if (u.from < b && b < u.to) b = u.to;
  }
  const edits: Edit[] = [];
  let at = a;
  for (const t of units) {
    if (t.kind !== 'tag' || t.to <= a || t.from >= b) continue;
    if (t.from > at) edits.push({ from: at, to: t.from, insert: '' });
    at = Math.max(at, t.to);
  }
  if (at < b) edits.push({ from: at, to: b, insert: '' });
  if (insert) {
    // An insertion that would land inside a tag goes after it.
    const inside = units.find((t) => t.kind === 'tag' && t.from < a && a < t.to);
    const where = inside ? inside.to : a;
    const first = edits.find((e) => e.from === where);
    if (first) first.insert = insert;
    else edits.push({ from: where, to: where, insert });
  }
  return edits.sort((x, y) => x.from - y.from);
}

function safeTransaction(tr: Transaction): Transaction | TransactionSpec | readonly TransactionSpec[] {
  if (!tr.docChanged || !(tr.isUserEvent('input') || tr.isUserEvent('delete'))) return tr;
  const before = tr.startState.doc.toString();
  const units = protectedUnits(before);
  if (units.length === 0) return tr;
  // The user event names the edit for undo grouping.
  const userEvent = tr.annotation(Transaction.userEvent);
  const sel = tr.startState.selection.main;
  let withinSelection = !sel.empty;
  tr.changes.iterChangedRanges((fromA, toA) => {
    if (fromA < sel.from || toA > sel.to) withinSelection = false;
  });

  let edits: Edit[];
  if (withinSelection) {
    if (!units.some((u) => u.from < sel.to && u.to > sel.from)) return tr;
    // What the selection became, however the browser's input was diffed into changes.
    const typed = tr.newDoc.sliceString(tr.changes.mapPos(sel.from, -1), tr.changes.mapPos(sel.to, 1));
    edits = [replaceSelection(units, sel.from, sel.to, typed)];
  } else {
    let touches = false;
    tr.changes.iterChangedRanges((fromA, toA) => {
      if (units.some((u) => u.from < toA && u.to > fromA)) touches = true;
    });
    if (!touches) return tr;
    edits = [];
    tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
      edits.push(...cursorChange(units, fromA, toA, inserted.toString()));
    });
  }
  edits = edits.filter((e) => e.from !== e.to || e.insert !== '');
  // Backspace against a tag: nothing happens, the cursor stays.
  if (edits.length === 0) return [];
  const set = tr.startState.changes(edits);
  return {
    changes: set,
    selection: { anchor: set.mapPos(edits[edits.length - 1].to, 1) },
    userEvent,
    scrollIntoView: true,
  };
}

export const safeTagEditing = EditorState.transactionFilter.of(safeTransaction);
