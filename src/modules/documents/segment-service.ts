// Document segments: the editor's pages, find and replace with its undo, and the one-segment reads and
// writes that /v2/segments makes (the segments module), each inside the caller's checks.
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db, Queryable, Transaction } from '../../store/db.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import type { EntryContext } from '../memories/entry-identity.ts';
import type { SegmentInContext } from '../memories/service.ts';
import { isImporting, isPretranslating, SEGMENT_STATUSES, type SegmentStatus } from './document-states.ts';
import { compileReplacer, replaceAll } from './find-replace.ts';
import * as repo from './repository.ts';
import { contextKey } from './segment-plan.ts';
import * as segments from './segment-repository.ts';
import { type DocumentDeps, publicSegment, requireDocument, retryAfter } from './service.ts';

export type { DocumentSegmentRow } from './segment-repository.ts';

/** GET /v2/documents/segments: a page of the segments matching a filter, the total, and counts by status. */
export async function segmentsPage(
  db: Db,
  principal: Principal,
  query: { id: number; offset?: number; limit?: number; status?: string; q?: string },
) {
  const doc = await requireDocument(db, principal, query.id);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 100;
  const filter = {
    statuses: query.status?.split(',') as SegmentStatus[] | undefined,
    text: query.q?.trim() || undefined,
  };
  const { total, rows } = await segments.filteredSegments(db, doc.id, filter, { offset, limit });
  const byStatus = await segments.statusCounts(db, doc.id);
  const counts = Object.fromEntries(
    Object.values(SEGMENT_STATUSES).map((status) => [status, byStatus.get(status) ?? 0]),
  ) as Record<SegmentStatus, number>;
  return { total, offset, limit, counts, segments: rows.map((row) => publicSegment(row, doc)) };
}

/** Longest target a replace may write (as PUT /v2/segments allows). */
const MAX_TARGET_LENGTH = 20_000;

export interface ReplaceInput {
  id: number;
  find: string;
  replace: string;
  regex?: boolean;
  case_sensitive?: boolean;
  field?: 'source' | 'target';
  statuses?: string[];
  dry_run?: boolean;
}

/** Refuses a change to the document's segments while an import or a pre-translation may overwrite them. */
async function requireEditable(db: Queryable, doc: repo.DocumentRow) {
  if (isImporting(doc) || isPretranslating(doc)) {
    const what = isImporting(doc) ? 'imported' : 'pre-translated';
    throw errors.documentBusy(
      `Document ${doc.id} is being ${what}; retry when it is done`,
      await retryAfter(db, doc),
    );
  }
}

/** Tells the document's subscribers which segments changed (a bulk change makes them reload). */
async function publishSegments(
  deps: Pick<DocumentDeps, 'events'>,
  principal: Principal,
  doc: repo.DocumentRow,
  rows: readonly { id: number; target: string | null; status: string; updated_at: number }[],
) {
  await deps.events.segmentsChanged(
    { organization_id: principal.organizationId, project_id: doc.project_id, document_id: doc.id },
    rows.map((row) => ({
      document_id: doc.id,
      segment_id: row.id,
      target: row.target,
      status: row.status,
      updated_at: row.updated_at,
      user: principal.username,
    })),
  );
}

/**
 * POST /v2/documents/replace: every match in the text runs of the chosen field (tags are never touched), in
 * segments of the chosen statuses. A dry run lists the changes; otherwise they are applied in one transaction
 * as one batch, which POST /v2/documents/replace/undo can take back. Sources are the original file's text:
 * searching them is allowed as a dry run (a preview of where the text occurs), replacing in them is refused.
 * Statuses are kept: a confirmed segment stays confirmed (its pair is written to the memory when it is next
 * confirmed).
 */
export async function replaceInDocument(deps: DocumentDeps, principal: Principal, input: ReplaceInput) {
  const { db } = deps;
  const doc = await requireDocument(db, principal, input.id);
  const field = input.field ?? 'target';
  const dryRun = input.dry_run ?? false;
  if (field === 'source' && !dryRun) {
    throw errors.badParameter(
      'Parameter "field": sources come from the original file and cannot be replaced; use dry_run to search them',
    );
  }
  const spec = {
    find: input.find,
    replace: input.replace,
    regex: input.regex ?? false,
    caseSensitive: input.case_sensitive ?? false,
  };
  // A bad expression is refused before the document is read.
  compileReplacer(spec);
  const statuses = input.statuses?.length ? new Set(input.statuses) : null;
  const found: { segmentId: number; position: number; before: string; version: number }[] = [];
  for await (const rows of segments.segmentPages(db, doc.id)) {
    for (const row of rows) {
      if (statuses && !statuses.has(row.status)) continue;
      const before = field === 'source' ? row.source : row.target;
      if (before) found.push({ segmentId: row.id, position: row.position, before, version: row.version });
    }
  }
  const afters = await replaceAll(
    spec,
    found.map((f) => f.before),
  );
  // A target replaced into is kept without edge whitespace, as every target is (the skeleton holds it).
  const changes = found.flatMap((f, i) =>
    afters[i] === f.before ? [] : [{ ...f, after: withoutEdges(afters[i]) }],
  );
  const answer = (batchId: number | null) => ({
    batch_id: batchId,
    changed: changes.length,
    changes: changes.map((c) => ({
      segment_id: c.segmentId,
      position: c.position,
      before: c.before,
      after: c.after,
    })),
  });
  if (dryRun || changes.length === 0) return answer(null);
  await requireEditable(db, doc);
  for (const change of changes) {
    if (change.after.length > MAX_TARGET_LENGTH) {
      throw errors.badParameter(
        `Parameter "replace": the target of segment ${change.segmentId} would be too long`,
      );
    }
  }
  // Applied only to segments still at the version read above: any changed meanwhile refuses the whole batch.
  const batchId = await db.transaction(async (tx) => {
    const id = await segments.insertReplaceBatch(tx, doc.id, principal.username);
    const applied = await segments.applyReplaceBatch(tx, id, changes, principal.username);
    if (applied !== changes.length) {
      throw errors.batchConflict(`Segments of document ${doc.id} changed while replacing; retry`);
    }
    return id;
  });
  await publishSegments(deps, principal, doc, await segments.batchSegments(db, batchId));
  return answer(batchId);
}

/** POST /v2/documents/replace/undo: the batch's segments back as they were, unless changed since (409). */
export async function undoReplace(
  deps: DocumentDeps,
  principal: Principal,
  input: { id: number; batch_id: number },
) {
  const { db } = deps;
  const doc = await requireDocument(db, principal, input.id);
  await requireEditable(db, doc);
  const restored = await db.transaction(async (tx) => {
    const batch = await segments.findReplaceBatch(tx, input.batch_id, doc.id);
    if (!batch) throw errors.notFound('Replace batch', input.batch_id);
    if (batch.undone_at !== null) throw errors.batchConflict(`Replace batch ${batch.id} was already undone`);
    const { total, changed } = await segments.changedSinceBatch(tx, batch.id);
    if (changed > 0) {
      throw errors.batchConflict(
        `${changed} ${changed === 1 ? 'segment' : 'segments'} of replace batch ${batch.id} changed since; undo them one by one`,
      );
    }
    const restored = await segments.undoReplaceBatch(tx, batch.id, principal.username);
    // A segment changed between the check and the update (another instance): all or nothing.
    if (restored !== total)
      throw errors.batchConflict(`Segments of replace batch ${batch.id} changed; retry`);
    return restored;
  });
  await publishSegments(deps, principal, doc, await segments.batchSegments(db, input.batch_id));
  return { batch_id: input.batch_id, restored };
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
