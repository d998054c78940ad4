// SQL for the /v2/segments resource's document segments: one segment found, edited, deleted or appended.
import type { Db, Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import type { SegmentStatus } from '../documents/document-states.ts';
import type { SegmentRow } from '../documents/repository.ts';

export type DocumentSegmentRow = SegmentRow & { srclang: string; trglang: string; project_id: number };

/** A document segment of the organization, with its document's language pair and project. */
export async function findSegment(db: Queryable, id: number, organizationId: number) {
  return db.get<DocumentSegmentRow>(
    `SELECT s.*, d.srclang, d.trglang, d.project_id FROM document_segments s JOIN documents d ON d.id = s.document_id
     WHERE s.id = ? AND d.organization_id = ?`,
    [id, organizationId],
  );
}

export async function updateSegment(
  db: Queryable,
  id: number,
  s: {
    target: string | null;
    confirmed: boolean;
    reviewed: boolean;
    status: SegmentStatus;
    keepScore: boolean;
  },
) {
  await db.run(
    `UPDATE document_segments SET target = ?, is_confirmed = ?, is_reviewed = ?, status = ?,
       match_score = CASE WHEN ? THEN match_score ELSE NULL END,
       repairs = CASE WHEN ? THEN repairs ELSE NULL END, updated_at = ? WHERE id = ?`,
    [
      s.target,
      s.confirmed ? 1 : 0,
      s.reviewed ? 1 : 0,
      s.status,
      s.keepScore ? 1 : 0,
      s.keepScore ? 1 : 0,
      nowSeconds(),
      id,
    ],
  );
}

export async function deleteSegment(db: Queryable, segment: { id: number; document_id: number }) {
  await db.run('DELETE FROM document_segments WHERE id = ?', [segment.id]);
  await db.run('UPDATE documents SET num_segments = num_segments - 1, updated_at = ? WHERE id = ?', [
    nowSeconds(),
    segment.document_id,
  ]);
}

/**
 * Appends a segment as a unit of its own after the document's last one (and after every unit of its
 * original, so that no merge mistakes it for one); answers its id.
 */
export async function appendSegment(
  db: Db,
  tx: Queryable,
  documentId: number,
  s: { source: string; target: string | null; status: SegmentStatus },
): Promise<number> {
  const last = await tx.get<{ position: number | null; unit: number | null; units: number }>(
    `SELECT MAX(s.position) AS position, MAX(s.unit_index) AS unit, d.num_units AS units
     FROM documents d LEFT JOIN document_segments s ON s.document_id = d.id WHERE d.id = ? GROUP BY d.num_units`,
    [documentId],
  );
  const [id] = await db.allocateIds(tx, 1);
  const now = nowSeconds();
  await tx.run(
    `INSERT INTO document_segments (id, document_id, position, unit_index, source, target, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      documentId,
      (last?.position ?? -1) + 1,
      Math.max((last?.unit ?? -1) + 1, last?.units ?? 0),
      s.source,
      s.target,
      s.status,
      now,
      now,
    ],
  );
  await tx.run('UPDATE documents SET num_segments = num_segments + 1, updated_at = ? WHERE id = ?', [
    now,
    documentId,
  ]);
  return id;
}
