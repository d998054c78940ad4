// SQL for documents, their state transitions and their original files (segments: segment-repository.ts).
import { type ChunkTable, readChunks, writeChunks } from '../../store/chunked-files.ts';
import { deleteInSlices, nowSeconds, type Queryable, type SqlParam } from '../../store/db.ts';
import { isLive } from '../../store/instances.ts';
import {
  IMPORT,
  IMPORT_STATES,
  type ImportState,
  PRETRANSLATE_STATES,
  PRETRANSLATION,
  type PretranslateState,
  type SegmentStatus,
  type Transition,
} from './document-states.ts';

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
  /** Units the filter extracted from the original (0 for documents imported before this was kept). */
  num_units: number;
  /** Words of its segments as the scorer counts them. */
  num_words: number;
  created_at: number;
  updated_at: number;
  /** Computed. */
  num_confirmed: number;
  num_reviewed: number;
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
  status: SegmentStatus;
  match_score: number | null;
  is_confirmed: number;
  is_reviewed: number;
  context: string | null;
  notes: string | null;
  /** JSON list of the placeables pre-translation repaired in the match's target, or null. */
  repairs: string | null;
  /** Changes of its target or status so far (its last version in segment_versions). */
  version: number;
  created_at: number;
  updated_at: number;
}

/** A segment as the import task plans it, before it has an id. */
export type NewSegment = Omit<
  SegmentRow,
  'id' | 'document_id' | 'position' | 'match_score' | 'repairs' | 'version' | 'created_at' | 'updated_at'
>;

const DOCUMENT_COLUMNS = `d.*,
  (SELECT COUNT(*) FROM document_segments s WHERE s.document_id = d.id AND s.is_confirmed = 1) AS num_confirmed,
  (SELECT COUNT(*) FROM document_segments s WHERE s.document_id = d.id AND s.status = 'reviewed') AS num_reviewed`;

const VISIBLE = `d.import_state <> '${IMPORT_STATES.uploading}'`;

export async function insertDocument(
  db: Queryable,
  d: {
    organizationId: number;
    projectId: number;
    name: string;
    format: string;
    srclang: string;
    trglang: string;
    /** The instance storing the upload: if it dies, the half-stored document is discarded. */
    owner: string;
  },
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO documents (organization_id, project_id, name, format, srclang, trglang, import_state, owner,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      d.organizationId,
      d.projectId,
      d.name,
      d.format,
      d.srclang,
      d.trglang,
      IMPORT_STATES.uploading,
      d.owner,
      now,
      now,
    ],
  );
  return row!.id;
}

/** A visible document of the organization (one still being uploaded is not). */
export async function findDocument(db: Queryable, id: number, organizationId: number) {
  return db.get<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.id = ? AND d.organization_id = ? AND ${VISIBLE}`,
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
     WHERE d.project_id IN (${projectIds.map(() => '?').join(', ')}) AND ${VISIBLE} ORDER BY d.id`,
    projectIds,
  );
}

/** The project a document is uploaded into, with the language pair and memory it gives its documents. */
export async function findProject(db: Queryable, projectId: number, organizationId: number) {
  return db.get<{ id: number; memory_id: number; srclang: string; trglang: string }>(
    'SELECT id, memory_id, srclang, trglang FROM projects WHERE id = ? AND organization_id = ?',
    [projectId, organizationId],
  );
}

/** The memory of the document's project: pre-translation reads it, confirmation writes to it. */
export async function memoryOfProject(db: Queryable, projectId: number): Promise<number | undefined> {
  return (await db.get<{ memory_id: number }>('SELECT memory_id FROM projects WHERE id = ?', [projectId]))
    ?.memory_id;
}

export async function renameDocument(db: Queryable, id: number, name: string) {
  await db.run('UPDATE documents SET name = ?, updated_at = ? WHERE id = ?', [name, nowSeconds(), id]);
}

export async function deleteDocument(db: Queryable, id: number) {
  await deleteInSlices(db, { table: 'segment_versions', key: 'id', where: 'document_id = ?', params: [id] });
  await db.run(
    'DELETE FROM replace_changes WHERE batch_id IN (SELECT id FROM replace_batches WHERE document_id = ?)',
    [id],
  );
  await db.run('DELETE FROM replace_batches WHERE document_id = ?', [id]);
  await deleteInSlices(db, { table: 'document_segments', key: 'id', where: 'document_id = ?', params: [id] });
  await db.run('DELETE FROM document_files WHERE document_id = ?', [id]);
  await db.run('DELETE FROM documents WHERE id = ?', [id]);
}

