// In-process indexes of memories — the match index of each, and concordance indexes of a side when asked —
// kept in step with the store by the memory's version.
//
// Every write to a memory's entries bumps memories.version and stamps the entries it wrote with that
// version (rev); deletions are recorded with theirs. An index that is behind reads only what changed since
// its own version, so several server instances sharing one PostgreSQL database each stay current.
import { ConcordanceIndex } from '../../matching/concordance.ts';
import { MemoryIndex } from '../../matching/memory-index.ts';
import type { Db } from '../../store/db.ts';
import {
  deletionsSince,
  type EntryCursor,
  type EntryRow,
  entriesSince,
  memoryVersions,
} from './repository.ts';

const PAGE = 20_000;

type ChangedEntry = Pick<EntryRow, 'id' | 'source' | 'target' | 'updated_at'>;

interface Synced<T> {
  index: T;
  version: number;
  /** The catch-up in progress, so concurrent queries wait for one sync instead of racing. */
  syncing: Promise<void> | undefined;
  put(row: ChangedEntry): void;
  remove(id: number): void;
}

export type Side = 'source' | 'target';

export class IndexCache {
  private readonly matchers = new Map<number, Synced<MemoryIndex>>();
  /** Built on a side's first concordance query only: most memories are never searched that way. */
  private readonly concordances = new Map<string, Synced<ConcordanceIndex>>();
  /** Set once every memory's match index has been loaded at start-up (readiness). */
  warm = false;

  constructor(private readonly db: Db) {}

  /** Loads every memory's match index, so that the first query of each is as fast as the rest. */
  async warmUp(): Promise<void> {
    for (const m of await memoryVersions(this.db)) {
      // refresh() builds the postings of the entries just loaded now rather than in the first query.
      (await this.get(m.id, m.version)).refresh();
    }
    this.warm = true;
  }

  /** The memory's match index, caught up to at least `version`. */
  get(memoryId: number, version: number): Promise<MemoryIndex> {
    let synced = this.matchers.get(memoryId);
    if (!synced) {
      const index = new MemoryIndex();
      synced = {
        index,
        version: 0,
        syncing: undefined,
        // add() replaces an entry already held under the id.
        put: (row) => index.add(row.id, row.source, row.updated_at),
        remove: (id) => index.remove(id),
      };
      this.matchers.set(memoryId, synced);
    }
    return this.catchUp(memoryId, synced, version);
  }

  /** The concordance index of one side of the memory, caught up to at least `version`. */
  concordance(memoryId: number, side: Side, version: number): Promise<ConcordanceIndex> {
    const key = `${memoryId}:${side}`;
    let synced = this.concordances.get(key);
    if (!synced) {
      const index = new ConcordanceIndex();
      synced = {
        index,
        version: 0,
        syncing: undefined,
        put: (row) => index.add(row.id, side === 'source' ? row.source : row.target),
        remove: (id) => index.remove(id),
      };
      this.concordances.set(key, synced);
    }
    return this.catchUp(memoryId, synced, version);
  }

  drop(memoryId: number): void {
    this.matchers.delete(memoryId);
    this.concordances.delete(`${memoryId}:source`);
    this.concordances.delete(`${memoryId}:target`);
  }

  private async catchUp<T>(memoryId: number, synced: Synced<T>, version: number): Promise<T> {
    while (synced.version < version) {
      synced.syncing ??= this.readChanges(memoryId, synced, version).finally(() => {
        synced.syncing = undefined;
      });
      await synced.syncing;
    }
    return synced.index;
  }

  private async readChanges<T>(memoryId: number, synced: Synced<T>, version: number): Promise<void> {
    const since = synced.version;
    if (since > 0) {
      for (const d of await deletionsSince(this.db, memoryId, since)) synced.remove(d.entry_id);
    }
    for (let after: EntryCursor = { rev: since, id: 0 }; ; ) {
      const rows = await entriesSince(this.db, memoryId, since, after, PAGE);
      for (const row of rows) synced.put(row);
      if (rows.length < PAGE) break;
      // SQLite answers synchronously: let requests in between pages (start-up warm-up reads a whole memory).
      await new Promise((resolve) => setImmediate(resolve));
      const last = rows[rows.length - 1];
      after = { rev: last.rev, id: last.id };
    }
    synced.version = version;
  }
}
