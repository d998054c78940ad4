// The one table of the editor's keyboard actions: it drives the key bindings, the buttons' tooltips and the
// `?` help overlay, so a key can never be bound without being documented (docs/EDITOR.md §5).
import { comboId, type Platform, parseCombo } from './key-combos.ts';

export type ActionId =
  | 'confirmAndNext'
  | 'reviewAndNext'
  | 'unreview'
  | 'saveAndNext'
  | 'unconfirm'
  | 'nextSegment'
  | 'previousSegment'
  | 'nextUnconfirmed'
  | 'nextQaIssue'
  | 'goToSegment'
  | 'insertMatch'
  | 'insertMt'
  | 'insertRepair'
  | 'insertTerm'
  | 'addTerm'
  | 'copySource'
  | 'insertNextTag'
  | 'insertAllTags'
  | 'concordance'
  | 'findInDocument'
  | 'findReplace'
  | 'joinSegments'
  | 'splitSegment'
  | 'revert'
  | 'toggleFullTags'
  | 'commentOnSegment'
  | 'rejectSegment'
  | 'help';

export interface Action {
  id: ActionId;
  label: string;
  group: 'Segments' | 'Target' | 'Memory' | 'Review' | 'Help';
  /** Combinations on Windows and Linux; "Mod" is Ctrl there and Cmd on a Mac. Several for a numbered action. */
  keys: readonly string[];
  /** Where Option would type a character on a Mac (Option+T is "†"), Ctrl instead. */
  macKeys?: readonly string[];
  /** Bound only when the focus is not in a text field (it would type the character otherwise). */
  outsideText?: boolean;
  /**
   * Bound only in this mode of the editor (translating, or review mode: docs/EDITOR.md); without it, in both.
   * Two actions of different modes may share a key: Ctrl+Enter confirms, or in review mode sets Reviewed.
   */
  mode?: EditorMode;
}

export type EditorMode = 'translate' | 'review';
export const EDITOR_MODES: readonly EditorMode[] = ['translate', 'review'];

const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

export const ACTIONS: readonly Action[] = [
  {
    id: 'confirmAndNext',
    label: 'Confirm and go to the next unconfirmed segment',
    group: 'Segments',
    keys: ['Mod+Enter'],
    mode: 'translate',
  },
  {
    id: 'reviewAndNext',
    label: 'Review mode: mark Reviewed and go to the next segment not reviewed',
    group: 'Segments',
    keys: ['Mod+Enter'],
    mode: 'review',
  },
  {
    id: 'saveAndNext',
    label: 'Save draft and go to the next segment',
    group: 'Segments',
    keys: ['Alt+Enter'],
  },
  { id: 'unconfirm', label: 'Unconfirm', group: 'Segments', keys: ['Mod+Shift+Enter'], mode: 'translate' },
  {
    id: 'unreview',
    label: 'Review mode: withdraw Reviewed (the segment stays confirmed)',
    group: 'Segments',
    keys: ['Mod+Shift+Enter'],
    mode: 'review',
  },
  { id: 'nextSegment', label: 'Next segment', group: 'Segments', keys: ['Alt+ArrowDown'] },
  { id: 'previousSegment', label: 'Previous segment', group: 'Segments', keys: ['Alt+ArrowUp'] },
  {
    id: 'nextUnconfirmed',
    label: 'Next unconfirmed segment',
    group: 'Segments',
    keys: ['Alt+Shift+ArrowDown'],
  },
  { id: 'nextQaIssue', label: 'Next segment with a QA issue', group: 'Segments', keys: ['F8'] },
  {
    id: 'goToSegment',
    label: 'Go to segment number…',
    group: 'Segments',
    keys: ['Alt+G'],
    macKeys: ['Ctrl+G'],
  },
  { id: 'findInDocument', label: 'Search the document', group: 'Segments', keys: ['Mod+F'] },
  {
    id: 'findReplace',
    label: 'Find and replace in the document…',
    group: 'Segments',
    keys: ['Mod+Shift+F'],
  },
  {
    id: 'joinSegments',
    label: 'Join with the next segment of the paragraph',
    group: 'Segments',
    keys: ['Alt+J'],
    macKeys: ['Ctrl+J'],
  },
  {
    id: 'splitSegment',
    label: 'Split the segment where the cursor is in its source',
    group: 'Segments',
    keys: ['Alt+Shift+J'],
    macKeys: ['Ctrl+Shift+J'],
  },
  {
    id: 'insertMatch',
    label: 'Insert match 1–9 (its tags mapped onto this segment’s)',
    group: 'Memory',
    keys: DIGITS.map((d) => `Alt+${d}`),
    macKeys: DIGITS.map((d) => `Ctrl+${d}`),
  },
  {
    id: 'insertMt',
    label: 'Insert the machine translation (shown after the matches)',
    group: 'Memory',
    keys: ['Alt+0'],
    macKeys: ['Ctrl+0'],
  },
  {
    id: 'insertRepair',
    label: 'Insert the best match repaired by machine translation (shown after the matches)',
    group: 'Memory',
    keys: ['Alt+R'],
    macKeys: ['Ctrl+R'],
  },
  {
    id: 'insertTerm',
    label: 'Insert term 1–9 of the Terms panel (never a forbidden one)',
    group: 'Memory',
    keys: DIGITS.map((d) => `Alt+Shift+${d}`),
    macKeys: DIGITS.map((d) => `Ctrl+Shift+${d}`),
  },
  {
    id: 'addTerm',
    label: 'Add a term to the termbase from the source and target selections…',
    group: 'Memory',
    keys: ['Alt+Shift+A'],
    macKeys: ['Ctrl+Shift+A'],
  },
  {
    id: 'concordance',
    label: 'Search the memory for the selection',
    group: 'Memory',
    keys: ['Alt+K'],
    macKeys: ['Ctrl+K'],
  },
  { id: 'copySource', label: 'Copy the source into the target', group: 'Target', keys: ['Mod+I'] },
  {
    id: 'insertNextTag',
    label: 'Insert the next missing tag',
    group: 'Target',
    keys: ['Alt+T'],
    macKeys: ['Ctrl+T'],
  },
  {
    id: 'insertAllTags',
    label: 'Insert every missing tag',
    group: 'Target',
    keys: ['Alt+Shift+T'],
    macKeys: ['Ctrl+Shift+T'],
  },
  { id: 'revert', label: 'Revert the target to its saved text', group: 'Target', keys: ['Escape'] },
  {
    id: 'toggleFullTags',
    label: 'Show tags in full (their markup) or by number',
    group: 'Target',
    keys: ['Alt+Shift+M'],
    macKeys: ['Ctrl+Shift+M'],
  },
  {
    id: 'commentOnSegment',
    label: 'Comment on the segment (the Comments panel’s box)',
    group: 'Review',
    keys: ['Alt+M'],
    macKeys: ['Ctrl+M'],
  },
  {
    id: 'rejectSegment',
    label: 'Send the segment back to its translator with a comment…',
    group: 'Review',
    keys: ['Alt+Shift+R'],
    macKeys: ['Ctrl+Shift+R'],
  },
  { id: 'help', label: 'Show these shortcuts', group: 'Help', keys: ['F1'] },
  { id: 'help', label: 'Show these shortcuts', group: 'Help', keys: ['?'], outsideText: true },
];

