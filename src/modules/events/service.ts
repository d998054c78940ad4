// Live events of a document or a project (GET /v2/events): segment changes as the bus delivers them, and the
// state of tasks, exports and confirmed counts, read from the store through the documents module and the task
// queue (so that they are seen whichever instance runs the work).
import { errors } from '../../errors.ts';
import type { Envelope, EventBus } from '../../events/event-bus.ts';
import type { DocumentEvent, NotificationEvent, TaskEvent } from '../../events/live-events.ts';
import type { EventSink, EventSource } from '../../http/event-stream.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import { shownState, TASK_STATES, tasksOfDocuments } from '../../tasks/queue.ts';
import * as documents from '../documents/service.ts';
import { lastNotificationId, notificationsAfter } from '../notifications/service.ts';
import { projectAccess } from '../projects/service.ts';

export interface EventDeps {
  db: Db;
  events: EventBus;
  /** How often the watched tasks and exports are read (ms). */
  pollMs?: number;
}

/** Task types as events name them. */
const TASK_KINDS: Record<string, string> = { document_import: 'import', pretranslate: 'pretranslate' };
/** A burst of segment changes is counted once, this long after its first. */
const COUNTS_DELAY_MS = 200;

/** GET /v2/events: checks what is watched belongs to the caller's organization, then answers its events. */
export async function watch(
  deps: EventDeps,
  principal: Principal,
  query: { document_id?: number; project_id?: number; notifications?: boolean },
): Promise<EventSource> {
  const { db } = deps;
  let watched: documents.DocumentScope;
  if (query.notifications && query.document_id === undefined && query.project_id === undefined) {
    return { start: (sink) => startNotifications(deps, principal, sink) };
  }
  if (query.document_id !== undefined) {
    if (query.project_id !== undefined) {
      throw errors.badParameter('Give one of "document_id" and "project_id", not both');
    }
    if (!(await documents.isDocumentOf(db, principal, query.document_id))) {
      throw errors.notFound('Document', query.document_id);
    }
    watched = { documentId: query.document_id };
  } else if (query.project_id !== undefined) {
    await projectAccess(db, principal, query.project_id);
    watched = { projectId: query.project_id };
  } else {
    throw errors.missingParameter('document_id');
  }
  if (!query.notifications) return { start: (sink) => start(deps, principal, watched, sink) };
  return {
    start: async (sink) => {
      const stops = [
        await start(deps, principal, watched, sink),
        await startNotifications(deps, principal, sink),
      ];
      return () => {
        for (const stop of stops) stop();
      };
    },
  };
}

/**
 * The caller's new notifications (`notification` events), read from the store every poll: another module
 * writes them in its own transaction, on whichever instance, and the store is where they meet.
 */
