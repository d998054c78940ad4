// Tooltips and help text from the action table: "Confirm and go to the next unconfirmed segment (Ctrl+Enter)".
import { ACTIONS, type ActionId, keysOf } from './actions.ts';
import { ariaCombo, formatCombo } from './key-combos.ts';
import { platform } from './use-action-keys.ts';

/** The keys of an action as people read them: "Ctrl+Enter", "F1 or ?"; a numbered action shows its range. */
export function keysText(id: ActionId): string {
  const combos = ACTIONS.filter((a) => a.id === id).flatMap((a) => keysOf(a, platform));
  if (id === 'insertMatch' || id === 'insertTerm')
    return `${formatCombo(combos[0], platform)}…${combos.length}`;
  return combos.map((c) => formatCombo(c, platform)).join(' or ');
}

export function tooltip(id: ActionId, n?: number): string {
  const action = ACTIONS.find((a) => a.id === id)!;
  if (id === 'insertMatch' && n !== undefined)
    return `Insert match ${n} (${formatCombo(keysOf(action, platform)[n - 1], platform)})`;
  if (id === 'insertTerm' && n !== undefined)
    return `Insert term ${n} (${formatCombo(keysOf(action, platform)[n - 1], platform)})`;
  return `${action.label} (${keysText(id)})`;
}

/** The aria-keyshortcuts value of an action (its first combination, or the n-th). */
export function ariaKeys(id: ActionId, n = 1): string {
  const action = ACTIONS.find((a) => a.id === id)!;
  return ariaCombo(keysOf(action, platform)[n - 1], platform);
}
