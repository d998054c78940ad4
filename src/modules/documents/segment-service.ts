import type { Principal } from '../../http/principal.ts';
import type { Db, Queryable, Transaction } from '../../store/db.ts';
import type { EntryContext } from '../memories/entry-identity.ts';
import type { SegmentInContext } from '../memories/service.ts';
import { SEGMENT_STATUSES, type SegmentStatus } from './document-states.ts';
import { ensureRepetitionKeys, repeatedCount, repetitionMarks } from './repetitions.ts';
import * as repo from './repository.ts';
import { contextKey } from './segment-plan.ts';
import type { DocumentSegmentRow } from './segment-repository.ts';
import * as segments from './segment-repository.ts';
import { publicSegment, requireDocument, segmentsWithIssues } from './service.ts';

export { ensureRepetitionKeys, propagateConfirmation, undoPropagation } from './repetitions.ts';
export type { DocumentSegmentRow, PropagatedRow } from './segment-repository.ts';

/** GET /v2/documents/segments: a page of the segments matching a filter, the total, and counts by status. */
export async function segmentsPage(
  db: Db,
  principal: Principal,
  query: {
    id: number;
    offset?: number;
    limit?: number;
    status?: string;
    q?: string;
    repeated?: boolean;
    qa?: 'any' | 'error';
  },
) {
  const doc = await requireDocument(db, principal, query.id);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 100;
  await ensureRepetitionKeys(db, doc.project_id);
  const filter = {
    statuses: query.status?.split(',') as SegmentStatus[] | undefined,
    text: query.q?.trim() || undefined,
    repeatedIn: query.repeated ? doc.project_id : undefined,
  };
  const { total, rows } = query.qa
    ? await withIssues(db, doc, filter, query.qa, { offset, limit })
    : await segments.filteredSegments(db, doc.id, filter, { offset, limit });
  const byStatus = await segments.statusCounts(db, doc.id);
  const counts = Object.fromEntries(
    Object.values(SEGMENT_STATUSES).map((status) => [status, byStatus.get(status) ?? 0]),
  ) as Record<SegmentStatus, number>;
  const marks = await repetitionMarks(db, doc.project_id, rows);
  return {
    total,
    offset,
    limit,
    counts,
    repetitions: await repeatedCount(db, doc.id, doc.project_id),
    segments: rows.map((row) => publicSegment(row, doc, marks.get(row.id))),
  };
}

/** A document segment as the API answers it, with its repetition mark (GET /v2/segments, a change's answer). */
export async function markedSegment(db: Queryable, row: DocumentSegmentRow) {
  await ensureRepetitionKeys(db, row.project_id);
  const marks = await repetitionMarks(db, row.project_id, [row]);
  return publicSegment(row, row, marks.get(row.id));
}

/**
 * The QA filter: QA is computed, not stored, so the segments with issues are found by checking the document
 * (the same walk as GET /v2/documents/qa), then the status and text filter applied to them.
 */
async function withIssues(
  db: Db,
  doc: repo.DocumentRow,
  filter: segments.SegmentFilter,
  qa: 'any' | 'error',
  page: { offset: number; limit: number },
) {
  const text = filter.text?.toLowerCase();
  let total = 0;
  const rows: segments.SegmentRow[] = [];
  for await (const { row, issues } of segmentsWithIssues(db, doc)) {
    if (qa === 'error' && !issues.some((i) => i.severity === 'error')) continue;
    if (filter.statuses?.length && !filter.statuses.includes(row.status as SegmentStatus)) continue;
    if (text && !row.source.toLowerCase().includes(text) && !(row.target ?? '').toLowerCase().includes(text))
      continue;
    // Both filters at once are rare: one lookup per segment with issues is enough.
    if (filter.repeatedIn !== undefined && !(await repetitionMarks(db, filter.repeatedIn, [row])).get(row.id))
      continue;
    if (total >= page.offset && rows.length < page.limit) rows.push(row);
    total++;
  }
  return { total, rows };
}

