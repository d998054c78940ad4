// Binds the action table's keys for the page that handles them: one listener, in the capture phase so that
// the editor's own keymaps never see a key the table binds.
import { useEffect, useRef } from 'react';
import { type ActionId, bindings, type EditorMode } from './actions.ts';
import { matchesEvent, type Platform, parseCombo } from './key-combos.ts';

export const platform: Platform = /Mac|iPhone|iPad/.test(navigator.platform) ? 'mac' : 'other';

/** Handlers by action; a numbered action (insert match N) gets its number, from 1. */
export type ActionHandlers = Partial<Record<ActionId, (n: number) => void>>;

function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.tagName === 'INPUT' ||
    target.tagName === 'TEXTAREA' ||
    target.tagName === 'SELECT'
  );
}

const compiled = bindings(platform).map((b) => ({ ...b, parsed: parseCombo(b.combo, platform) }));

/** `mode`: the editor's mode, which picks between actions that share a key (docs/EDITOR.md, Review mode). */
export function useActionKeys(handlers: ActionHandlers, mode: EditorMode = 'translate') {
  const current = useRef(handlers);
  current.current = handlers;
  const currentMode = useRef(mode);
  currentMode.current = mode;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.isComposing || event.defaultPrevented) return;
      // A dialog has the keyboard while it is open.
      if (document.querySelector('dialog[open]')) return;
      for (const b of compiled) {
        if (!matchesEvent(b.parsed, event)) continue;
        if (b.action.mode && b.action.mode !== currentMode.current) continue;
        if (b.action.outsideText && inTextField(event.target)) continue;
        // A multi-line field (a comment) keeps its Enter combinations: Ctrl+Enter sends what it holds.
        if (b.parsed.key === 'Enter' && event.target instanceof HTMLTextAreaElement) continue;
        const handler = current.current[b.action.id];
        if (!handler) continue;
        event.preventDefault();
        event.stopPropagation();
        handler(b.index + 1);
        return;
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}