export function keysOf(action: Action, platform: Platform): readonly string[] {
  return platform === 'mac' ? (action.macKeys ?? action.keys) : action.keys;
}

/**
 * Combinations the browser or the system keeps for itself, or that people expect to keep working (tabs,
 * windows, history, address bar, zoom, developer tools, menus). Ctrl+Alt is AltGr on Windows: with it, a
 * German layout types "@" and "€". Checked by the key table's unit test.
 */
export const RESERVED: readonly string[] = [
  ...[
    'T',
    'N',
    'W',
    'Tab',
    'L',
    'R',
    'D',
    'H',
    'J',
    'P',
    'Q',
    'S',
    'O',
    'U',
    'PageUp',
    'PageDown',
    '0',
    '=',
    '-',
  ].map((k) => `Mod+${k}`),
  ...DIGITS.map((d) => `Mod+${d}`),
  ...['T', 'N', 'W', 'Q', 'Tab', 'Delete', 'B', 'I', 'J', 'C', 'R', 'O'].map((k) => `Mod+Shift+${k}`),
  ...['ArrowLeft', 'ArrowRight', 'Home', 'D', 'E', 'F'].map((k) => `Alt+${k}`),
  'F5',
  'F6',
  'F7',
  'F11',
  'F12',
  'Tab',
  'Shift+Tab',
];

/** The table's combinations for a platform, each with its action. */
export function bindings(
  platform: Platform,
  actions: readonly Action[] = ACTIONS,
): { combo: string; action: Action; index: number }[] {
  return actions.flatMap((action) =>
    keysOf(action, platform).map((combo, index) => ({ combo, action, index })),
  );
}

/** Why the table is not usable on this platform: duplicates, reserved combinations, Ctrl+Alt. Empty when fine. */
export function tableProblems(platform: Platform, actions: readonly Action[] = ACTIONS): string[] {
  const problems: string[] = [];
  // A key is bound once per mode: an action of both modes counts in each.
  const seen = new Map<string, string>();
  const reserved = new Set(RESERVED.map((r) => comboId(parseCombo(r, platform))));
  for (const { combo, action } of bindings(platform, actions)) {
    const c = parseCombo(combo, platform);
    const id = comboId(c);
    for (const mode of action.mode ? [action.mode] : EDITOR_MODES) {
      const earlier = seen.get(`${mode} ${id}`);
      const problem = `${combo} is bound twice (${earlier}, ${action.id})`;
      if (earlier && !problems.includes(problem)) problems.push(problem);
      seen.set(`${mode} ${id}`, action.id);
    }
    if (reserved.has(id)) problems.push(`${combo} (${action.id}) is reserved by the browser or the system`);
    if (platform === 'other' && c.ctrl && c.alt)
      problems.push(`${combo} (${action.id}) is Ctrl+Alt, AltGr on Windows`);
    if (platform === 'mac' && c.alt && /^[A-Z0-9]$/.test(c.key)) {
      problems.push(`${combo} (${action.id}) types a character with Option on a Mac`);
    }
  }
  return problems;
}
