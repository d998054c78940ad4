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

/**
 * Changes a document segment. With `expectedUpdatedAt`, only while its updated_at is that (else answers
 * false: someone changed it meanwhile). updated_at only ever grows, by a second at least, so that every
 * change is told apart from the one before even within one second; the segment's version counts changes.
 */
export async function updateSegment(
  db: Queryable,
  id: number,
  s: {
    target: string | null;
    confirmed: boolean;
    reviewed: boolean;
    status: SegmentStatus;
    keepScore: boolean;
    /** A new version of the segment (its target or status changes). */
    newVersion: boolean;
  },
  expectedUpdatedAt?: number,
): Promise<boolean> {
  const now = nowSeconds();
  const { changes } = await db.run(
    `UPDATE document_segments SET target = ?, is_confirmed = ?, is_reviewed = ?, status = ?,
       match_score = CASE WHEN ? THEN match_score ELSE NULL END,
       repairs = CASE WHEN ? THEN repairs ELSE NULL END,
       version = version + ?,
       updated_at = CASE WHEN updated_at >= ? THEN updated_at + 1 ELSE ? END
     WHERE id = ?${expectedUpdatedAt === undefined ? '' : ' AND updated_at = ?'}`,
    [
      s.target,
      s.confirmed ? 1 : 0,
      s.reviewed ? 1 : 0,
      s.status,
      s.keepScore ? 1 : 0,
      s.keepScore ? 1 : 0,
      s.newVersion ? 1 : 0,
      now,
      now,
      id,
      ...(expectedUpdatedAt === undefined ? [] : [expectedUpdatedAt]),
    ],
  );
  return changes > 0;
}

/** Segments whose version rows are written per statement. */
const VERSION_SLICE = 500;

/** Keeps the current state of these segments (just changed) as their new version, said to come from `origin`. */
export async function recordVersions(
  db: Queryable,
  ids: readonly number[],
  change: { origin: string; username: string | null },
) {
  for (let from = 0; from < ids.length; from += VERSION_SLICE) {
    const slice = ids.slice(from, from + VERSION_SLICE);
    await db.run(
      `INSERT INTO segment_versions (document_id, segment_id, version, target, status, username, origin, created_at)
       SELECT document_id, id, version, target, status, ?, ?, updated_at FROM document_segments
       WHERE id IN (${slice.map(() => '?').join(', ')})`,
      [change.username, change.origin, ...slice],
    );
  }
}

export interface VersionRow {
  version: number;
  target: string | null;
  status: string;
  username: string | null;
  origin: string;
  created_at: number;
}

/** The versions of a segment, newest first. */
export async function segmentVersions(db: Queryable, segmentId: number) {
  return db.all<VersionRow>(
    `SELECT version, target, status, username, origin, created_at FROM segment_versions
     WHERE segment_id = ? ORDER BY version DESC, id DESC`,
    [segmentId],
  );
}

export async function findVersion(db: Queryable, segmentId: number, version: number) {
  return db.get<VersionRow>(
    'SELECT version, target, status, username, origin, created_at FROM segment_versions WHERE segment_id = ? AND version = ? ORDER BY id DESC',
    [segmentId, version],
  );
}

export async function deleteSegment(db: Queryable, segment: { id: number; document_id: number }) {
  await db.run('DELETE FROM document_segments WHERE id = ?', [segment.id]);
  await db.run('DELETE FROM segment_versions WHERE segment_id = ?', [segment.id]);
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
