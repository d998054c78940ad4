// The text of the target being edited, as a tiny store: what follows it (missing tags) re-renders on each
// keystroke, the page and its grid do not.
import { useSyncExternalStore } from 'react';

export class ActiveText {
  private value = '';
  private readonly listeners = new Set<() => void>();

  get = () => this.value;

  set(value: string) {
    if (value === this.value) return;
    this.value = value;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export function useActiveText(store: ActiveText): string {
  return useSyncExternalStore(store.subscribe, store.get);
}
