// The editor's saves (PUT /v2/segments): each edit goes into the outbox (IndexedDB) before it is sent and leaves
// it once the server has it; one queue per segment so that its saves land in order; the text of a save under
// way, waiting for the network, failed or in conflict kept so that nothing typed is lost when its row is left.
// Each save names the version it was based on (expected_updated_at): another person's change meanwhile comes
// back as 409 SEGMENT_CONFLICT with the current version, for the editor to show both.
import { ApiError, api } from '../../api/client.ts';
import type { DocumentSegment } from '../../api/types.ts';
import { browserOutbox, type OutboxStore, replayOrder } from './outbox.ts';

/** The segment as the server has it is what `request` would make it: same text, same confirmation, same review. */
function landed(current: DocumentSegment, request: SaveRequest): boolean {
  return (
    current.target === request.target &&
    (request.is_confirmed === undefined || current.is_confirmed === request.is_confirmed) &&
    (request.is_reviewed === undefined || current.is_reviewed === request.is_reviewed)
  );
}

export type SaveState = 'saving' | 'saved' | 'pending' | 'failed' | 'conflict';

export interface SaveRequest {
  id: number;
  target: string;
  is_confirmed?: boolean;
  is_reviewed?: boolean;
}

export interface SaveEntry {
  state: SaveState;
  /** The save as last sent. */
  request: SaveRequest;
  error?: string;
  /** For a conflict: the segment as the server has it now. */
  current?: DocumentSegment;
}

export interface SaveSummary {
  saving: number;
  /** Waiting for the network (offline, server unreachable): in the outbox, sent again when it is back. */
  pending: number;
  failed: SaveEntry[];
  conflicts: SaveEntry[];
}

type Send = (body: SaveRequest & { expected_updated_at?: number }) => Promise<DocumentSegment>;

export class SegmentSaves {
  private readonly entries = new Map<number, SaveEntry>();
  private readonly queues = new Map<number, Promise<unknown>>();
  /** Per segment, the updated_at of the server's version the edits build on. */
  private readonly bases = new Map<number, number>();
  /** Per segment, the outbox items not yet acknowledged by the server. */
  private readonly unsent = new Map<number, number[]>();
  private readonly listeners = new Set<() => void>();
  private readonly outbox: OutboxStore;
  private readonly send: Send;
  private lastSeq = 0;
  private version = 0;

  constructor(
    private readonly onSaved: (segment: DocumentSegment, request: SaveRequest) => void,
    options: { documentId: number; user?: string; outbox?: OutboxStore; send?: Send },
  ) {
    this.documentId = options.documentId;
    this.user = options.user;
    this.outbox = options.outbox ?? browserOutbox();
    this.send = options.send ?? api.saveSegment;
  }

  private readonly documentId: number;
  private readonly user: string | undefined;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes whenever any entry does (for useSyncExternalStore). */
  snapshot = () => this.version;

  entry(id: number): SaveEntry | undefined {
    return this.entries.get(id);
  }

  /** The target to show for a segment: what was typed and not yet saved, else the server's. */
  targetOf(segment: DocumentSegment): string {
    const entry = this.entries.get(segment.id);
    return entry && entry.state !== 'saved' ? entry.request.target : (segment.target ?? '');
  }

  /** Whether the segment has edits the server has not acknowledged. */
  hasUnsaved(id: number): boolean {
    const state = this.entries.get(id)?.state;
    return state !== undefined && state !== 'saved';
  }

  summary(): SaveSummary {
    const out: SaveSummary = { saving: 0, pending: 0, failed: [], conflicts: [] };
    for (const e of this.entries.values()) {
      if (e.state === 'saving') out.saving++;
      else if (e.state === 'pending') out.pending++;
      else if (e.state === 'failed') out.failed.push(e);
      else if (e.state === 'conflict') out.conflicts.push(e);
    }
    return out;
  }

  /** Sends every failed save again. */
  retryFailed(): void {
    for (const e of this.entries.values()) if (e.state === 'failed') this.save(e.request);
  }

