// SQL for documents, their state transitions and their original files (segments: segment-repository.ts).
// The one owner of documents and document_files.
import { type ChunkTable, readChunks, writeChunks } from '../../store/chunked-files.ts';
import { nowSeconds, type Queryable, type SqlParam } from '../../store/db.ts';
import { isLive } from '../../store/instances.ts';
import {
  IMPORT_STATES,
  type ImportState,
  PRETRANSLATE_STATES,
  type PretranslateState,
  SEGMENT_STATUSES,
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
  /** Where the document is in its project's workflow (workflow-stages.ts). */
  stage: string;
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

const DOCUMENT_COLUMNS = `d.*,
  (SELECT COUNT(*) FROM document_segments s WHERE s.document_id = d.id AND s.is_confirmed = 1) AS num_confirmed,
  (SELECT COUNT(*) FROM document_segments s WHERE s.document_id = d.id AND s.status = '${SEGMENT_STATUSES.reviewed}') AS num_reviewed`;

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

/** Whether the organization has a visible document of this id (found without counting its segments). */
export async function isDocumentOf(db: Queryable, id: number, organizationId: number): Promise<boolean> {
  const row = await db.get(
    `SELECT d.id FROM documents d WHERE d.id = ? AND d.organization_id = ? AND ${VISIBLE}`,
    [id, organizationId],
  );
  return row !== undefined;
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

/** One document, or every document of a project (what a live events stream watches). */
export type DocumentScope = { documentId: number } | { projectId: number };

function inScope(scope: DocumentScope): { where: string; param: number } {
  return 'documentId' in scope
    ? { where: 'd.id = ?', param: scope.documentId }
    : { where: 'd.project_id = ?', param: scope.projectId };
}

export interface ExportMarkRow {
  id: number;
  project_id: number;
  export_started_at: number | null;
  export_succeeded: number;
  export_error: string | null;
}

/** The visible documents of the scope, with their export marks. */
export async function exportMarks(db: Queryable, scope: DocumentScope) {
  const { where, param } = inScope(scope);
  return db.all<ExportMarkRow>(
    `SELECT d.id, d.project_id, d.export_started_at, d.export_succeeded, d.export_error FROM documents d
     WHERE ${where} AND ${VISIBLE}`,
    [param],
  );
}

/** Segments and confirmed segments of each visible document of the scope. */
export async function segmentCounts(db: Queryable, scope: DocumentScope) {
  const { where, param } = inScope(scope);
  return db.all<{ id: number; project_id: number; total: number; confirmed: number }>(
    `SELECT d.id, d.project_id, d.num_segments AS total,
       (SELECT COUNT(*) FROM document_segments s WHERE s.document_id = d.id AND s.is_confirmed = 1) AS confirmed
     FROM documents d WHERE ${where} AND ${VISIBLE} ORDER BY d.id`,
    [param],
  );
}

/**
 * Moves a document to a stage of its workflow if it is still at `from` (answers whether it was): two hand-offs at
 * once move it once.
 */
export async function moveStage(
  db: Queryable,
  id: number,
  change: { from: string; to: string; reviewComplete: boolean },
): Promise<boolean> {
  const { changes } = await db.run(
    'UPDATE documents SET stage = ?, is_review_complete = ?, updated_at = ? WHERE id = ? AND stage = ?',
    [change.to, change.reviewComplete ? 1 : 0, nowSeconds(), id, change.from],
  );
  return changes > 0;
}

export async function renameDocument(db: Queryable, id: number, name: string) {
  await db.run('UPDATE documents SET name = ?, updated_at = ? WHERE id = ?', [name, nowSeconds(), id]);
}

/** Adds `delta` to the document's count of segments (a segment appended or deleted). */
export async function addToSegmentCount(db: Queryable, id: number, delta: number) {
  await db.run('UPDATE documents SET num_segments = num_segments + ?, updated_at = ? WHERE id = ?', [
    delta,
    nowSeconds(),
    id,
  ]);
}

/** Deletes the document and its original (its segments went first: segment-repository.ts). */
export async function deleteDocument(db: Queryable, id: number) {
  await db.run('DELETE FROM document_files WHERE document_id = ?', [id]);
  await db.run('DELETE FROM documents WHERE id = ?', [id]);
}

export async function documentIdsOfProject(db: Queryable, projectId: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>('SELECT id FROM documents WHERE project_id = ?', [projectId]);
  return rows.map((r) => r.id);
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

/** Documents whose upload was being stored by an instance that died (they are discarded). */
export async function deadUploads(db: Queryable, liveCutoff: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM documents WHERE import_state = ? AND (owner IS NULL OR NOT ${isLive('documents.owner')})`,
    [IMPORT_STATES.uploading, liveCutoff],
  );
  return rows.map((r) => r.id);
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
