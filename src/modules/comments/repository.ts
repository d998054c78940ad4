// SQL for comments: the one owner of the comments table.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export interface CommentRow {
  id: number;
  organization_id: number;
  document_id: number;
  segment_id: number | null;
  parent_id: number | null;
  user_id: number | null;
  username: string;
  text: string;
  /** JSON list of Lilt's annotations, as the client sent them, or null. */
  annotations: string | null;
  /** JSON list of the usernames the text mentions, or null. */
  mentions: string | null;
  is_resolved: number;
  segment_version: number | null;
  created_at: number;
  updated_at: number;
}

export async function insertComment(
  db: Queryable,
  c: Omit<CommentRow, 'id' | 'created_at' | 'updated_at'>,
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO comments (organization_id, document_id, segment_id, parent_id, user_id, username, text, annotations,
       mentions, is_resolved, segment_version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      c.organization_id,
      c.document_id,
      c.segment_id,
      c.parent_id,
      c.user_id,
      c.username,
      c.text,
      c.annotations,
      c.mentions,
      c.is_resolved,
      c.segment_version,
      now,
      now,
    ],
  );
  return Number(row!.id);
}

export function findComment(db: Queryable, id: number, organizationId: number) {
  return db.get<CommentRow>('SELECT * FROM comments WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
}

/** A document's comments, threads in the order they were started, each reply after its first comment. */
export function commentsOfDocument(db: Queryable, documentId: number, organizationId: number) {
  return db.all<CommentRow>(
    `SELECT * FROM comments WHERE document_id = ? AND organization_id = ?
     ORDER BY COALESCE(parent_id, id), id`,
    [documentId, organizationId],
  );
}

export async function updateComment(
  db: Queryable,
  id: number,
  change: { text?: string; annotations?: string | null; mentions?: string | null; isResolved?: boolean },
): Promise<void> {
  const sets: string[] = [];
  const params: (string | number | null)[] = [];
  if (change.text !== undefined) {
    sets.push('text = ?');
    params.push(change.text);
  }
  if (change.annotations !== undefined) {
    sets.push('annotations = ?');
    params.push(change.annotations);
  }
  if (change.mentions !== undefined) {
    sets.push('mentions = ?');
    params.push(change.mentions);
  }
  if (change.isResolved !== undefined) {
    sets.push('is_resolved = ?');
    params.push(change.isResolved ? 1 : 0);
  }
  sets.push('updated_at = ?');
  params.push(nowSeconds(), id);
  await db.run(`UPDATE comments SET ${sets.join(', ')} WHERE id = ?`, params);
}

/** Deletes a comment; its replies go with it (ON DELETE CASCADE). */
export async function deleteComment(db: Queryable, id: number): Promise<boolean> {
  return (await db.run('DELETE FROM comments WHERE id = ?', [id])).changes > 0;
}

/** The segments of a document with an unresolved thread on them. */
export async function unresolvedSegmentIds(db: Queryable, documentId: number): Promise<number[]> {
  const rows = await db.all<{ segment_id: number }>(
    `SELECT DISTINCT segment_id FROM comments
     WHERE document_id = ? AND segment_id IS NOT NULL AND parent_id IS NULL AND is_resolved = 0`,
    [documentId],
  );
  return rows.map((r) => Number(r.segment_id));
}

/** A document's comments in thread order, for its export (the caller has checked the document). */
export function commentsOfDocumentAnyOrganization(db: Queryable, documentId: number) {
  return db.all<CommentRow>(
    'SELECT * FROM comments WHERE document_id = ? ORDER BY COALESCE(parent_id, id), id',
    [documentId],
  );
}
