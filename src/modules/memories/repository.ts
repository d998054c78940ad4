// SQL for memories, their entries, the log of deleted entries, the earlier versions of entries, and imports:
// the one owner of memories, memory_entries, memory_deletions and memory_entry_versions.
import { errors } from '../../errors.ts';
import { deleteInSlices, nowSeconds, type Queryable } from '../../store/db.ts';
import type { EntryContext, ImportedUnit } from './entry-identity.ts';

export interface MemoryRow {
  id: number;
  organization_id: number;
  name: string;
  srclang: string;
  trglang: string;
  srclocale: string | null;
  trglocale: string | null;
  version: number;
  num_segments: number;
  resources: string;
  /** 1: a source may have several translations in one context; 0: a new one replaces the entry (default). */
  multiple_translations: number;
  created_at: number;
  updated_at: number;
}

export interface EntryRow {
  id: number;
  memory_id: number;
  source: string;
  target: string;
  pair_hash: string;
  resource_name: string | null;
  created_by: string | null;
  /** Who changed the entry last (its creator until someone edits it). */
  updated_by: string | null;
  rev: number;
  created_at: number;
  updated_at: number;
  /** Where the source stood when the entry was written (docs/MATCHING.md §2.6): the unit's key, if any… */
  context_key: string | null;
  /** …and the sources before and after it (null at a document's start or end, and without a context). */
  context_prev: string | null;
  context_next: string | null;
  /** The source in its context (contextHash), '' for an entry stored without a context. */
  context_hash: string;
}

export async function insertMemory(
  db: Queryable,
  m: {
    organizationId: number;
    name: string;
    srclang: string;
    trglang: string;
    srclocale: string | null;
    trglocale: string | null;
    multipleTranslations?: boolean;
  },
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO memories (organization_id, name, srclang, trglang, srclocale, trglocale, multiple_translations,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      m.organizationId,
      m.name,
      m.srclang,
      m.trglang,
      m.srclocale,
      m.trglocale,
      m.multipleTranslations ? 1 : 0,
      now,
      now,
    ],
  );
  return row!.id;
}

export async function findMemory(db: Queryable, id: number, organizationId: number) {
  return db.get<MemoryRow>('SELECT * FROM memories WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
}

/** A memory whatever its organization (tasks, which carry the organization themselves). */
export async function memoryById(db: Queryable, id: number) {
  return db.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', [id]);
}

/** How many entries the memory holds (its num_segments), 0 for none or no such memory. */
export async function entryCount(db: Queryable, memoryId: number): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT num_segments AS n FROM memories WHERE id = ?', [memoryId]);
  return Number(row?.n ?? 0);
}

/** Every memory's id and version (indexes load them all at start-up). */
export async function memoryVersions(db: Queryable) {
  return db.all<{ id: number; version: number }>('SELECT id, version FROM memories ORDER BY id');
}

export async function listMemories(db: Queryable, organizationId: number) {
  return db.all<MemoryRow>('SELECT * FROM memories WHERE organization_id = ? ORDER BY id', [organizationId]);
}

export async function renameMemory(db: Queryable, id: number, organizationId: number, name: string) {
  const { changes } = await db.run(
    'UPDATE memories SET name = ?, updated_at = ? WHERE id = ? AND organization_id = ?',
    [name, nowSeconds(), id, organizationId],
  );
  return changes > 0;
}

/** Whether a source may have several translations in one context (else a new one replaces the entry). */
export async function setMultipleTranslations(
  db: Queryable,
  id: number,
  organizationId: number,
  multiple: boolean,
) {
  const { changes } = await db.run(
    'UPDATE memories SET multiple_translations = ?, updated_at = ? WHERE id = ? AND organization_id = ?',
    [multiple ? 1 : 0, nowSeconds(), id, organizationId],
  );
  return changes > 0;
}

