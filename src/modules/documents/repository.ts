// SQL for documents, their original files and their segments.
import { type ChunkTable, readChunks } from '../../store/chunked-files.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export type ImportState = 'uploading' | 'pending' | 'running' | 'succeeded' | 'failed';
export type PretranslateState = 'idle' | 'pending' | 'running';

/** An export mark older than this was left by a process that died; it no longer blocks. */
export const EXPORT_MARK_SECONDS = 600;

export interface DocumentRow {
  id: number;
  organization_id: number;
  project_id: number;
  name: string;
  format: string;
  srclang: string;
  trglang: string;
  size_bytes: number;
  import_state: ImportState;
  import_error: string | null;
  export_started_at: number | null;
  export_succeeded: number;
  export_error: string | null;
  pretranslate_state: PretranslateState;
  is_review_complete: number;
  num_segments: number;
  created_at: number;
  updated_at: number;
  /** Computed. */
  num_confirmed: number;
}

export interface SegmentRow {
  id: number;
  document_id: number;
  position: number;
  unit_index: number;
  lead: string;
  trail: string;
  source: string;
  target: string | null;
  status: string;
  match_score: number | null;
  is_confirmed: number;
  is_reviewed: number;
  context: string | null;
  notes: string | null;
  created_at: number;
  updated_at: number;
}

const DOCUMENT_COLUMNS = `d.*, (SELECT COUNT(*) FROM document_segments s WHERE s.document_id = d.id AND s.is_confirmed = 1)
  AS num_confirmed`;

export async function insertDocument(
  db: Queryable,
  d: {
    organizationId: number;
    projectId: number;
    name: string;
    format: string;
    srclang: string;
    trglang: string;
  },
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO documents (organization_id, project_id, name, format, srclang, trglang, import_state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'uploading', ?, ?) RETURNING id`,
    [d.organizationId, d.projectId, d.name, d.format, d.srclang, d.trglang, now, now],
  );
  return Number(row!.id);
}

export async function findDocument(db: Queryable, id: number, organizationId: number) {
  return db.get<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.id = ? AND d.organization_id = ? AND d.import_state <> 'uploading'`,
    [id, organizationId],
  );
}

export async function documentById(db: Queryable, id: number) {
  return db.get<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.id = ?`, [id]);
}

export async function documentsOfProjects(db: Queryable, projectIds: readonly number[]) {
  if (projectIds.length === 0) return [];
  return db.all<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d
     WHERE d.project_id IN (${projectIds.map(() => '?').join(', ')}) AND d.import_state <> 'uploading' ORDER BY d.id`,
    projectIds,
  );
}

export async function deleteDocument(db: Queryable, id: number) {
  await db.run('DELETE FROM document_segments WHERE document_id = ?', [id]);
  await db.run('DELETE FROM document_files WHERE document_id = ?', [id]);
  await db.run('DELETE FROM documents WHERE id = ?', [id]);
}

export const DOCUMENT_FILES: ChunkTable = { table: 'document_files', owner: 'document_id' };

/** The uploaded file whole: filters read documents in one piece (uploads are size-limited). */
export async function readOriginal(db: Queryable, documentId: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of readChunks(db, DOCUMENT_FILES, documentId)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Ids for new document segments, from the same sequence as memory entries: GET /v2/segments?id= serves
 * both, so their ids never collide. On SQLite the sequence is memory_entries' AUTOINCREMENT counter.
 */
export async function allocateSegmentIds(db: Db, tx: Queryable, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (db.dialect === 'postgres') {
    const rows = await tx.all<{ id: number }>(
      "SELECT nextval('segment_ids') AS id FROM generate_series(1, ?::int)",
      [count],
    );
    return rows.map((r) => Number(r.id));
  }
  const current = await tx.get<{ seq: number }>(
    "SELECT seq FROM sqlite_sequence WHERE name = 'memory_entries'",
  );
  if (!current) {
    const max = await tx.get<{ m: number | null }>('SELECT MAX(id) AS m FROM memory_entries');
    await tx.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('memory_entries', ?)", [
      Number(max?.m ?? 0),
    ]);
  }
  const row = await tx.get<{ seq: number }>(
    "UPDATE sqlite_sequence SET seq = seq + ? WHERE name = 'memory_entries' RETURNING seq",
    [count],
  );
  const end = Number(row!.seq);
  return Array.from({ length: count }, (_, i) => end - count + 1 + i);
}

export async function segmentsPage(db: Queryable, documentId: number, afterPosition: number, limit: number) {
  return db.all<SegmentRow>(
    'SELECT * FROM document_segments WHERE document_id = ? AND position > ? ORDER BY position LIMIT ?',
    [documentId, afterPosition, limit],
  );
}

export async function findSegment(db: Queryable, id: number, organizationId: number) {
  return db.get<SegmentRow & { srclang: string; trglang: string; project_id: number }>(
    `SELECT s.*, d.srclang, d.trglang, d.project_id FROM document_segments s JOIN documents d ON d.id = s.document_id
     WHERE s.id = ? AND d.organization_id = ?`,
    [id, organizationId],
  );
}

/** Puts a document's state back after its job was given up: imports failed, pre-translation idle. */
export async function releaseAfterGiveUp(db: Queryable, documentId: number, type: string, reason: string) {
  if (type === 'document_import') {
    await db.run("UPDATE documents SET import_state = 'failed', import_error = ? WHERE id = ?", [
      `The file could not be imported: ${reason}`,
      documentId,
    ]);
  } else if (type === 'pretranslate') {
    await db.run("UPDATE documents SET pretranslate_state = 'idle' WHERE id = ?", [documentId]);
  }
}
