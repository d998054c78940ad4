// In-process indexes of memories — the match index of each, and concordance indexes of a side when asked —
// kept in step with the store by the memory's version.
//
// Every write to a memory's entries bumps memories.version and stamps the entries it wrote with that
// version (rev); deletions are recorded with theirs. An index that is behind reads only what changed since
// its own version, so several server instances sharing one PostgreSQL database each stay current.
//
// Match indexes are also saved to files (index-file.ts), in the folder the server gives (indexDirFor: the
// data dir, beside the SQLite database; with PostgreSQL each instance's own data dir). Files are written
// after a warm-up that had to rebuild or catch up, and at a clean shutdown (saveAll). Start-up reads a memory's file
// and catches up from the version it was saved at through the same change log; a file of another format,
// failing its checksum, or ahead of the store (a database restored from an older copy) is rebuilt, and the
// log says which file and why (warn).
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ConcordanceIndex } from '../../matching/concordance.ts';
import { loadIndexFile, saveIndexFile } from '../../matching/index-file.ts';
import { MemoryIndex } from '../../matching/memory-index.ts';
import { warmUpSearchPaths } from '../../matching/warm-up.ts';
import { Breather, nextTurn } from '../../pacing.ts';
import type { Db } from '../../store/db.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import {
  deletionsSince,
  type EntryCursor,
  type EntryRow,
  entriesSince,
  entryCount,
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
  /** Room for n entries in all, before a catch-up reads them. */
  reserve(n: number): void;
  /** The index's refresh, in slices to drive with turns of the event loop between them. */
  refreshInSlices(): Generator<void, void>;
}

export type Side = 'source' | 'target';

/** The part of a logger the cache writes to. */
export interface IndexLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export class IndexCache {
  private readonly matchers = new Map<number, Synced<MemoryIndex>>();
  /** Built on a side's first concordance query only: most memories are never searched that way. */
  private readonly concordances = new Map<string, Synced<ConcordanceIndex>>();
  /** Set once every memory's match index has been loaded at start-up (readiness). */
  warm = false;

  /** Where match indexes are saved; undefined or null: nowhere (rebuilt at every start). */
  readonly dir: string | undefined;
  /** How each memory's index was obtained at warm-up, for logs and tests. */
  readonly loaded = new Map<
    number,
    {
      from: 'file' | 'store';
      reason?: string /** The version the file was saved at. */;
      version?: number;
      ms: number;
    }
  >();

  /** Where a saved file that could not be used is reported (the server's log). */
  private readonly log: IndexLog | undefined;

  constructor(
    private readonly db: Db,
    options: { dir?: string | null; log?: IndexLog } = {},
  ) {
    this.dir = options.dir ?? undefined;
    this.log = options.log;
  }

  /** The saved index file of a memory. */
  indexFile(memoryId: number): string | undefined {
    return this.dir && join(this.dir, `memory-${memoryId}.idx`);
  }

  /**
   * Loads every memory's match index (from its saved file when there is a good one), so that the first
   * query of each is as fast as the rest; saves those that were rebuilt or caught up.
   */
  async warmUp(): Promise<void> {
    const unsaved: number[] = [];
    for (const m of await memoryVersions(this.db)) {
      const started = performance.now();
      const from = await this.loadSaved(m.id, m.version);
      // A file that was there but could not be used: an operator wants to know which, and why (a damaged
      // disk, a copy from another version, a database restored from an older backup), as its rebuild costs
      // the time the file was to save.
      if (from.from === 'store' && from.reason !== 'no file' && from.reason !== 'absent') {
        const file = this.indexFile(m.id);
        const why = from.detail ? `${from.reason} (${from.detail})` : from.reason;
        this.log?.warn(
          { memoryId: m.id, file, reason: why },
          `saved index file ${file} not used (${why}): rebuilt from the store`,
        );
      }
      // refresh() builds the postings of the entries just loaded now rather than in the first query.
      (await this.get(m.id, m.version)).refresh();
      this.loaded.set(m.id, { ...from, ms: performance.now() - started });
      if (from.from === 'store' || from.version !== m.version) unsaved.push(m.id);
    }
    // The search code optimised before the first real query (src/matching/warm-up.ts), in slices. An
    // instance without memories has nothing to be quick for yet (and a test's store starts empty).
    if (this.loaded.size > 0) {
      const warmUp = warmUpSearchPaths();
      while (!warmUp.next().done) await nextTurn();
    }
    // Ready before the files are written.
    this.warm = true;
    for (const id of unsaved) {
      try {
        await this.save(id);
      } catch (err) {
        // The index serves as it is; the next start rebuilds it.
        this.saveError = err as Error;
      }
    }
  }

  /**
   * Brings a memory's match index up to date after a bulk change (an import) and saves its file, so that
   * neither the next query nor the next start pays for the change. Callers run it in the background.
   */
  async refreshAndSave(memoryId: number): Promise<void> {
    const memory = (await memoryVersions(this.db)).find((m) => m.id === memoryId);
    if (!memory) return;
    (await this.get(memory.id, memory.version)).refresh();
    await this.save(memory.id);
  }

  /** The last failure to write an index file (a full disk, a read-only data dir), if any. */
  saveError: Error | undefined;

