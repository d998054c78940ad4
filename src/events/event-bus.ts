// Live events of documents (GET /v2/events): published by the services that change segments, delivered to
// the subscribers of every server instance sharing the store (the store's notification channel: PostgreSQL's
// LISTEN/NOTIFY, or this process alone on SQLite).
import type { Db } from '../store/db.ts';
import type { AssignmentEvent, CommentEvent, SegmentEvent, StageEvent } from './live-events.ts';

/** What travels between instances: the event and whom it concerns. */
export interface Envelope {
  organization_id: number;
  project_id: number;
  document_id: number;
  segments: SegmentEvent[];
  /** More than BULK segments changed at once (a replace, a pre-translation): no list, the client reloads. */
  reload?: boolean;
  /**
   * Segments of the list sent by reference: their target was too large for a notification (PostgreSQL's
   * NOTIFY carries 8000 bytes: 2,300 CJK characters), so it travels as null and each receiving instance
   * reads it from the store before the event reaches its viewers.
   */
  by_reference?: number[];
  /** Comments of the document that changed (their text is read again by the viewers, so it does not travel). */
  comments?: CommentEvent[];
  /** The document moved through its workflow (the workflows module). */
  stage?: StageEvent;
  /** Someone was assigned to, or unassigned from, a stage of the document. */
  assignment?: AssignmentEvent;
}

export type Listener = (envelope: Envelope) => void;

const CHANNEL = 'tessera_events';
/** Segments sent in one notification; PostgreSQL's NOTIFY payload is limited to 8000 bytes. */
const NOTIFY_BYTES = 7000;
/** Past this many segments changed at once, one "reload" stands for their events. */
export const BULK = 500;

export class EventBus {
  private readonly listeners = new Set<Listener>();
  private unlisten: (() => Promise<void>) | undefined;
  private starting: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  /** Starts receiving the store's notifications (on the first subscriber). */
  private start(): Promise<void> {
    this.starting ??= this.db
      .listen(CHANNEL, (payload) => {
        let envelope: Envelope;
        try {
          envelope = JSON.parse(payload) as Envelope;
        } catch {
          return;
        }
        for (const listener of this.listeners) listener(envelope);
      })
      .then((stop) => {
        this.unlisten = stop;
      })
      .catch((err: unknown) => {
        // The next subscriber tries again.
        this.starting = undefined;
        throw err;
      });
    return this.starting;
  }

  async subscribe(listener: Listener): Promise<() => void> {
    this.listeners.add(listener);
    try {
      await this.start();
    } catch (err) {
      this.listeners.delete(listener);
      throw err;
    }
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells every instance that a document's segments changed shape (joined, split: positions moved): its
   * viewers read them again. Never throws, as segmentsChanged.
   */
  async reload(scope: { organization_id: number; project_id: number; document_id: number }): Promise<void> {
    try {
      await this.db.notify(
        CHANNEL,
        JSON.stringify({ ...scope, segments: [], reload: true } satisfies Envelope),
      );
    } catch {
      // A lost event costs a stale screen until the next reload, not the change.
    }
  }

  /**
   * Tells every instance that these segments of a document changed. Never throws: an event lost costs a
   * stale screen, not the change, which is already committed.
   */
  async segmentsChanged(
    scope: { organization_id: number; project_id: number; document_id: number },
    segments: readonly SegmentEvent[],
  ): Promise<void> {
    try {
      if (segments.length > BULK) {
        await this.db.notify(
          CHANNEL,
          JSON.stringify({ ...scope, segments: [], reload: true } satisfies Envelope),
        );
        return;
      }
      let batch: SegmentEvent[] = [];
      let references: number[] = [];
      let bytes = 200;
      const send = async () => {
        if (batch.length === 0) return;
        const envelope: Envelope = { ...scope, segments: batch };
        if (references.length > 0) envelope.by_reference = references;
        await this.db.notify(CHANNEL, JSON.stringify(envelope));
        batch = [];
        references = [];
        bytes = 200;
      };
      for (const segment of segments) {
        let size = Buffer.byteLength(JSON.stringify(segment));
        let event = segment;
        // A segment too large for one notification travels by reference (Envelope.by_reference): its id,
        // and the update it stands for, without its target.
        if (size > NOTIFY_BYTES - 400) {
          event = { ...segment, target: null };
          size = Buffer.byteLength(JSON.stringify(event)) + 20;
        }
        if (bytes + size > NOTIFY_BYTES) await send();
        batch.push(event);
        if (event !== segment) references.push(segment.segment_id);
        bytes += size;
      }
      await send();
    } catch {}
  }

  /** Tells every instance that comments of a document changed. Never throws, as segmentsChanged. */
  async commentsChanged(
    scope: { organization_id: number; project_id: number; document_id: number },
    comments: readonly CommentEvent[],
  ): Promise<void> {
    try {
      // A comment event is a few ids and a username (100 characters at most): twenty stay under NOTIFY's limit.
      for (let i = 0; i < comments.length; i += 20) {
        const envelope: Envelope = { ...scope, segments: [], comments: comments.slice(i, i + 20) };
        await this.db.notify(CHANNEL, JSON.stringify(envelope));
      }
    } catch {}
  }

  /** Tells of a workflow change of a document: a stage hand-off, or an assignment. Never throws. */
  async workflowChanged(
    scope: { organization_id: number; project_id: number; document_id: number },
    change: { stage: StageEvent } | { assignment: AssignmentEvent },
  ): Promise<void> {
    try {
      await this.db.notify(CHANNEL, JSON.stringify({ ...scope, segments: [], ...change } satisfies Envelope));
    } catch {
      // A lost event costs a stale screen until the next read, not the change.
    }
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.starting?.catch(() => {});
    await this.unlisten?.();
  }
}
