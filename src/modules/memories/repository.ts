// SQL for memories and their entries.
import { hash } from 'node:crypto';
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

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
  created_at: number;
  updated_at: number;
  /** Computed: an import job of this memory is queued or running. */
  is_processing: number;
}

export interface EntryRow {
  id: number;
  memory_id: number;
  source: string;
  target: string;
  pair_hash: string;
  resource_name: string | null;
  created_by: string | null;
  rev: number;
  created_at: number;
  updated_at: number;
}

/** Identity of an entry: NFC source and target. An identical pair is stored once per memory. */
export function pairHash(source: string, target: string): string {
  // 128 bits of SHA-256: collisions are out of reach, and the unique index stays small (import speed).
  return hash('sha256', `${source.normalize('NFC')}\u0000${target.normalize('NFC')}`, 'base64url').slice(
    0,
    22,
  );
}

const MEMORY_COLUMNS = `m.*, CASE WHEN EXISTS (
    SELECT 1 FROM jobs j WHERE j.memory_id = m.id AND j.type = 'memory_import' AND j.state IN ('uploading', 'queued', 'running')
  ) THEN 1 ELSE 0 END AS is_processing`;

export async function insertMemory(
  db: Queryable,
  m: {
    organizationId: number;
    name: string;
    srclang: string;
    trglang: string;
    srclocale: string | null;
    trglocale: string | null;
  },
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO memories (organization_id, name, srclang, trglang, srclocale, trglocale, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [m.organizationId, m.name, m.srclang, m.trglang, m.srclocale, m.trglocale, now, now],
  );
  return Number(row!.id);
}

export async function findMemory(db: Queryable, id: number, organizationId: number) {
  return db.get<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ? AND m.organization_id = ?`,
    [id, organizationId],
  );
}

export async function listMemories(db: Queryable, organizationId: number) {
  return db.all<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.organization_id = ? ORDER BY m.id`,
    [organizationId],
  );
}

export async function renameMemory(db: Queryable, id: number, organizationId: number, name: string) {
  const { changes } = await db.run(
    'UPDATE memories SET name = ?, updated_at = ? WHERE id = ? AND organization_id = ?',
    [name, nowSeconds(), id, organizationId],
  );
  return changes > 0;
}

export async function deleteMemory(db: Queryable, id: number, organizationId: number) {
  // Entries first: SQLite and PostgreSQL both cascade, but explicit deletes keep the two identical.
  await db.run(
    'DELETE FROM memory_entries WHERE memory_id IN (SELECT id FROM memories WHERE id = ? AND organization_id = ?)',
    [id, organizationId],
  );
  await db.run('DELETE FROM memory_deletions WHERE memory_id = ?', [id]);
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
  return Number(row!.version);
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

export async function entriesByIds(db: Queryable, ids: readonly number[]): Promise<EntryRow[]> {
  if (ids.length === 0) return [];
  return db.all<EntryRow>(`SELECT * FROM memory_entries WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
}

/** Entries changed after `rev`, in id order, a page at a time (keyset pagination). */
export async function entriesSince(
  db: Queryable,
  memoryId: number,
  rev: number,
  afterId: number,
  limit: number,
) {
  // A full load walks (memory_id, id) in order; a catch-up reads the few rows past `rev` by its index.
  const where = rev === 0 ? 'memory_id = ? AND id > ?' : 'memory_id = ? AND rev > ? AND id > ?';
  return db.all<Pick<EntryRow, 'id' | 'source' | 'target' | 'updated_at' | 'rev'>>(
    `SELECT id, source, target, updated_at, rev FROM memory_entries WHERE ${where} ORDER BY id LIMIT ?`,
    rev === 0 ? [memoryId, afterId, limit] : [memoryId, rev, afterId, limit],
  );
}

export async function deletionsSince(db: Queryable, memoryId: number, rev: number) {
  return db.all<{ entry_id: number }>(
    'SELECT entry_id FROM memory_deletions WHERE memory_id = ? AND rev > ?',
    [memoryId, rev],
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