  /** Writes the memory's match index to its file, stamped with the version it is caught up to. */
  async save(memoryId: number): Promise<boolean> {
    const file = this.indexFile(memoryId);
    const synced = this.matchers.get(memoryId);
    if (!file || !synced) return false;
    // Not `await synced.syncing` when there is none: that would let a catch-up start before the slot is
    // taken below.
    while (synced.syncing) await synced.syncing;
    synced.index.refresh();
    const version = synced.version;
    // Catch-ups wait while the index's state is copied (in slices, with queries answered between them):
    // it must not change under the copy. They go on while the file is written from it.
    let release!: () => void;
    const snapshot = new Promise<void>((resolve) => {
      release = () => {
        if (synced.syncing === snapshot) synced.syncing = undefined;
        resolve();
      };
    });
    synced.syncing = snapshot;
    try {
      await saveIndexFile(file, synced.index, version, { onSnapshot: release });
    } finally {
      release();
    }
    this.savedAt.set(memoryId, version);
    return true;
  }

  /**
   * Saves every match index held whose version moved since its file was written (a clean shutdown's
   * hook: the next start then reads the change log from there only).
   */
  async saveAll(): Promise<number> {
    let saved = 0;
    for (const [id, synced] of this.matchers)
      if (this.savedAt.get(id) !== synced.version && (await this.save(id))) saved++;
    return saved;
  }

  /** The version each memory's file was last written at by this process. */
  private readonly savedAt = new Map<number, number>();

  /** Takes the memory's saved index when it is sound and not ahead of the store. */
  private async loadSaved(
    memoryId: number,
    version: number,
  ): Promise<{ from: 'file' | 'store'; reason?: string; detail?: string; version?: number }> {
    const file = this.indexFile(memoryId);
    if (!file || this.matchers.has(memoryId)) return { from: 'store', reason: 'no file' };
    let result: Awaited<ReturnType<typeof loadIndexFile>>;
    try {
      result = await loadIndexFile(file);
    } catch (err) {
      return { from: 'store', reason: `unreadable: ${(err as Error).message}` };
    }
    if (!result.ok) return { from: 'store', reason: result.reason, detail: result.detail };
    if (result.memoryVersion > version) {
      const detail = `saved at version ${result.memoryVersion}, the store is at ${version}`;
      return { from: 'store', reason: 'ahead of the store', detail };
    }
    this.matchers.set(memoryId, this.synced(result.index, result.memoryVersion));
    this.savedAt.set(memoryId, result.memoryVersion);
    return { from: 'file', version: result.memoryVersion };
  }

  private synced(index: MemoryIndex, version: number): Synced<MemoryIndex> {
    return {
      index,
      version,
      syncing: undefined,
      // add() replaces an entry already held under the id. Entries stored before edge whitespace was trimmed
      // on the way in are indexed without it, as queries are searched.
      put: (row) => index.add(row.id, withoutEdges(row.source), row.updated_at),
      remove: (id) => index.remove(id),
      reserve: (n) => index.reserve(n),
      refreshInSlices: () => index.refreshInSlices(),
    };
  }

  /** The memory's match index, caught up to at least `version`. */
  get(memoryId: number, version: number): Promise<MemoryIndex> {
    let synced = this.matchers.get(memoryId);
    if (!synced) {
      synced = this.synced(new MemoryIndex(), 0);
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
        put: (row) => index.add(row.id, withoutEdges(side === 'source' ? row.source : row.target)),
        remove: (id) => index.remove(id),
        reserve: (n) => index.reserve(n),
        refreshInSlices: () => index.refreshInSlices(),
      };
      this.concordances.set(key, synced);
    }
    return this.catchUp(memoryId, synced, version);
  }

  drop(memoryId: number): void {
    this.matchers.delete(memoryId);
    this.savedAt.delete(memoryId);
    const file = this.indexFile(memoryId);
    if (file) rm(file, { force: true }).catch(() => {});
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
    // Room for the memory's entries before they are read: growing by doubling meanwhile would copy or
    // rehash every entry held so far, in one piece, several times (TokenStore.reserve).
    synced.reserve(await entryCount(this.db, memoryId));
    const breather = new Breather();
    for (let after: EntryCursor = { rev: since, id: 0 }; ; ) {
      const rows = await entriesSince(this.db, memoryId, since, after, PAGE);
      // A page of 20,000 rows took 237 ms to tokenize in one piece (CPU profile, 1M import bench): turns between.
      for (let i = 0; i < rows.length; i++) {
        synced.put(rows[i]);
        if (i % 1000 === 999) await breather.breathe();
      }
      if (rows.length < PAGE) break;
      // SQLite answers synchronously: let requests in between pages (start-up warm-up reads a whole memory).
      await nextTurn();
      const last = rows[rows.length - 1];
      after = { rev: last.rev, id: last.id };
    }
    // The postings of what was read, built here in slices, not in one piece by the first query: after a
    // ten-million-unit import that piece held the event loop for seconds (3.7 s in its pair postings
    // alone, in a CPU profile of the import bench).
    for (const _ of synced.refreshInSlices()) await breather.breathe();
    synced.version = version;
  }
}

/**
 * Where a server keeps its saved match indexes: `<data dir>/match-index` beside the embedded store's file; with
 * PostgreSQL in the instance's data dir, in a folder named for the database (a digest of its URL), so that a
 * data dir used against another database never takes that database's files for its own.
 */
export function indexDirFor(config: { dataDir: string; databaseUrl?: string }): string {
  const root = join(config.dataDir, 'match-index');
  if (!config.databaseUrl) return root;
  return join(root, createHash('sha256').update(config.databaseUrl).digest('hex').slice(0, 16));
}