async function startNotifications(deps: EventDeps, principal: Principal, sink: EventSink) {
  const { db } = deps;
  let last = await lastNotificationId(db, principal.userId);
  let stopped = false;
  let polling = false;
  const poll = async () => {
    const news = await notificationsAfter(db, principal.userId, last);
    for (const n of news.notifications) {
      if (stopped) return;
      last = Math.max(last, n.id);
      const data: NotificationEvent = {
        id: n.id,
        kind: n.kind,
        text: n.text,
        link: n.link,
        actor: n.actor,
        created_at: n.created_at,
        unread: news.unread,
      };
      sink.send('notification', data);
    }
  };
  const timer = setInterval(() => {
    if (polling || stopped) return;
    polling = true;
    poll()
      .catch(() => {})
      .finally(() => {
        polling = false;
      });
  }, deps.pollMs ?? 1000);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

function concerns(
  envelope: Envelope,
  principal: Principal,
  watched: documents.DocumentScope,
  visible: Set<number> | null,
): boolean {
  if (envelope.organization_id !== principal.organizationId) return false;
  // A translator or reviewer watching a project hears of the documents assigned to them only.
  if (visible && !visible.has(envelope.document_id)) return false;
  return 'documentId' in watched
    ? envelope.document_id === watched.documentId
    : envelope.project_id === watched.projectId;
}

async function start(
  deps: EventDeps,
  principal: Principal,
  watched: documents.DocumentScope,
  sink: EventSink,
) {
  const { db } = deps;
  const since = nowSeconds();
  // What a translator or reviewer may see, read once: an assignment made later shows when the viewer reconnects.
  const visible = await documents.visibleDocumentIds(db, principal);
  const sent = new Map<string, string>();
  /** Sends an event unless the same was last sent under this key. */
  const sendChanged = (key: string, event: string, data: unknown) => {
    const text = JSON.stringify(data);
    if (sent.get(key) === text) return false;
    sent.set(key, text);
    sink.send(event, data);
    return true;
  };
  let stopped = false;
  const reloads = new Set<number>();

  const sendCounts = async () => {
    for (const row of await documents.segmentCounts(db, watched)) {
      if (visible && !visible.has(row.id)) continue;
      const data: DocumentEvent = {
        document_id: row.id,
        project_id: row.project_id,
        confirmed: row.confirmed,
        total: row.total,
      };
      if (reloads.delete(row.id)) {
        sent.set(`document:${row.id}`, JSON.stringify(data));
        sink.send('document', { ...data, reload: true });
      } else {
        sendChanged(`document:${row.id}`, 'document', data);
      }
    }
  };
  let countsTimer: NodeJS.Timeout | undefined;
  const countsSoon = () => {
    countsTimer ??= setTimeout(() => {
      countsTimer = undefined;
      if (!stopped) sendCounts().catch(() => {});
    }, COUNTS_DELAY_MS);
  };

  let taskChanged = false;
  const poll = async () => {
    const docs = (await documents.exportMarks(db, watched)).filter((d) => !visible || visible.has(d.id));
    const projectOf = new Map(docs.map((doc) => [doc.id, doc.project_id]));
    for (const task of await tasksOfDocuments(db, [...projectOf.keys()], since)) {
      const kind = TASK_KINDS[task.type];
      if (!kind) continue;
      const data: TaskEvent = {
        document_id: task.document_id,
        project_id: projectOf.get(task.document_id)!,
        task_id: task.id,
        kind,
        state: shownState(task.state),
        progress: { done: task.progress_done, total: task.progress_total },
      };
      if (sendChanged(`task:${task.id}`, 'task', data)) {
        taskChanged = true;
        // A pre-translation changes its segments all at once, with no segment events: screens reload them.
        if (kind === 'pretranslate' && task.state === TASK_STATES.succeeded) reloads.add(task.document_id);
      }
    }
    for (const doc of docs) {
      const key = `export:${doc.id}`;
      const running = doc.export_started_at !== null;
      // An export seen running is followed to its end; one that ended before this stream began is no news.
      if (!running && !sent.has(key)) continue;
      const state = running ? 'running' : doc.export_succeeded === 1 ? 'succeeded' : 'failed';
      const data: TaskEvent = {
        document_id: doc.id,
        project_id: doc.project_id,
        task_id: null,
        kind: 'export',
        state,
        progress: null,
      };
      if (sendChanged(key, 'task', data) && !running) sent.delete(key);
    }
    if (taskChanged) {
      taskChanged = false;
      countsSoon();
    }
  };

  /** Sends an envelope's segment events, reading from the store those it carries by reference. */
  const deliver = async (envelope: Envelope) => {
    if (envelope.comments) {
      for (const comment of envelope.comments) sink.send('comment', comment);
      return;
    }
    const references = new Set(envelope.by_reference);
    for (const segment of envelope.segments) {
      if (stopped) return;
      if (!references.has(segment.segment_id)) {
        sink.send('segment', segment);
        continue;
      }
      const stored = await documents.liveSegment(db, principal.organizationId, segment.segment_id);
      // Deleted since: nothing to show. Changed again since: the newer text, whose own event follows.
      if (stored && !stopped) sink.send('segment', { ...segment, ...stored });
    }
    if (envelope.stage) sink.send('stage', envelope.stage);
    if (envelope.assignment) sink.send('assignment', envelope.assignment);
    if (envelope.reload) reloads.add(envelope.document_id);
    countsSoon();
  };
  // Envelopes are delivered one after another, so that a viewer sees a segment's changes in their order
  // even when one of them waits for the store.
  let delivering = Promise.resolve();
  const unsubscribe = await deps.events.subscribe((envelope) => {
    if (stopped || !concerns(envelope, principal, watched, visible)) return;
    delivering = delivering.then(() => deliver(envelope)).catch(() => {});
  });
  await sendCounts();
  let polling = false;
  const timer = setInterval(() => {
    if (polling || stopped) return;
    polling = true;
    poll()
      .catch(() => {})
      .finally(() => {
        polling = false;
      });
  }, deps.pollMs ?? 1000);
  await poll();
  return () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(countsTimer);
    unsubscribe();
  };
}
