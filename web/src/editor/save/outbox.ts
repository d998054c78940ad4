// The outbox: every edit is written here (IndexedDB) before it is sent, and removed once the server has it, so
// that a reload, a crash or a lost connection loses nothing; what is left is replayed in the order it was typed.
// The ordering is pure (replayOrder); the storage is IndexedDB in the browser and a Map in the unit tests.

export interface OutboxItem {
  /** Increasing across the outbox: the order the edits were made in. */
  seq: number;
  document_id: number;
  /** Who typed it: another person signing in on this browser never sends it. */
  user?: string;
  segment_id: number;
  target: string;
  is_confirmed?: boolean;
  is_reviewed?: boolean;
  /** The segment's updated_at the edit was based on (409 SEGMENT_CONFLICT when it changed since). */
  expected_updated_at?: number;
  queued_at: number;
}

export interface OutboxStore {
  all(): Promise<OutboxItem[]>;
  put(item: OutboxItem): Promise<void>;
  delete(seq: number): Promise<void>;
}

/**
 * What to send, in order, from what the outbox holds: one item per segment, the latest text with the latest
 * confirmation state asked for, and the oldest base (the version the first unsent edit started from), ordered
 * by the segment's first unsent edit so that segments are saved in the order they were worked on.
 */
export function replayOrder(items: readonly OutboxItem[]): { item: OutboxItem; covers: number[] }[] {
  const bySegment = new Map<number, { item: OutboxItem; first: number; covers: number[] }>();
  for (const it of [...items].sort((a, b) => a.seq - b.seq)) {
    const known = bySegment.get(it.segment_id);
    if (!known) {
      bySegment.set(it.segment_id, { item: { ...it }, first: it.seq, covers: [it.seq] });
      continue;
    }
    known.covers.push(it.seq);
    known.item = {
      ...it,
      is_confirmed: it.is_confirmed ?? known.item.is_confirmed,
      is_reviewed: it.is_reviewed ?? known.item.is_reviewed,
      expected_updated_at: known.item.expected_updated_at ?? it.expected_updated_at,
    };
  }
  return [...bySegment.values()]
    .sort((a, b) => a.first - b.first)
    .map(({ item, covers }) => ({ item, covers }));
}

/** The outbox in memory (tests, and browsers without IndexedDB). */
export class MemoryOutbox implements OutboxStore {
  private readonly items = new Map<number, OutboxItem>();
  async all() {
    return [...this.items.values()].sort((a, b) => a.seq - b.seq);
  }
  async put(item: OutboxItem) {
    this.items.set(item.seq, item);
  }
  async delete(seq: number) {
    this.items.delete(seq);
  }
}

const DB = 'tessera';
const STORE = 'outbox';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The outbox in IndexedDB: one object store keyed by seq. */
export class IndexedDbOutbox implements OutboxStore {
  private db: Promise<IDBDatabase> | null = null;

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'seq' });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    return this.db;
  }

  private async store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    return (await this.open()).transaction(STORE, mode).objectStore(STORE);
  }

  async all(): Promise<OutboxItem[]> {
    const items = await request((await this.store('readonly')).getAll() as IDBRequest<OutboxItem[]>);
    return items.sort((a, b) => a.seq - b.seq);
  }

  async put(item: OutboxItem): Promise<void> {
    await request((await this.store('readwrite')).put(item));
  }

  async delete(seq: number): Promise<void> {
    await request((await this.store('readwrite')).delete(seq));
  }
}

/** The browser's outbox, or one in memory where IndexedDB is not available. */
export function browserOutbox(): OutboxStore {
  return typeof indexedDB === 'undefined' ? new MemoryOutbox() : new IndexedDbOutbox();
}

/** The next seq: after anything already in the outbox, and increasing with time across page loads. */
export function nextSeq(items: readonly OutboxItem[], now = Date.now()): number {
  const last = items.reduce((max, it) => Math.max(max, it.seq), 0);
  return Math.max(last + 1, now * 1000);
}