export async function deleteDocumentsOfProject(db: Queryable, projectId: number) {
  const docs = await db.all<{ id: number }>('SELECT id FROM documents WHERE project_id = ?', [projectId]);
  for (const d of docs) await deleteDocument(db, d.id);
}

// ---- State transitions: guarded UPDATEs, so a transition from a state it does not allow changes nothing.

async function move<S extends string>(
  db: Queryable,
  column: 'import_state' | 'pretranslate_state',
  id: number,
  transition: Transition<S>,
  also: Record<string, SqlParam> = {},
): Promise<boolean> {
  const sets = [`${column} = ?`, ...Object.keys(also).map((c) => `${c} = ?`)];
  const { changes } = await db.run(
    `UPDATE documents SET ${sets.join(', ')} WHERE id = ? AND ${column} IN (${transition.from.map(() => '?').join(', ')})`,
    [transition.to, ...Object.values(also), id, ...transition.from],
  );
  return changes > 0;
}

export function moveImport(
  db: Queryable,
  id: number,
  transition: Transition<ImportState>,
  also?: Record<string, SqlParam>,
) {
  return move(db, 'import_state', id, transition, also);
}

export function movePretranslation(
  db: Queryable,
  id: number,
  transition: Transition<PretranslateState>,
  also?: Record<string, SqlParam>,
) {
  return move(db, 'pretranslate_state', id, transition, also);
}

/**
 * Takes the export mark for the instance `owner` unless the document is busy (busyReason() of
 * document-states.ts, atomically).
 */
export async function takeExportMark(db: Queryable, id: number, owner: string): Promise<boolean> {
  const { changes } = await db.run(
    `UPDATE documents SET export_started_at = ?, owner = ?
     WHERE id = ? AND import_state = ? AND pretranslate_state = ? AND export_started_at IS NULL`,
    [nowSeconds(), owner, id, IMPORT_STATES.succeeded, PRETRANSLATE_STATES.idle],
  );
  return changes > 0;
}

export async function releaseExportMark(db: Queryable, id: number, error: string | null) {
  await db.run(
    'UPDATE documents SET export_started_at = NULL, owner = NULL, export_succeeded = ?, export_error = ? WHERE id = ?',
    [error === null ? 1 : 0, error, id],
  );
}

// ---- What dead instances left (run by the instances' sweep).

/** Discards documents whose upload was being stored by an instance that died (with their partial file). */
export async function deleteDeadUploads(db: Queryable, liveCutoff: number): Promise<number> {
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM documents WHERE import_state = ? AND (owner IS NULL OR NOT ${isLive('documents.owner')})`,
    [IMPORT_STATES.uploading, liveCutoff],
  );
  for (const row of rows) await deleteDocument(db, row.id);
  return rows.length;
}

/** Releases export marks whose instance died mid-export: the export failed, the document is free again. */
export async function releaseDeadExportMarks(db: Queryable, liveCutoff: number): Promise<number> {
  const { changes } = await db.run(
    `UPDATE documents SET export_started_at = NULL, owner = NULL, export_succeeded = 0,
       export_error = 'The export was interrupted: the server streaming it stopped'
     WHERE export_started_at IS NOT NULL AND (owner IS NULL OR NOT ${isLive('documents.owner')})`,
    [liveCutoff],
  );
  return changes;
}

/** Puts a document's state back after its task was given up: an import failed, a pre-translation idle. */
export async function releaseAfterGiveUp(db: Queryable, documentId: number, type: string, reason: string) {
  if (type === 'document_import') {
    await moveImport(db, documentId, IMPORT.failed, {
      import_error: `The file could not be imported: ${reason}`,
    });
  } else if (type === 'pretranslate') {
    await movePretranslation(db, documentId, PRETRANSLATION.finished);
  }
}

// ---- The original file.

const DOCUMENT_FILES: ChunkTable = { table: 'document_files', owner: 'document_id' };

export function storeOriginal(db: Queryable, documentId: number, file: AsyncIterable<Buffer>, limit: number) {
  return writeChunks(db, DOCUMENT_FILES, documentId, file, limit);
}

/** The uploaded file whole: filters read documents in one piece (uploads are size-limited). */
export async function readOriginal(db: Queryable, documentId: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of readChunks(db, DOCUMENT_FILES, documentId)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
