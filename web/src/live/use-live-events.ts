// Live updates (GET /v2/events, Server-Sent Events): a document's or a project's segment, task and document
// events, handed to the screen that listens. Answers whether the stream is open, so that a screen polls only
// while it is not (EventSource reconnects by itself after a drop).
import type {
  AssignmentEvent,
  CommentEvent,
  DocumentEvent,
  NotificationEvent,
  SegmentEvent,
  StageEvent,
  TaskEvent,
} from '@server/events/live-events.ts';
import { useEffect, useRef, useState } from 'react';

export type {
  AssignmentEvent,
  CommentEvent,
  DocumentEvent,
  NotificationEvent,
  SegmentEvent,
  StageEvent,
  TaskEvent,
};

export interface LiveHandlers {
  segment?: (event: SegmentEvent) => void;
  task?: (event: TaskEvent) => void;
  document?: (event: DocumentEvent) => void;
  comment?: (event: CommentEvent) => void;
  notification?: (event: NotificationEvent) => void;
  /** The document moved through its workflow (done, sent back, reopened). */
  stage?: (event: StageEvent) => void;
  /** Someone was assigned to, or unassigned from, a stage of a document. */
  assignment?: (event: AssignmentEvent) => void;
}

export function useLiveEvents(
  scope: { document_id: number } | { project_id: number } | { notifications: true } | null,
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
    listen('comment');
    listen('notification');
    listen('stage');
    listen('assignment');
    return () => {
      source.close();
      setOpen(false);
    };
  }, [key]);
  return open;
}
