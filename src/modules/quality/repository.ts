// SQL for the quality evaluation: the one owner of quality_annotations and quality_thresholds.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import type { MqmCategory, MqmSeverity } from '../../text/qa/mqm.ts';

export interface AnnotationRow {
  id: number;
  organization_id: number;
  document_id: number;
  segment_id: number;
  category: MqmCategory;
  severity: MqmSeverity;
  note: string;
  /** The segment's target when the error was annotated. */
  target: string | null;
  created_by: number | null;
  username: string | null;
  created_at: number;
  updated_at: number;
}

export async function insertAnnotation(
  db: Queryable,
  a: Omit<AnnotationRow, 'id' | 'created_at' | 'updated_at'>,
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO quality_annotations (organization_id, document_id, segment_id, category, severity, note, target,
       created_by, username, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      a.organization_id,
      a.document_id,
      a.segment_id,
      a.category,
      a.severity,
      a.note,
      a.target,
      a.created_by,
      a.username,
      now,
      now,
    ],
  );
  return row!.id;
}

export function findAnnotation(db: Queryable, id: number, organizationId: number) {
  return db.get<AnnotationRow>('SELECT * FROM quality_annotations WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
}

/** A document's annotations (of one segment when given), oldest first. */
export function annotationsOf(db: Queryable, documentId: number, segmentId?: number) {
  return segmentId === undefined
    ? db.all<AnnotationRow>('SELECT * FROM quality_annotations WHERE document_id = ? ORDER BY id', [
        documentId,
      ])
    : db.all<AnnotationRow>(
        'SELECT * FROM quality_annotations WHERE document_id = ? AND segment_id = ? ORDER BY id',
        [documentId, segmentId],
      );
}

export async function updateAnnotation(
  db: Queryable,
  id: number,
  change: Partial<Pick<AnnotationRow, 'category' | 'severity' | 'note'>>,
) {
  const entries = Object.entries(change).filter(([, v]) => v !== undefined);
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?'];
  await db.run(`UPDATE quality_annotations SET ${sets.join(', ')} WHERE id = ?`, [
    ...entries.map(([, v]) => v as string),
    nowSeconds(),
    id,
  ]);
}

export async function deleteAnnotation(db: Queryable, id: number) {
  await db.run('DELETE FROM quality_annotations WHERE id = ?', [id]);
}

/** The project's pass threshold, or undefined when it keeps the default. */
export async function findThreshold(db: Queryable, projectId: number): Promise<number | undefined> {
  const row = await db.get<{ threshold: number }>(
    'SELECT threshold FROM quality_thresholds WHERE project_id = ?',
    [projectId],
  );
  return row === undefined ? undefined : Number(row.threshold);
}

export async function saveThreshold(db: Queryable, projectId: number, userId: number, threshold: number) {
  await db.run(
    `INSERT INTO quality_thresholds (project_id, threshold, updated_by, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET threshold = excluded.threshold, updated_by = excluded.updated_by,
       updated_at = excluded.updated_at`,
    [projectId, threshold, userId, nowSeconds()],
  );
}
