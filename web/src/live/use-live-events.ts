// Live updates (GET /v2/events, Server-Sent Events): a document's or a project's segment, task and document
// events, handed to the screen that listens. Answers whether the stream is open, so that a screen polls only
// while it is not (EventSource reconnects by itself after a drop).
import { useEffect, useRef, useState } from 'react';

// The events' shapes by hand: the server declares them as plain interfaces (src/modules/events/event-bus.ts,
// src/modules/events/service.ts), with no TypeBox schema for the web to take its types from.

export interface SegmentEvent {
  document_id: number;
  segment_id: number;
  target: string | null;
  status: string;
  updated_at: number;
  user: string | null;
}

export interface TaskEvent {
  document_id: number;
  project_id: number;
  task_id: number;
  kind: string;
  state: string;
  progress: { done: number; total: number };
}

export interface DocumentEvent {
  document_id: number;
  project_id: number;
  confirmed: number;
  total: number;
  /** Many segments changed at once (a replace, a pre-translation): read them again. */
  reload?: boolean;
}

export interface LiveHandlers {
  segment?: (event: SegmentEvent) => void;
  task?: (event: TaskEvent) => void;
  document?: (event: DocumentEvent) => void;
}

export function useLiveEvents(
  scope: { document_id: number } | { project_id: number } | null,
  handlers: LiveHandlers,
): boolean {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [open, setOpen] = useState(false);
  const key =
    scope === null
      ? ''
      : new URLSearchParams(Object.entries(scope).map(([k, v]) => [k, String(v)])).toString();
  useEffect(() => {
    if (!key || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/v2/events?${key}`);
    source.onopen = () => setOpen(true);
    source.onerror = () => setOpen(source.readyState === EventSource.OPEN);
    const listen = (name: keyof LiveHandlers) =>
      source.addEventListener(name, (e) => {
        try {
          const data = JSON.parse((e as MessageEvent<string>).data);
          (latest.current[name] as ((d: unknown) => void) | undefined)?.(data);
        } catch {
          // A malformed event is skipped; the next one is read.
        }
      });
    listen('segment');
    listen('task');
    listen('document');
    return () => {
      source.close();
      setOpen(false);
    };
  }, [key]);
  return open;
}
