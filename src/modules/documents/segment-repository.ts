// SQL for a document's segments: read in pages, replaced by an import, filled by pre-translation.
import {
  type Db,
  deleteInSlices,
  deleteStaged,
  nowSeconds,
  type Queryable,
  type SqlParam,
} from '../../store/db.ts';
import { SEGMENT_STATUSES, type SegmentStatus } from './document-states.ts';
import type { NewSegment, SegmentRow } from './repository.ts';

export async function segmentsPage(db: Queryable, documentId: number, afterPosition: number, limit: number) {
  return db.all<SegmentRow>(
    'SELECT * FROM document_segments WHERE document_id = ? AND position > ? ORDER BY position LIMIT ?',
    [documentId, afterPosition, limit],
  );
}

/** Every segment of the document in order, a page at a time (keyset pagination on position). */
export async function* segmentPages(
  db: Queryable,
  documentId: number,
  size = 5000,
): AsyncGenerator<SegmentRow[]> {
  for (let after = -1; ; ) {
    const rows = await segmentsPage(db, documentId, after, size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1].position;
  }
}

/** Segments inserted per statement batch. */
const INSERT_SLICE = 1000;

const SEGMENT_COLUMNS = [
  'id',
  'document_id',
  'position',
  'unit_index',
  'lead',
  'trail',
  'source',
  'target',
  'status',
  'is_confirmed',
  'is_reviewed',
  'context',
  'notes',
  'created_at',
  'updated_at',
] as const;

/** Replaces the document's segments with these, in order (the import task; re-runnable). */
export async function replaceSegments(
  db: Db,
  tx: Queryable,
  documentId: number,
  segments: readonly NewSegment[],
) {
  await deleteInSlices(tx, {
    table: 'document_segments',
    key: 'id',
    where: 'document_id = ?',
    params: [documentId],
  });
  const ids = await db.allocateIds(tx, segments.length);
  const now = nowSeconds();
  // A slice at a time: the rows of a large document are never all built in one go.
  for (let from = 0; from < segments.length; from += INSERT_SLICE) {
    const rows: SqlParam[][] = segments
      .slice(from, from + INSERT_SLICE)
      .map((s, j) => [
        ids[from + j],
        documentId,
        from + j,
        s.unit_index,
        s.lead,
        s.trail,
        s.source,
        s.target,
        s.status,
        s.is_confirmed,
        s.is_reviewed,
        s.context,
        s.notes,
        now,
        now,
      ]);
    await tx.insertMany('document_segments', SEGMENT_COLUMNS, rows);
  }
}

// ---- Pre-translation: matches staged while they are looked up, then applied at once.

/** A memory match for one segment, as pre-translation found it. */
export interface StagedMatch {
  segmentId: number;
  target: string;
  score: number;
  confirm: boolean;
  /** The placeables put in place of the match's, as JSON (null when none were). */
  repairs: string | null;
}

export async function clearPretranslation(db: Queryable, taskId: number) {
  await deleteStaged(db, 'pretranslate_staging', taskId);
}

export async function stageMatches(
  db: Queryable,
  taskId: number,
  firstSeq: number,
  matches: readonly StagedMatch[],
) {
  await db.insertMany(
    'pretranslate_staging',
    ['task_id', 'seq', 'segment_id', 'target', 'score', 'confirm', 'repairs'],
    matches.map((m, i) => [
      taskId,
      firstSeq + i,
      m.segmentId,
      m.target,
      m.score,
      m.confirm ? 1 : 0,
      m.repairs,
    ]),
  );
}

/**
 * Writes staged matches [from, to) into their segments, except segments confirmed meanwhile (a translator's
 * work is never overwritten); answers how many segments changed, and how many of them were confirmed.
 */
export async function applyStagedMatches(
  db: Queryable,
  taskId: number,
  range: { from: number; to: number },
): Promise<{ translated: number; confirmed: number }> {
  const now = nowSeconds();
  let translated = 0;
  let confirmed = 0;
  for (const confirm of [1, 0]) {
    const { changes } = await db.run(
      `UPDATE document_segments SET target = s.target, match_score = s.score, repairs = s.repairs,
         is_confirmed = s.confirm, status = ?, updated_at = ?
       FROM pretranslate_staging s
       WHERE s.task_id = ? AND s.seq >= ? AND s.seq < ? AND s.confirm = ?
         AND document_segments.id = s.segment_id AND document_segments.is_confirmed = 0`,
      [
        confirm ? SEGMENT_STATUSES.confirmed : SEGMENT_STATUSES.pretranslated,
        now,
        taskId,
        range.from,
        range.to,
        confirm,
      ],
    );
    translated += changes;
    if (confirm) confirmed += changes;
  }
  return { translated, confirmed };
}

// ---- The editor's pages.

export interface SegmentFilter {
  statuses?: readonly SegmentStatus[];
  /** Text the source or the target contains, in any case. */
  text?: string;
}

function filterSql(documentId: number, filter: SegmentFilter): { where: string; params: SqlParam[] } {
  const clauses = ['document_id = ?'];
  const params: SqlParam[] = [documentId];
  if (filter.statuses?.length) {
    clauses.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
    params.push(...filter.statuses);
  }
  if (filter.text) {
    const pattern = `%${filter.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    clauses.push("(LOWER(source) LIKE ? ESCAPE '\\' OR LOWER(COALESCE(target, '')) LIKE ? ESCAPE '\\')");
    params.push(pattern, pattern);
  }
  return { where: clauses.join(' AND '), params };
}

/** A page of the document's segments matching the filter, in order, and how many match in all. */
export async function filteredSegments(
  db: Queryable,
  documentId: number,
  filter: SegmentFilter,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: SegmentRow[] }> {
  const { where, params } = filterSql(documentId, filter);
  const total = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM document_segments WHERE ${where}`,
    params,
  );
  const rows = await db.all<SegmentRow>(
    `SELECT * FROM document_segments WHERE ${where} ORDER BY position LIMIT ? OFFSET ?`,
    [...params, page.limit, page.offset],
  );
  return { total: total?.n ?? 0, rows };
}

/** How many of the document's segments there are of each status. */
export async function statusCounts(db: Queryable, documentId: number): Promise<Map<SegmentStatus, number>> {
  const rows = await db.all<{ status: SegmentStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM document_segments WHERE document_id = ? GROUP BY status',
    [documentId],
  );
  return new Map(rows.map((r) => [r.status, r.n]));
}
