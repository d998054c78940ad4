// Key combinations as written in the action table ("Mod+Enter", "Alt+Shift+ArrowDown", "?"), matched against
// keyboard events, and shown to people ("Ctrl+Enter", "⌥↓") — pure, so the table can be checked by a unit test.

export type Platform = 'mac' | 'other';

/** What a combination is made of once "Mod" is resolved for a platform. */
export interface Combo {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  meta: boolean;
  /** "Enter", "ArrowDown", "F1", an upper-case letter, a digit, or a symbol such as "?". */
  key: string;
}

/** A single printed character that is not a letter or digit: typed with whatever modifiers the layout needs. */
export const isSymbolKey = (key: string) => key.length === 1 && !/[A-Za-z0-9]/.test(key);

export function parseCombo(text: string, platform: Platform): Combo {
  const parts = text.split('+');
  // "Shift++" would be a plus; the table has none, so a trailing empty part is an error.
  const key = parts.pop()!;
  if (!key) throw new Error(`no key in "${text}"`);
  const combo: Combo = {
    ctrl: false,
    alt: false,
    shift: false,
    meta: false,
    key: key.length === 1 ? key.toUpperCase() : key,
  };
  for (const part of parts) {
    if (part === 'Mod') combo[platform === 'mac' ? 'meta' : 'ctrl'] = true;
    else if (part === 'Ctrl') combo.ctrl = true;
    else if (part === 'Alt') combo.alt = true;
    else if (part === 'Shift') combo.shift = true;
    else if (part === 'Meta') combo.meta = true;
    else throw new Error(`unknown modifier "${part}" in "${text}"`);
  }
  return combo;
}

/** One spelling per combination, for comparing: "Ctrl+Alt+Shift+Meta+Key" with only the modifiers held. */
export function comboId(c: Combo): string {
  return [c.ctrl && 'Ctrl', c.alt && 'Alt', c.shift && 'Shift', c.meta && 'Meta', c.key]
    .filter(Boolean)
    .join('+');
}

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

/**
 * The key an event stands for. Letters and digits come from the physical key when a modifier changed the
 * character (Option+T types "†" on a Mac, Shift+1 types "!"), else from the character, so that a T is a T
 * on every layout that has one.
 */
export function eventKey(e: KeyLike): string {
  if (e.key.length === 1 && /[A-Za-z0-9]/.test(e.key)) return e.key.toUpperCase();
  const physical = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(e.code);
  if (physical && (e.altKey || e.ctrlKey || e.metaKey)) return physical[1] ?? physical[2];
  return e.key.length === 1 ? e.key.toUpperCase() : e.key;
}

export function matchesEvent(c: Combo, e: KeyLike): boolean {
  if (eventKey(e) !== c.key) return false;
  // A symbol is whatever the layout needs to type it: "?" is Shift+/ on one keyboard and a key of its own on another.
  const shiftMatters = !isSymbolKey(c.key);
  return (
    e.ctrlKey === c.ctrl &&
    e.altKey === c.alt &&
    e.metaKey === c.meta &&
    (!shiftMatters || e.shiftKey === c.shift)
  );
}

const KEY_NAMES: Record<string, string> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
  Escape: 'Esc',
  Enter: 'Enter',
};

/** How a combination is printed in tooltips and the help: "Ctrl+Shift+Enter", "Alt+↓"; Mac names on a Mac. */
export function formatCombo(text: string, platform: Platform): string {
  const c = parseCombo(text, platform);
  const mods =
    platform === 'mac'
      ? [c.ctrl && 'Ctrl', c.alt && 'Option', c.shift && 'Shift', c.meta && 'Cmd']
      : [c.ctrl && 'Ctrl', c.alt && 'Alt', c.shift && 'Shift', c.meta && 'Meta'];
  return [...mods.filter(Boolean), KEY_NAMES[c.key] ?? c.key].join('+');
}

/**
 * The aria-keyshortcuts spelling (WAI-ARIA: modifiers then key, "Control", "Alt", "Shift", "Meta").
 */
export function ariaCombo(text: string, platform: Platform): string {
  const c = parseCombo(text, platform);
  return [c.ctrl && 'Control', c.alt && 'Alt', c.shift && 'Shift', c.meta && 'Meta', c.key]
    .filter(Boolean)
    .join('+');
}
