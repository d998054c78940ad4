// The SQL of a document's workflow: who is assigned to each stage of it (document_assignments), and the
// reads that visibility by assignment needs.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export interface AssignmentRow {
  document_id: number;
  stage: string;
  organization_id: number;
  user_id: number;
  due_at: number | null;
  assigned_at: number;
}

/** Assigns a stage of a document to a user, replacing whoever had it. */
export async function assign(
  db: Queryable,
  a: { documentId: number; stage: string; organizationId: number; userId: number; dueAt: number | null },
) {
  await db.run('DELETE FROM document_assignments WHERE document_id = ? AND stage = ?', [
    a.documentId,
    a.stage,
  ]);
  await db.run(
    `INSERT INTO document_assignments (document_id, stage, organization_id, user_id, due_at, assigned_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
    [a.documentId, a.stage, a.organizationId, a.userId, a.dueAt, nowSeconds()],
  );
}

/** Takes a stage of a document from the user who has it (nothing when it is someone else's). */
export async function unassign(db: Queryable, documentId: number, stage: string, userId: number) {
  await db.run('DELETE FROM document_assignments WHERE document_id = ? AND stage = ? AND user_id = ?', [
    documentId,
    stage,
    userId,
  ]);
}

export function assignmentsOf(db: Queryable, documentIds: readonly number[]) {
  if (documentIds.length === 0) return Promise.resolve([]);
  return db.all<AssignmentRow>(
    `SELECT * FROM document_assignments WHERE document_id IN (${documentIds.map(() => '?').join(', ')})
     ORDER BY document_id, stage`,
    [...documentIds],
  );
}

/** Whether the user is assigned to any stage of the document. */
export async function isAssigned(db: Queryable, documentId: number, userId: number): Promise<boolean> {
  const row = await db.get(
    'SELECT 1 AS one FROM document_assignments WHERE document_id = ? AND user_id = ?',
    [documentId, userId],
  );
  return row !== undefined;
}

/** The documents of the organization assigned to the user (any stage). */
export async function documentsAssignedTo(db: Queryable, userId: number, organizationId: number) {
  const rows = await db.all<{ document_id: number }>(
    `SELECT DISTINCT document_id FROM document_assignments WHERE user_id = ? AND organization_id = ?`,
    [userId, organizationId],
  );
  return rows.map((r) => Number(r.document_id));
}
