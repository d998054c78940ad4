import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db, Queryable, Transaction } from '../../store/db.ts';
import { cutProblem } from '../../text/segment-cut.ts';
import { targetTagProblem } from '../../text/tag-check.ts';
import type { EntryContext } from '../memories/entry-identity.ts';
import type { SegmentInContext } from '../memories/service.ts';
import { canSeeDocument, requireSegmentWritable } from './assignments.ts';
import type { CommentsOfDocuments } from './comments-of-documents.ts';
import { glossaryOfDocument, type MemoryOfProject } from './document-glossary.ts';
import { busyReason, SEGMENT_STATUSES, type SegmentStatus, segmentStatus } from './document-states.ts';
import { ensureRepetitionKeys, repeatedCount, repetitionMarks } from './repetitions.ts';
import * as repo from './repository.ts';
import { contextKey, joinPieces, splitPiece } from './segment-plan.ts';
import type { DocumentSegmentRow } from './segment-repository.ts';
import * as segments from './segment-repository.ts';
import { publicSegment, requireDocument, retryAfter, segmentsWithIssues } from './service.ts';

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
    unresolved?: boolean;
  },
  comments?: CommentsOfDocuments,
  /** With it, the QA filter checks the project memory's terms too, as GET /v2/documents/qa does. */
  memoryOfProject?: MemoryOfProject,
) {
  const doc = await requireDocument(db, principal, query.id);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 100;
  await ensureRepetitionKeys(db, doc.project_id);
  const filter = {
    statuses: query.status?.split(',') as SegmentStatus[] | undefined,
    text: query.q?.trim() || undefined,
    repeatedIn: query.repeated ? doc.project_id : undefined,
    ids: query.unresolved && comments ? await comments.unresolvedSegmentIds(db, doc.id) : undefined,
  };
  const { total, rows } = query.qa
    ? await withIssues(db, doc, filter, query.qa, { offset, limit }, memoryOfProject)
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

/** Segments of one document as the API answers them, with their repetition marks (a join's or split's answer). */
export async function markedSegments(
  db: Queryable,
  doc: { id: number; srclang: string; trglang: string; project_id: number },
  rows: segments.SegmentRow[],
) {
  await ensureRepetitionKeys(db, doc.project_id);
  const marks = await repetitionMarks(db, doc.project_id, rows);
  return rows.map((row) => publicSegment(row, doc, marks.get(row.id)));
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
  memoryOfProject?: MemoryOfProject,
) {
  const glossary = memoryOfProject ? await glossaryOfDocument(db, doc, memoryOfProject) : undefined;
  const text = filter.text?.toLowerCase();
  const ids = filter.ids && new Set(filter.ids);
  let total = 0;
  const rows: segments.SegmentRow[] = [];
  for await (const { row, issues } of segmentsWithIssues(db, doc, glossary)) {
    if (qa === 'error' && !issues.some((i) => i.severity === 'error')) continue;
    if (filter.statuses?.length && !filter.statuses.includes(row.status as SegmentStatus)) continue;
    if (ids && !ids.has(row.id)) continue;
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
 * A document segment the principal may see (its document passes documentAccess), or undefined: another
 * organization's, or of a document not assigned to this translator or reviewer.
 */
export async function findSegmentFor(db: Queryable, principal: Principal, id: number) {
  const row = await segments.findSegment(db, id, principal.organizationId);
  if (!row || !(await canSeeDocument(db, principal, Number(row.document_id)))) return undefined;
  return row;
}

export { documentAccess, requireSegmentWritable, requireStageOf } from './assignments.ts';

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

// ---- Joining and splitting segments of one unit (POST /v2/segments/join and /split).

/** What a join or a split changed: the segments as they are now, and the document they belong to. */
export interface Reshaped {
  segments: segments.SegmentRow[];
  /** The segment a join removed. */
  removed?: number;
  doc: { id: number; srclang: string; trglang: string; project_id: number };
}

const documentOf = (s: segments.DocumentSegmentRow) => ({
  id: s.document_id,
  srclang: s.srclang,
  trglang: s.trglang,
  project_id: s.project_id,
});

/**
 * Takes the document for a join or a split inside `tx`: refused while it is imported, pre-translated or
 * exported; its count of segments moves first, which on PostgreSQL locks its row, so that two joins or
 * splits of one document take turns (their positions shift).
 */
async function takeDocument(tx: Queryable, documentId: number, delta: number) {
  const doc = (await repo.documentById(tx, documentId))!;
  const busy = busyReason(doc);
  if (busy) throw errors.documentBusy(busy, await retryAfter(tx, doc));
  await repo.addToSegmentCount(tx, documentId, delta);
  return doc;
}

/** The segment as it is in the transaction, refused when someone changed it since `expectedUpdatedAt`. */
async function current(
  tx: Queryable,
  principal: Principal,
  id: number,
  expectedUpdatedAt: number | undefined,
) {
  const row = await segments.findSegment(tx, id, principal.organizationId);
  if (!row) throw errors.notFound('Segment', id);
  if (expectedUpdatedAt !== undefined && row.updated_at !== expectedUpdatedAt) {
    throw errors.segmentConflict(id, publicSegment(row, row));
  }
  return row;
}

/**
 * Joins a segment with the next one of the document, which must belong to the same unit (paragraph or
 * entry) of the original: 409 SEGMENTS_NOT_JOINABLE otherwise, naming why. The first keeps its id and its
 * history, with a version `join`; the second is deleted with its versions. The joined target is what the
 * export wrote for the two, so the exported file does not change; it is unconfirmed (a draft, or new when
 * neither had a target) until the translator confirms the whole, which writes it to the memory.
 */
export async function joinWithNext(
  db: Db,
  principal: Principal,
  id: number,
  expectedUpdatedAt?: number,
): Promise<Reshaped> {
  const found = await findSegmentFor(db, principal, id);
  if (!found) throw errors.notFound('Segment', id);
  await requireSegmentWritable(db, principal, found);
  const number = found.position + 1;
  return db.transaction(async (tx) => {
    const doc = await takeDocument(tx, found.document_id, -1);
    const first = await current(tx, principal, id, expectedUpdatedAt);
    const second = await segments.segmentAt(tx, first.document_id, first.position + 1);
    if (!second) {
      throw errors.segmentsNotJoinable(
        `Segment ${number} is the last of its document: there is none after it to join`,
      );
    }
    if (second.unit_index !== first.unit_index || first.unit_index >= doc.num_units) {
      throw errors.segmentsNotJoinable(
        `Segments ${number} and ${number + 1} belong to different paragraphs or entries of the file: ` +
          'joined, one of them would lose its place in the exported file',
      );
    }
    const joined = joinPieces(first, second);
    const status = segmentStatus({ target: joined.target, confirmed: false, reviewed: false });
    await segments.deleteSegment(tx, second.id);
    await segments.shiftPositions(tx, first.document_id, second.position, -1);
    await segments.reshapeSegment(tx, first.id, { ...joined, status });
    await segments.recordVersions(tx, [first.id], { origin: 'join', username: principal.username });
    return {
      segments: [(await segments.findSegment(tx, first.id, principal.organizationId))!],
      removed: second.id,
      doc: documentOf(found),
    };
  });
}

/**
 * Splits a segment in two at `offset` of its source (characters of the tagged source) and, when it has a
 * target, at `targetOffset` of its target: 400 naming the parameter when a cut falls inside a tag, between a
 * tag pair's open and close (a part would open an element it does not close), leaves a part without text,
 * or puts a tag of the target on the other side of its source's. Both parts are unconfirmed, each a version
 * `split`; the first keeps the id and history, the second is a new segment right after it.
 */
export async function splitAt(
  db: Db,
  principal: Principal,
  input: { id: number; offset: number; targetOffset?: number; expectedUpdatedAt?: number },
): Promise<Reshaped> {
  const found = await findSegmentFor(db, principal, input.id);
  if (!found) throw errors.notFound('Segment', input.id);
  await requireSegmentWritable(db, principal, found);
  return db.transaction(async (tx) => {
    await takeDocument(tx, found.document_id, 1);
    const row = await current(tx, principal, input.id, input.expectedUpdatedAt);
    const sourceProblem = cutProblem(row.source, input.offset);
    if (sourceProblem) throw errors.badParameter(`Parameter "offset": ${sourceProblem}`);
    const hasTarget = row.target !== null && row.target.trim() !== '';
    if (hasTarget && input.targetOffset === undefined) {
      throw errors.badParameter(
        'Parameter "target_offset" is required to split a segment that has a target: say where its translation is cut',
      );
    }
    if (hasTarget) {
      const targetProblem = cutProblem(row.target!, input.targetOffset!);
      if (targetProblem) throw errors.badParameter(`Parameter "target_offset": ${targetProblem}`);
    }
    const parts = splitPiece(row, input.offset, hasTarget ? input.targetOffset : undefined)!;
    for (const part of parts) {
      const problem = part.target === null ? null : targetTagProblem(part.source, part.target);
      if (problem) throw errors.badParameter(`Parameter "target_offset": ${problem}`);
    }
    const [first, second] = parts.map((p) => ({
      ...p,
      status: segmentStatus({ target: p.target, confirmed: false, reviewed: false }),
    }));
    await segments.shiftPositions(tx, row.document_id, row.position, 1);
    await segments.reshapeSegment(tx, row.id, first);
    const secondId = await segments.insertSegmentAt(tx, row.document_id, row.position + 1, {
      ...second,
      unit_index: row.unit_index,
      context: row.context,
      notes: row.notes,
    });
    await segments.recordVersions(tx, [row.id, secondId], { origin: 'split', username: principal.username });
    return {
      segments: [
        (await segments.findSegment(tx, row.id, principal.organizationId))!,
        (await segments.findSegment(tx, secondId, principal.organizationId))!,
      ],
      doc: documentOf(found),
    };
  });
}

// ---- Review (the review and quality modules read segments and their versions through these).

/** Segments of a document by id, with their number and texts (ids no longer in it are left out). */
export function segmentsByIds(db: Queryable, documentId: number, ids: readonly number[]) {
  return segments.segmentsByIds(db, documentId, ids);
}

/** Each segment's newest confirmed version: the translator's version review mode compares with. */
export function confirmedBaselines(db: Queryable, documentId: number) {
  return segments.confirmedBaselines(db, documentId);
}

/** A page of the document's confirmed and reviewed segments, by position. */
export function confirmedSegmentsPage(
  db: Queryable,
  documentId: number,
  afterPosition: number,
  limit: number,
) {
  return segments.confirmedSegmentsPage(db, documentId, afterPosition, limit);
}

/** The statuses and users of these segments' versions, oldest first per segment. */
export function versionTrails(db: Queryable, segmentIds: readonly number[]) {
  return segments.versionTrails(db, segmentIds);
}