// ---- One segment (PUT, POST and DELETE /v2/segments, GET /v2/segments/history).

/** A document segment of the organization, with its document's language pair and project. */
export function findSegment(db: Queryable, id: number, organizationId: number) {
  return segments.findSegment(db, id, organizationId);
}

/**
 * Waits, before a segment is changed, until the clock has left the second of its last change (a second at
 * most). updated_at tells every change apart (expected_updated_at relies on it); a stamp that waits for the
 * clock, rather than taking a second past the last one, never runs ahead of the clock however fast a segment
 * is edited — edits of one segment are then at most one a second (the editor's outbox merges what is typed
 * meanwhile). A stamp already ahead (written before this rule, or by a batch: a pre-translation, a replace)
 * is not waited for: the change takes the second after it, as updateSegment does whenever one is taken.
 */
export async function untilNextSecond(updatedAt: number): Promise<void> {
  const wait = (updatedAt + 1) * 1000 - Date.now();
  if (wait > 0 && wait <= 1000) await new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * Writes a change of a document segment inside the caller's transaction, and its new version when target or
 * status changed; answers false when the segment is no longer at `expectedUpdatedAt` (nothing is written).
 */
export async function writeSegmentChange(
  tx: Queryable,
  id: number,
  change: {
    target: string | null;
    confirmed: boolean;
    reviewed: boolean;
    status: SegmentStatus;
    keepScore: boolean;
    newVersion: boolean;
    origin: string;
    username: string | null;
    /** The messages of the QA errors the target is confirmed with, kept in its version. */
    qaErrors?: readonly string[];
  },
  expectedUpdatedAt?: number,
): Promise<boolean> {
  const { origin, username, qaErrors, ...segment } = change;
  if (!(await segments.updateSegment(tx, id, segment, expectedUpdatedAt))) return false;
  if (change.newVersion) await segments.recordVersions(tx, [id], { origin, username, qaErrors });
  return true;
}

/**
 * Where a segment's source stands, as memory entries keep it (docs/MATCHING.md §2.6): its unit's context
 * when its format's contexts are keys (a key path, msgctxt, resname), and the sources of the segments before
 * and after it.
 */
export async function contextOfSegment(
  db: Queryable,
  segment: { document_id: number; position: number; context: string | null; format: string },
): Promise<EntryContext> {
  const { prev, next } = await segments.neighbourSources(db, segment.document_id, segment.position);
  return { key: contextKey(segment.format, segment.context), prev, next };
}

/**
 * The organization's document segment of this id with its context, or undefined: what a memory query with
 * segment_id compares contexts with (app.ts hands it to the memories module, which sits below).
 */
export async function segmentInContext(
  db: Queryable,
  segmentId: number,
  organizationId: number,
): Promise<SegmentInContext | undefined> {
  const row = await segments.findSegment(db, segmentId, organizationId);
  return row && { source: row.source, context: await contextOfSegment(db, row) };
}

/** The versions of a segment, newest first. */
export function segmentVersions(db: Queryable, segmentId: number) {
  return segments.segmentVersions(db, segmentId);
}

export function findVersion(db: Queryable, segmentId: number, version: number) {
  return segments.findVersion(db, segmentId, version);
}

/** Appends a segment to the end of the document, which counts it; answers its id. */
export function appendSegment(
  db: Db,
  documentId: number,
  s: { source: string; target: string | null; status: SegmentStatus },
): Promise<number> {
  return db.transaction(async (tx: Transaction) => {
    const id = await segments.appendSegment(tx, documentId, s);
    await repo.addToSegmentCount(tx, documentId, 1);
    return id;
  });
}

/** Deletes a document segment with its versions; its document counts one segment less. */
export function deleteSegment(db: Db, segment: { id: number; document_id: number }) {
  return db.transaction(async (tx) => {
    await segments.deleteSegment(tx, segment.id);
    await repo.addToSegmentCount(tx, segment.document_id, -1);
  });
}
