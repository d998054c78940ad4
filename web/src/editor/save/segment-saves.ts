// The editor's saves (PUT /v2/segments): one queue per segment so that its saves land in order, the text of a
// save under way or failed kept so that nothing typed is lost when its row is left, and a state per segment
// (saving, saved, failed) that rows and the status bar show.
import { ApiError, api } from '../../api/client.ts';
import type { DocumentSegment } from '../../api/types.ts';

export type SaveState = 'saving' | 'saved' | 'failed';

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
}

export class SegmentSaves {
  private readonly entries = new Map<number, SaveEntry>();
  private readonly queues = new Map<number, Promise<unknown>>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  constructor(private readonly onSaved: (segment: DocumentSegment, request: SaveRequest) => void) {}

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

  summary(): { saving: number; failed: SaveEntry[] } {
    let saving = 0;
    const failed: SaveEntry[] = [];
    for (const e of this.entries.values()) {
      if (e.state === 'saving') saving++;
      else if (e.state === 'failed') failed.push(e);
    }
    return { saving, failed };
  }

  /** Sends every failed save again. */
  retryFailed(): void {
    for (const e of this.entries.values()) if (e.state === 'failed') this.save(e.request);
  }

  /** Sends a save after any earlier one of the same segment; resolves with the saved segment, or null. */
  save(request: SaveRequest): Promise<DocumentSegment | null> {
    this.set(request.id, { state: 'saving', request });
    const previous = this.queues.get(request.id) ?? Promise.resolve();
    const run = previous.then(async () => {
      try {
        const saved = await api.saveSegment(request);
        // A later save of the same segment may be queued: its state is the one to keep.
        if (this.entries.get(request.id)?.request === request)
          this.set(request.id, { state: 'saved', request });
        this.onSaved(saved, request);
        return saved;
      } catch (err) {
        const error = err instanceof ApiError ? err.message : 'The server could not be reached';
        if (this.entries.get(request.id)?.request === request)
          this.set(request.id, { state: 'failed', request, error });
        return null;
      }
    });
    this.queues.set(request.id, run);
    return run;
  }

  /** Forgets a failed save (the segment was reverted to the server's target). */
  discard(id: number): void {
    if (this.entries.get(id)?.state === 'saving') return;
    this.entries.delete(id);
    this.changed();
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