  /**
   * Queues a save: into the outbox first, then sent after any earlier one of the same segment. `base` is the
   * updated_at of the segment as the editor showed it, when no save of it was made yet. Resolves with the saved
   * segment, or null.
   */
  save(request: SaveRequest, base?: number): Promise<DocumentSegment | null> {
    if (base !== undefined && !this.bases.has(request.id)) this.bases.set(request.id, base);
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now() * 1000);
    const seq = this.lastSeq;
    const written = this.outbox
      .put({
        seq,
        document_id: this.documentId,
        user: this.user,
        segment_id: request.id,
        target: request.target,
        is_confirmed: request.is_confirmed,
        is_reviewed: request.is_reviewed,
        expected_updated_at: this.bases.get(request.id),
        queued_at: Date.now(),
      })
      .catch(() => {});
    return this.enqueue(request, [seq], written);
  }

  /**
   * Sends again what the outbox holds for this document (after a reload, a crash, or when the network is
   * back), in the order it was typed; segments with a save under way are left to it.
   */
  async replay(): Promise<void> {
    const items = (await this.outbox.all().catch(() => [])).filter(
      (i) => i.document_id === this.documentId && i.user === this.user,
    );
    for (const { item, covers } of replayOrder(items)) {
      const state = this.entries.get(item.segment_id)?.state;
      if (state === 'saving' || state === 'conflict') continue;
      if (item.expected_updated_at !== undefined && !this.bases.has(item.segment_id))
        this.bases.set(item.segment_id, item.expected_updated_at);
      const request: SaveRequest = { id: item.segment_id, target: item.target };
      if (item.is_confirmed !== undefined) request.is_confirmed = item.is_confirmed;
      if (item.is_reviewed !== undefined) request.is_reviewed = item.is_reviewed;
      this.enqueue(request, covers, Promise.resolve());
    }
  }

  /** A conflict settled: keep this editor's text over the current version, or take the current one. */
  resolve(id: number, keep: 'mine' | 'theirs'): void {
    const entry = this.entries.get(id);
    if (entry?.state !== 'conflict' || !entry.current) return;
    const current = entry.current;
    this.bases.set(id, current.updated_at);
    this.forget(id);
    if (keep === 'mine') {
      this.save(entry.request);
      return;
    }
    this.entries.delete(id);
    this.changed();
    this.onSaved(current, { id, target: current.target ?? '' });
  }

  /** Forgets a failed save (the segment was reverted to the server's target). */
  discard(id: number): void {
    if (this.entries.get(id)?.state === 'saving') return;
    this.forget(id);
    this.entries.delete(id);
    this.changed();
  }

  /** An edit under way in the editor started from this version: a save of it must say so, whatever arrives live. */
  pin(id: number, updatedAt: number): void {
    if (!this.bases.has(id)) this.bases.set(id, updatedAt);
  }

  /** Another person's change arrived (live): later saves of the segment build on it. */
  rebase(segment: { id: number; updated_at: number }): void {
    if (!this.hasUnsaved(segment.id)) this.bases.set(segment.id, segment.updated_at);
  }

  private enqueue(
    request: SaveRequest,
    seqs: number[],
    written: Promise<void>,
  ): Promise<DocumentSegment | null> {
    this.unsent.set(request.id, [...(this.unsent.get(request.id) ?? []), ...seqs]);
    this.set(request.id, { state: 'saving', request });
    const previous = this.queues.get(request.id) ?? Promise.resolve();
    const run = Promise.all([previous, written]).then(async () => {
      // A conflict stops the segment's queue until it is settled.
      if (this.entries.get(request.id)?.state === 'conflict') return null;
      try {
        const saved = await this.send({ ...request, expected_updated_at: this.bases.get(request.id) });
        this.bases.set(request.id, saved.updated_at);
        this.acknowledge(request.id, seqs);
        // A later save of the same segment may be queued: its state is the one to keep.
        if (this.entries.get(request.id)?.request === request)
          this.set(request.id, { state: 'saved', request });
        this.onSaved(saved, request);
        return saved;
      } catch (err) {
        const latest = this.entries.get(request.id)?.request === request;
        if (err instanceof ApiError && err.code === 'SEGMENT_CONFLICT') {
          const current = err.body?.current as DocumentSegment | undefined;
          // Our own save that landed before the outbox could forget it (a crash, or a reload right after a
          // confirmation, before IndexedDB deleted the item): the server already holds exactly this — the text,
          // and the confirmation or review it asked for — so there is nothing to choose.
          if (current && landed(current, request)) {
            this.bases.set(request.id, current.updated_at);
            this.acknowledge(request.id, seqs);
            if (latest) this.set(request.id, { state: 'saved', request });
            this.onSaved(current, request);
            return current;
          }
          this.set(request.id, {
            state: 'conflict',
            request: this.entries.get(request.id)?.request ?? request,
            error: err.message,
            current,
          });
        } else if (!(err instanceof ApiError) || err.status === 0) {
          // The network: the outbox keeps it until the connection is back.
          if (latest) this.set(request.id, { state: 'pending', request, error: 'offline' });
        } else {
          this.acknowledge(request.id, seqs);
          if (latest) this.set(request.id, { state: 'failed', request, error: err.message });
        }
        return null;
      }
    });
    this.queues.set(request.id, run);
    return run;
  }

  /** The server has these outbox items (or refused them for good): out of the outbox. */
  private acknowledge(id: number, seqs: number[]) {
    const left = (this.unsent.get(id) ?? []).filter((s) => !seqs.includes(s));
    if (left.length > 0) this.unsent.set(id, left);
    else this.unsent.delete(id);
    for (const seq of seqs) this.outbox.delete(seq).catch(() => {});
  }

  private forget(id: number) {
    this.acknowledge(id, this.unsent.get(id) ?? []);
  }

  private set(id: number, entry: SaveEntry) {
    this.entries.set(id, entry);
    this.changed();
  }

  private changed() {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
