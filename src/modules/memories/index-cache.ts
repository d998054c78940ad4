// In-process match indexes, one per memory, kept in step with the store by the memory's version.
//
// Every write to a memory's entries bumps memories.version and stamps the entries it wrote with that
// version (rev); deletions are recorded with theirs. An index that is behind reads only what changed since
// its own version, so several server instances sharing one PostgreSQL database each stay current.
import { MemoryIndex } from '../../matching/memory-index.ts';
import type { Db } from '../../store/db.ts';
import { deletionsSince, entriesSince } from './repository.ts';

const PAGE = 20_000;

interface Cached {
  index: MemoryIndex;
  version: number;
  /** The catch-up in progress, so concurrent queries wait for one sync instead of racing. */
  syncing: Promise<void> | undefined;
}

export class IndexCache {
  private readonly cached = new Map<number, Cached>();
  /** Set once every memory's index has been loaded at start-up (readiness). */
  warm = false;

  constructor(private readonly db: Db) {}

  /** Loads every memory's index, so that the first query of each is as fast as the rest. */
  async warmUp(): Promise<void> {
    const memories = await this.db.all<{ id: number; version: number }>(
      'SELECT id, version FROM memories ORDER BY id',
    );
    for (const m of memories) await this.get(Number(m.id), Number(m.version));
    this.warm = true;
  }

  /** The memory's index, caught up to at least `version`. */
  async get(memoryId: number, version: number): Promise<MemoryIndex> {
    let entry = this.cached.get(memoryId);
    if (!entry) {
      entry = { index: new MemoryIndex(), version: 0, syncing: undefined };
      this.cached.set(memoryId, entry);
    }
    while (entry.version < version) {
      entry.syncing ??= this.catchUp(memoryId, entry, version).finally(() => {
        entry.syncing = undefined;
      });
      await entry.syncing;
    }
    return entry.index;
  }

  drop(memoryId: number): void {
    this.cached.delete(memoryId);
  }

  private async catchUp(memoryId: number, entry: Cached, version: number): Promise<void> {
    const since = entry.version;
    if (since > 0) {
      for (const d of await deletionsSince(this.db, memoryId, since)) entry.index.remove(Number(d.entry_id));
    }
    for (let afterId = 0; ; ) {
      const rows = await entriesSince(this.db, memoryId, since, afterId, PAGE);
      for (const row of rows) {
        const id = Number(row.id);
        if (entry.index.has(id)) entry.index.remove(id);
        entry.index.add(id, row.source, Number(row.updated_at));
      }
      if (rows.length < PAGE) break;
      afterId = Number(rows[rows.length - 1].id);
    }
    entry.version = version;
  }
}