/**
 * Takes the memory's row lock for the rest of the transaction (PostgreSQL; SQLite's writer lock already
 * serialises writers); answers whether the memory exists. A delete takes it before it checks for an import
 * under way: an import holds it from its first write to its commit, so the delete either sees that import
 * or makes it fail — never deletes under it, taking its entries with the memory after it reported success.
 */
export async function lockMemory(db: Queryable, id: number): Promise<boolean> {
  const { changes } = await db.run('UPDATE memories SET version = version WHERE id = ?', [id]);
  return changes > 0;
}

export async function deleteMemory(db: Queryable, id: number, organizationId: number) {
  // Entries first: SQLite and PostgreSQL both cascade, but explicit deletes keep the two identical.
  if (!(await db.get('SELECT id FROM memories WHERE id = ? AND organization_id = ?', [id, organizationId]))) {
    return false;
  }
  await deleteInSlices(db, { table: 'memory_entries', key: 'id', where: 'memory_id = ?', params: [id] });
  await db.run('DELETE FROM memory_deletions WHERE memory_id = ?', [id]);
  await db.run('DELETE FROM memory_entry_versions WHERE memory_id = ?', [id]);
  const { changes } = await db.run('DELETE FROM memories WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
  return changes > 0;
}

/** Bumps the memory's version and answers the new one: every change to entries goes through this. */
export async function bumpVersion(db: Queryable, memoryId: number, segmentDelta: number): Promise<number> {
  const row = await db.get<{ version: number }>(
    `UPDATE memories SET version = version + 1, num_segments = num_segments + ?, updated_at = ?
     WHERE id = ? RETURNING version`,
    [segmentDelta, nowSeconds(), memoryId],
  );
  // Deleted meanwhile (an import or a confirmation racing a delete): say so rather than fail obscurely.
  if (!row) throw errors.notFound('Memory', memoryId);
  return row.version;
}

/** Stores a new entry stamped with the memory version that wrote it. */
export async function insertEntry(
  db: Queryable,
  e: {
    memoryId: number;
    source: string;
    target: string;
    pairHash: string;
    createdBy: string | null;
    rev: number;
    context?: EntryContext | null;
    contextHash?: string;
  },
): Promise<EntryRow> {
  const now = nowSeconds();
  const context = e.context ?? null;
  return (await db.get<EntryRow>(
    `INSERT INTO memory_entries (memory_id, source, target, pair_hash, resource_name, created_by, updated_by, rev,
       created_at, updated_at, context_key, context_prev, context_next, context_hash)
     VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    [
      e.memoryId,
      e.source,
      e.target,
      e.pairHash,
      e.createdBy,
      e.createdBy,
      e.rev,
      now,
      now,
      context?.key ?? null,
      context?.prev ?? null,
      context?.next ?? null,
      e.contextHash ?? '',
    ],
  ))!;
}

export async function updateEntry(
  db: Queryable,
  id: number,
  e: {
    source: string;
    target: string;
    pairHash: string;
    contextHash: string;
    rev: number;
    updatedBy: string;
  },
): Promise<EntryRow> {
  return (await db.get<EntryRow>(
    `UPDATE memory_entries SET source = ?, target = ?, pair_hash = ?, context_hash = ?, rev = ?, updated_by = ?,
       updated_at = ?
     WHERE id = ? RETURNING *`,
    [e.source, e.target, e.pairHash, e.contextHash, e.rev, e.updatedBy, nowSeconds(), id],
  ))!;
}

/**
 * Rewrites an entry's text and hashes without changing when or by whom it was written (its edge whitespace
 * trimmed), stamped with `rev` so that every index reads it again.
 */
export async function rewriteEntryText(
  db: Queryable,
  id: number,
  e: { source: string; target: string; pairHash: string; contextHash: string; rev: number },
) {
  await db.run(
    'UPDATE memory_entries SET source = ?, target = ?, pair_hash = ?, context_hash = ?, rev = ? WHERE id = ?',
    [e.source, e.target, e.pairHash, e.contextHash, e.rev, id],
  );
}

/**
 * Deletes an entry and logs the deletion under `rev`, so that other processes' indexes drop it too, with the
 * entry's text and times, so that a sync of deletions can say what went (GET /v2/memories/sync).
 */
export async function deleteEntry(db: Queryable, memoryId: number, id: number, rev: number) {
  await db.run(
    `INSERT INTO memory_deletions (memory_id, entry_id, rev, source, target, created_by, created_at, updated_at,
       deleted_at, context_key, context_prev, context_next, context_hash)
     SELECT ?, id, ?, source, target, created_by, created_at, updated_at, ?, context_key, context_prev, context_next,
       context_hash
     FROM memory_entries WHERE id = ?`,
    [memoryId, rev, nowSeconds(), id],
  );
  await db.run('DELETE FROM memory_entries WHERE id = ?', [id]);
  await db.run('DELETE FROM memory_entry_versions WHERE entry_id = ?', [id]);
}

/** An earlier version of an entry: what it held, who wrote that and when, who replaced it and when. */
export interface EntryVersionRow {
  id: number;
  entry_id: number;
  source: string;
  target: string;
  written_by: string | null;
  written_at: number;
  replaced_by: string | null;
  replaced_at: number;
}

/** Keeps what an entry holds now as an earlier version of it, replaced by `replacedBy` now. */
export async function keepEntryVersion(db: Queryable, entry: EntryRow, replacedBy: string) {
  await db.run(
    `INSERT INTO memory_entry_versions (memory_id, entry_id, source, target, written_by, written_at, replaced_by,
       replaced_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      entry.memory_id,
      entry.id,
      entry.source,
      entry.target,
      entry.updated_by,
      entry.updated_at,
      replacedBy,
      nowSeconds(),
    ],
  );
}

/** The earlier versions of an entry, newest first. */
export async function entryVersions(db: Queryable, entryId: number) {
  return db.all<EntryVersionRow>(
    `SELECT id, entry_id, source, target, written_by, written_at, replaced_by, replaced_at
     FROM memory_entry_versions WHERE entry_id = ? ORDER BY id DESC`,
    [entryId],
  );
}

export async function findEntry(db: Queryable, id: number, organizationId: number) {
  return db.get<EntryRow & { srclang: string; trglang: string }>(
    `SELECT e.*, m.srclang, m.trglang FROM memory_entries e JOIN memories m ON m.id = e.memory_id
     WHERE e.id = ? AND m.organization_id = ?`,
    [id, organizationId],
  );
}

export async function findEntryByPair(db: Queryable, memoryId: number, hash: string) {
  return db.get<EntryRow>('SELECT * FROM memory_entries WHERE memory_id = ? AND pair_hash = ?', [
    memoryId,
    hash,
  ]);
}

/**
 * The entries stored in one of these contexts (contextHash, never ''): a source's context matches. The
 * partial index on context_hash serves it; `<> ''` lets the planners see that it applies.
 */
export async function entriesInContexts(
  db: Queryable,
  memoryId: number,
  hashes: readonly string[],
): Promise<EntryRow[]> {
  const wanted = [...new Set(hashes.filter((h) => h !== ''))];
  if (wanted.length === 0) return [];
  return db.all<EntryRow>(
    `SELECT * FROM memory_entries WHERE memory_id = ? AND context_hash <> '' AND context_hash IN (${wanted.map(() => '?').join(', ')})`,
    [memoryId, ...wanted],
  );
}

/** Which of these contexts (context hashes) the memory holds an entry in: the analysis's 101 % band. */
export async function heldContexts(
  db: Queryable,
  memoryId: number,
  hashes: readonly string[],
): Promise<Set<string>> {
  const wanted = [...new Set(hashes.filter((h) => h !== ''))];
  if (wanted.length === 0) return new Set();
  const rows = await db.all<{ context_hash: string }>(
    `SELECT DISTINCT context_hash FROM memory_entries WHERE memory_id = ? AND context_hash <> '' AND context_hash IN (${wanted.map(() => '?').join(', ')})`,
    [memoryId, ...wanted],
  );
  return new Set(rows.map((r) => r.context_hash));
}

/** What an answer of matches shows of an entry (a query's, a concordance's, pre-translation's). */
export type MatchedEntryRow = Pick<
  EntryRow,
  'id' | 'source' | 'target' | 'resource_name' | 'created_by' | 'updated_by' | 'created_at' | 'updated_at'
>;

/**
 * The entries of these ids, with the columns an answer shows: every query reads about ten, and each further
 * column is a JavaScript value made per row: with the pair hash and the context columns (SELECT *), reading ten
 * entries of the 73k-entry memory took 50–73 µs on SQLite rather than 37–45.
 */
export async function entriesByIds(db: Queryable, ids: readonly number[]): Promise<MatchedEntryRow[]> {
  if (ids.length === 0) return [];
  return db.all<MatchedEntryRow>(
    `SELECT id, source, target, resource_name, created_by, updated_by, created_at, updated_at
     FROM memory_entries WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
}

/** Where a page of entriesSince ended: the last entry's version and id. */
export interface EntryCursor {
  rev: number;
  id: number;
}

/**
 * Entries changed after version `since`, a page at a time after `after` (keyset pagination). A full load
 * (since 0) walks (memory_id, id); a catch-up walks (memory_id, rev, id) from `since` on, so that it reads
 * only the entries written since — never the whole memory.
 */
export async function entriesSince(
  db: Queryable,
  memoryId: number,
  since: number,
  after: EntryCursor,
  limit: number,
) {
  const columns = 'SELECT id, source, target, updated_at, rev FROM memory_entries';
  type Changed = Pick<EntryRow, 'id' | 'source' | 'target' | 'updated_at' | 'rev'>;
  if (since === 0) {
    return db.all<Changed>(`${columns} WHERE memory_id = ? AND id > ? ORDER BY id LIMIT ?`, [
      memoryId,
      after.id,
      limit,
    ]);
  }
  return db.all<Changed>(
    `${columns} WHERE memory_id = ? AND rev > ? AND (rev, id) > (?, ?) ORDER BY rev, id LIMIT ?`,
    [memoryId, since, after.rev, after.id, limit],
  );
}

export async function deletionsSince(db: Queryable, memoryId: number, rev: number) {
  return db.all<{ entry_id: number }>(
    'SELECT entry_id FROM memory_deletions WHERE memory_id = ? AND rev > ?',
    [memoryId, rev],
  );
}

/** A page of a memory's entries in id order, those whose source or target holds `text` (any case) when given. */
export async function browseEntries(
  db: Queryable,
  memoryId: number,
  filter: { text?: string; offset: number; limit: number },
): Promise<{ total: number; rows: (EntryRow & { earlier_versions: number })[] }> {
  let where = 'memory_id = ?';
  const params: (string | number)[] = [memoryId];
  if (filter.text) {
    const pattern = `%${filter.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where += " AND (LOWER(source) LIKE ? ESCAPE '\\' OR LOWER(target) LIKE ? ESCAPE '\\')";
    params.push(pattern, pattern);
  }
  const total = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM memory_entries WHERE ${where}`,
    params,
  );
  const rows = await db.all<EntryRow & { earlier_versions: number }>(
    `SELECT e.*, (SELECT COUNT(*) FROM memory_entry_versions v WHERE v.entry_id = e.id) AS earlier_versions
     FROM memory_entries e WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`,
    [...params, filter.limit, filter.offset],
  );
  return { total: total?.n ?? 0, rows };
}

/** Which time of an entry a sync window selects on (Lilt's `when`). */
export type SyncField = 'created_at' | 'updated_at';

/** Where a page of a windowed read ended: the last row's time and id. */
export interface TimeCursor {
  time: number;
  id: number;
}

/**
 * A page of the entries whose `field` lies in [from, to), in (time, id) order after `after` (keyset
 * pagination over the memory_entries_created_at / _updated_at indexes: only the window is read).
 */
export async function entriesInWindow(
  db: Queryable,
  memoryId: number,
  window: { field: SyncField; from: number; to: number },
  after: TimeCursor,
  limit: number,
) {
  const f = window.field === 'created_at' ? 'created_at' : 'updated_at';
  return db.all<EntryRow>(
    `SELECT * FROM memory_entries WHERE memory_id = ? AND ${f} >= ? AND ${f} < ? AND (${f}, id) > (?, ?)
     ORDER BY ${f}, id LIMIT ?`,
    [memoryId, window.from, window.to, after.time, after.id, limit],
  );
}

/** A deleted entry as its deletion kept it (deletions logged before its text was kept have none). */
export interface DeletedEntryRow {
  entry_id: number;
  source: string;
  target: string;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  deleted_at: number;
  context_key: string | null;
  context_prev: string | null;
  context_next: string | null;
  context_hash: string;
}

/** A page of the entries deleted in [from, to) that kept their text, in (deleted_at, entry_id) order. */
export async function deletionsInWindow(
  db: Queryable,
  memoryId: number,
  window: { from: number; to: number },
  after: TimeCursor,
  limit: number,
) {
  return db.all<DeletedEntryRow>(
    `SELECT entry_id, source, target, created_by, created_at, updated_at, deleted_at, context_key, context_prev,
       context_next, context_hash
     FROM memory_deletions
     WHERE memory_id = ? AND deleted_at >= ? AND deleted_at < ? AND (deleted_at, entry_id) > (?, ?)
       AND source IS NOT NULL
     ORDER BY deleted_at, entry_id LIMIT ?`,
    [memoryId, window.from, window.to, after.time, after.id, limit],
  );
}

/** All entries of a memory in id order, a page at a time (export). */
export async function entriesPage(db: Queryable, memoryId: number, afterId: number, limit: number) {
  return db.all<EntryRow>('SELECT * FROM memory_entries WHERE memory_id = ? AND id > ? ORDER BY id LIMIT ?', [
    memoryId,
    afterId,
    limit,
  ]);
}

// ---- Imports: units inserted as the file is parsed, in the import's one transaction.

const IMPORTED_COLUMNS = [
  'memory_id',
  'source',
  'target',
  'pair_hash',
  'resource_name',
  'created_by',
  'updated_by',
  'rev',
  'created_at',
  'updated_at',
  'context_key',
  'context_prev',
  'context_next',
  'context_hash',
];

/**
 * Inserts imported units as entries in file order; a pair already stored (in the same context), or met
 * earlier in the file, is skipped. Answers how many went in.
 */
export function insertImported(
  db: Queryable,
  units: readonly ImportedUnit[],
  entry: { memoryId: number; resourceName: string; createdBy: string; rev: number },
): Promise<number> {
  const now = nowSeconds();
  const { memoryId, resourceName, createdBy, rev } = entry;
  const rows = units.map(([source, target, hash, key, prev, next, context]) => [
    memoryId,
    source,
    target,
    hash,
    resourceName,
    createdBy,
    createdBy,
    rev,
    now,
    now,
    key,
    prev,
    next,
    context,
  ]);
  return db.insertMany('memory_entries', IMPORTED_COLUMNS, rows, {
    skipConflictsOn: ['memory_id', 'pair_hash'],
  });
}

/** Counts the entries an import added and records the file among the memory's resources. */
export async function recordImport(
  db: Queryable,
  memoryId: number,
  imported: number,
  resources: readonly string[],
) {
  const { changes } = await db.run(
    'UPDATE memories SET num_segments = num_segments + ?, resources = ? WHERE id = ?',
    [imported, JSON.stringify(resources), memoryId],
  );
  return changes > 0;
}
