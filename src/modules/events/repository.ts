// SQL for live events: whom a subscription may watch, and the state of the watched documents and their tasks.
import type { Queryable } from '../../store/db.ts';

/** A document of the organization (a document still being uploaded is not shown). */
export async function findDocument(db: Queryable, id: number, organizationId: number) {
  return db.get<{ id: number; project_id: number }>(
    "SELECT id, project_id FROM documents WHERE id = ? AND organization_id = ? AND import_state <> 'uploading'",
    [id, organizationId],
  );
}

export async function findProject(db: Queryable, id: number, organizationId: number) {
  return db.get<{ id: number }>('SELECT id FROM projects WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
}

/** What a subscription watches: one document, or every document of a project. */
export type Watched = { documentId: number } | { projectId: number };

function documentsOf(watched: Watched): { where: string; param: number } {
  return 'documentId' in watched
    ? { where: 'd.id = ?', param: watched.documentId }
    : { where: 'd.project_id = ?', param: watched.projectId };
}

export interface DocumentStateRow {
  id: number;
  project_id: number;
  export_started_at: number | null;
  export_succeeded: number;
  export_error: string | null;
}

/** The watched documents' export marks (an export is no task: the request streaming it holds the mark). */
export async function documentStates(db: Queryable, watched: Watched) {
  const { where, param } = documentsOf(watched);
  return db.all<DocumentStateRow>(
    `SELECT d.id, d.project_id, d.export_started_at, d.export_succeeded, d.export_error FROM documents d
     WHERE ${where} AND d.import_state <> 'uploading'`,
    [param],
  );
}

export interface TaskStateRow {
  id: number;
  document_id: number;
  project_id: number;
  type: string;
  state: string;
  progress_done: number;
  progress_total: number;
}

/** Tasks of the watched documents that are under way, or ended at `since` or later. */
export async function taskStates(db: Queryable, watched: Watched, since: number) {
  const { where, param } = documentsOf(watched);
  return db.all<TaskStateRow>(
    `SELECT t.id, t.document_id, d.project_id, t.type, t.state, t.progress_done, t.progress_total
     FROM tasks t JOIN documents d ON d.id = t.document_id
     WHERE ${where} AND (t.state IN ('uploading', 'queued', 'running') OR t.finished_at >= ?) ORDER BY t.id`,
    [param, since],
  );
}

/** Segments and confirmed segments of each watched document (or of one of them). */
export async function documentCounts(db: Queryable, watched: Watched) {
  const { where, param } = documentsOf(watched);
  return db.all<{ id: number; project_id: number; total: number; confirmed: number }>(
    `SELECT d.id, d.project_id, d.num_segments AS total,
       (SELECT COUNT(*) FROM document_segments s WHERE s.document_id = d.id AND s.is_confirmed = 1) AS confirmed
     FROM documents d WHERE ${where} AND d.import_state <> 'uploading' ORDER BY d.id`,
    [param],
  );
}
