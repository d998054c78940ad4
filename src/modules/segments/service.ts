// Segments: one id space for document segments and memory entries. Each operation finds which one an id
// is and does it: document segments are edited and confirmed here, through the documents module that stores
// them (confirming writes the pair into the project's memory, with the segment's context, and fills the
// project's unconfirmed repetitions), memory entries by the memories module. Sources and targets are kept without edge whitespace: a document's is its skeleton's.
import type { Static } from 'typebox';
import { errors } from '../../errors.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { isLinguist, type Principal } from '../../http/principal.ts';
import type { Queryable, Transaction } from '../../store/db.ts';
import { checkTerms } from '../../terminology/term-qa.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import { checkSegment } from '../../text/qa/qa-checks.ts';
import { addComment, publicComment, publishComments } from '../comments/service.ts';
import { glossaryOfDocument } from '../documents/document-glossary.ts';
import { SEGMENT_STATUSES, segmentStatus } from '../documents/document-states.ts';
import * as documentSegments from '../documents/segment-service.ts';
import { requireDocument } from '../documents/service.ts';
import * as entries from '../memories/entry-service.ts';
import { MAX_TEXT_LENGTH, type MemoryDeps, requireTagsOfSource, requireText } from '../memories/service.ts';
import { notify } from '../notifications/service.ts';
import { memoryOfProject, propagatesRepetitions } from '../projects/service.ts';
import { principalsNamed } from '../users/service.ts';
import type {
  AddSegmentBody,
  JoinBody,
  RejectBody,
  RestoreBody,
  SplitBody,
  UpdateSegmentBody,
} from './schemas.ts';

export interface SegmentDeps extends MemoryDeps {
  events: EventBus;
}

/** Where a change came from, as history records it. */
export type ChangeOrigin =
  | 'edit'
  | 'confirm'
  | 'replace'
  | 'restore'
  | 'pretranslate'
  /** Pre-translation's machine translation (modes mt and tm+mt). */
  | 'mt'
  | 'import'
  /** Filled from a confirmed repetition (a version of each segment a confirmation filled). */
  | 'propagated'
  | 'join'
  | 'split'
  /** Sent back to the translator with a comment (POST /v2/segments/reject). */
  | 'reject';

/** POST /v2/segments: an entry into a memory, or (with document_id) a segment at a document's end. */
export async function addSegment(
  deps: MemoryDeps,
  principal: Principal,
  input: Static<typeof AddSegmentBody>,
) {
  const { memory_id: memoryId, document_id: documentId, source, target } = input;
  if (documentId !== undefined) return appendToDocument(deps, principal, documentId, { source, target });
  if (memoryId === undefined) throw errors.missingParameter('memory_id');
  // A memory's entries are changed by managers; a translator's reach the memory by confirming segments.
  if (isLinguist(principal))
    throw errors.forbidden('Adding to a memory directly needs the project_manager role');
  return entries.addEntry(deps, principal, { memory_id: memoryId, source, target });
}

async function appendToDocument(
  deps: MemoryDeps,
  principal: Principal,
  documentId: number,
  input: { source?: string; target?: string },
) {
  const { db } = deps;
  await documentSegments.requireStageOf(db, principal, await requireDocument(db, principal, documentId));
  const source = withoutEdges(requireText('source', input.source));
  const target = input.target === undefined ? null : withoutEdges(input.target);
  requireTagsOfSource(source, target);
  const id = await documentSegments.appendSegment(db, documentId, {
    source,
    target,
    status: segmentStatus({ target, confirmed: false, reviewed: false }),
  });
  return documentSegments.markedSegment(
    db,
    (await documentSegments.findSegment(db, id, principal.organizationId))!,
  );
}

export async function getSegment(deps: MemoryDeps, principal: Principal, id: number) {
  const row = await documentSegments.findSegmentFor(deps.db, principal, id);
  if (row) return documentSegments.markedSegment(deps.db, row);
  if (isLinguist(principal)) throw errors.notFound('Segment', id);
  const entry = await entries.findEntry(deps, principal, id);
  if (!entry) throw errors.notFound('Segment', id);
  return entry;
}

/** PUT /v2/segments. A new target un-confirms a document segment unless is_confirmed is sent with it. */
export async function updateSegment(
  deps: SegmentDeps,
  principal: Principal,
  input: Static<typeof UpdateSegmentBody>,
) {
  const { db } = deps;
  const current = await documentSegments.findSegmentFor(db, principal, input.id);
  // An id that is no document segment of theirs is, for a translator or reviewer, nothing they may change.
  if (!current && isLinguist(principal)) throw errors.notFound('Segment', input.id);
  if (!current) return entries.updateEntry(deps, principal, input);
  await documentSegments.requireSegmentWritable(db, principal, current);
  // Signing a segment off is a reviewer's (or a manager's): a translator never marks their own work reviewed.
  if (input.is_reviewed === true && principal.role === 'translator') {
    throw errors.forbidden('Parameter "is_reviewed": marking a segment reviewed needs the reviewer role');
  }
  // The edge whitespace of a document segment is its source's, in the skeleton: a target never holds any.
  const target = input.target === undefined ? current.target : withoutEdges(input.target);
  if (target !== null && target.length > MAX_TEXT_LENGTH * 4) {
    throw errors.badParameter('Parameter "target" is too long');
  }
  // Reviewed implies confirmed (Lilt's meaning: reviewed words are among the confirmed ones), so a review sent
  // alone confirms too. A target other than the segment's withdraws a review unless is_reviewed comes with it:
  // the reviewer signed off a text, not whatever replaced it.
  const confirmed =
    input.is_confirmed ??
    (input.is_reviewed === true ? true : input.target !== undefined ? false : current.is_confirmed === 1);
  const reviewed =
    input.is_reviewed ?? (target !== current.target ? false : current.is_reviewed === 1 && confirmed);
  if (confirmed && (target === null || target.trim() === '')) {
    throw errors.badParameter('Parameter "target" is required to confirm a segment');
  }
  if (reviewed && (target === null || target.trim() === '')) {
    throw errors.badParameter('Parameter "target" is required to review a segment');
  }
  if (input.target !== undefined) requireTagsOfSource(current.source, target);
  const status = segmentStatus({ target, confirmed, reviewed });
  const origin: ChangeOrigin =
    (status === SEGMENT_STATUSES.confirmed || status === SEGMENT_STATUSES.reviewed) &&
    status !== current.status
      ? 'confirm'
      : 'edit';
  return changeSegment(deps, principal, current, {
    target,
    confirmed,
    reviewed,
    // A segment keeps the score of the match it came from until its target is edited.
    keepScore: input.target === undefined,
    origin,
    expectedUpdatedAt: input.expected_updated_at,
  });
}

/**
 * Writes a change of a document segment in one transaction: the segment (refused with SEGMENT_CONFLICT when
 * it is no longer at expectedUpdatedAt), its new version when target or status changed, and the pair into the
 * project's memory when it is confirmed. Then tells the document's subscribers.
 */
async function changeSegment(
  deps: SegmentDeps,
  principal: Principal,
  current: documentSegments.DocumentSegmentRow,
  change: {
    target: string | null;
    confirmed: boolean;
    reviewed: boolean;
    keepScore: boolean;
    origin: ChangeOrigin;
    expectedUpdatedAt?: number;
    /** More to write in the change's transaction, once the segment is changed. */
    within?: (tx: Transaction) => Promise<void>;
  },
) {
  const { db } = deps;
  const { target, confirmed, reviewed } = change;
  const status = segmentStatus({ target, confirmed, reviewed });
  const newVersion = target !== current.target || status !== current.status;
  // "Confirm anyway" leaves a trace: the errors the editor showed, as the same checks find them here. An API
  // client is never refused for them.
  // A forbidden term of the project memory's termbase is such an error too (term QA, as the editor checks it).
  const qaErrors =
    newVersion && (confirmed || reviewed)
      ? [
          ...checkSegment(current.source, target, {
            srcLang: current.srclang,
            trgLang: current.trglang,
            status,
          }),
          ...(await termIssues(db, principal.organizationId, current, target)),
        ]
          .filter((issue) => issue.severity === 'error')
          .map((issue) => issue.message)
      : [];
  // A confirmation fills the project's unconfirmed repetitions (unless the project says not to); withdrawing
  // it (unconfirm, an edit, a restore) puts back those it filled that nobody changed since.
  const confirming = (confirmed || reviewed) && target !== null && newVersion;
  const withdrawing = current.is_confirmed === 1 && !confirmed && !reviewed;
  const propagate = confirming && (await propagatesRepetitions(db, current.project_id));
  if (propagate) await documentSegments.ensureRepetitionKeys(db, current.project_id);
  let propagated: documentSegments.PropagatedRow[] = [];
  await documentSegments.untilNextSecond(current.updated_at);
  const applied = await db.transaction(async (tx) => {
    const done = await documentSegments.writeSegmentChange(
      tx,
      current.id,
      {
        target,
        confirmed,
        reviewed,
        status,
        keepScore: change.keepScore,
        newVersion,
        origin: change.origin,
        username: principal.username,
        qaErrors,
      },
      change.expectedUpdatedAt,
    );
    if (!done) return false;
    await change.within?.(tx);
    if (confirmed && target) {
      const memoryId = await memoryOfProject(tx, current.project_id);
      if (memoryId === undefined) throw errors.notFound('Project', current.project_id);
      await entries.recordConfirmedPair(tx, memoryId, {
        source: current.source,
        target,
        context: await documentSegments.contextOfSegment(tx, current),
        username: principal.username,
      });
    }
    if (propagate && target !== null) {
      propagated = await documentSegments.propagateConfirmation(
        tx,
        { ...current, version: current.version + 1 },
        target,
        principal.username,
      );
    } else if (withdrawing) {
      propagated = await documentSegments.undoPropagation(tx, current.id, principal.username);
    }
    return true;
  });
  const row = await documentSegments.findSegment(db, current.id, principal.organizationId);
  if (!row) throw errors.notFound('Segment', current.id);
  const answer = await documentSegments.markedSegment(db, row);
  if (!applied) throw errors.segmentConflict(current.id, answer);
  if (newVersion) await publishChanges(deps, principal, current.project_id, [row, ...propagated]);
  return answer;
}

/** The term QA issues of a segment's target, against the termbase of its project's memory. */
async function termIssues(
  db: Queryable,
  organizationId: number,
  current: documentSegments.DocumentSegmentRow,
  target: string | null,
) {
  if (target === null) return [];
  const glossary = await glossaryOfDocument(
    db,
    {
      organization_id: organizationId,
      project_id: current.project_id,
      srclang: current.srclang,
      trglang: current.trglang,
    },
    memoryOfProject,
  );
  return glossary ? checkTerms(glossary, current.source, target) : [];
}

/** Tells each document's subscribers of its segments among these (the first may be the one edited). */
async function publishChanges(
  deps: SegmentDeps,
  principal: Principal,
  projectId: number,
  rows: readonly documentSegments.PropagatedRow[],
) {
  const byDocument = new Map<number, documentSegments.PropagatedRow[]>();
  for (const row of rows) {
    const documentId = Number(row.document_id);
    const list = byDocument.get(documentId);
    if (list) list.push(row);
    else byDocument.set(documentId, [row]);
  }
  for (const [documentId, changed] of byDocument) {
    await deps.events.segmentsChanged(
      { organization_id: principal.organizationId, project_id: projectId, document_id: documentId },
      changed.map((r) => ({
        document_id: documentId,
        segment_id: Number(r.id),
        target: r.target,
        status: r.status,
        updated_at: Number(r.updated_at),
        user: principal.username,
      })),
    );
  }
}

/**
 * GET /v2/segments/history: the versions of a document segment, newest first, each with the QA errors its
 * target was confirmed with (none for a version that confirmed nothing).
 */
export async function segmentHistory(deps: Pick<MemoryDeps, 'db'>, principal: Principal, id: number) {
  const segment = await documentSegments.findSegmentFor(deps.db, principal, id);
  if (!segment) throw errors.notFound('Segment', id);
  const versions = await documentSegments.segmentVersions(deps.db, id);
  return {
    segment_id: id,
    versions: versions.map((v) => ({
      version: v.version,
      target: v.target,
      status: v.status,
      user: v.username,
      created_at: v.created_at,
      origin: v.origin,
      qa_errors: v.qa_errors ? (JSON.parse(v.qa_errors) as string[]) : [],
    })),
  };
}

/**
 * POST /v2/segments/restore: the target of an earlier version becomes the segment's, unconfirmed (a
 * restored text is confirmed again by the translator, which writes it to the memory).
 */
export async function restoreVersion(
  deps: SegmentDeps,
  principal: Principal,
  input: Static<typeof RestoreBody>,
) {
  const current = await documentSegments.findSegmentFor(deps.db, principal, input.id);
  if (!current) throw errors.notFound('Segment', input.id);
  await documentSegments.requireSegmentWritable(deps.db, principal, current);
  const version = await documentSegments.findVersion(deps.db, input.id, input.version);
  if (!version) throw errors.notFound(`Version ${input.version} of segment`, input.id);
  return changeSegment(deps, principal, current, {
    target: version.target === null ? null : withoutEdges(version.target),
    confirmed: false,
    reviewed: false,
    keepScore: false,
    origin: 'restore',
    expectedUpdatedAt: input.expected_updated_at,
  });
}

/**
 * POST /v2/segments/reject: sends a document segment back to its translator — unconfirmed and unreviewed,
 * its target kept — with a comment saying why, in one transaction; the user who last confirmed it is
 * notified (unless that is the caller). Answers the segment and the comment.
 */
export async function rejectSegment(
  deps: SegmentDeps,
  principal: Principal,
  input: Static<typeof RejectBody>,
) {
  const { db } = deps;
  const current = await documentSegments.findSegment(db, input.id, principal.organizationId);
  if (!current) throw errors.notFound('Segment', input.id);
  const doc = await requireDocument(db, principal, Number(current.document_id));
  // Sending back changes the segment: refused, as an edit is, outside the caller's stage or on a locked segment.
  await documentSegments.requireSegmentWritable(db, principal, current);
  if (!input.text?.trim()) throw errors.missingParameter('text');
  const translator = await lastConfirmedBy(deps, principal, current.id);
  let added: Awaited<ReturnType<typeof addComment>> | undefined;
  const segment = await changeSegment(deps, principal, current, {
    target: current.target,
    confirmed: false,
    reviewed: false,
    keepScore: true,
    origin: 'reject',
    expectedUpdatedAt: input.expected_updated_at,
    within: async (tx) => {
      added = await addComment(tx, principal, doc, {
        documentId: doc.id,
        segmentId: current.id,
        text: input.text,
      });
      if (translator) {
        const number = Number(current.position) + 1;
        await notify(tx, {
          organizationId: principal.organizationId,
          userId: translator.userId,
          kind: 'rejected',
          text: `${principal.username} sent back segment ${number} of ${doc.name}: ${input.text!.trim()}`,
          link: `/documents/${doc.id}?seg=${number}`,
          actor: principal.username,
        });
      }
    },
  });
  await publishComments(deps, principal, doc, [added!.event]);
  return { segment, comment: publicComment(added!.row, false) };
}

/** The user who last confirmed or reviewed a segment, when it is someone other than the caller. */
async function lastConfirmedBy(deps: SegmentDeps, principal: Principal, segmentId: number) {
  const versions = await documentSegments.segmentVersions(deps.db, segmentId);
  const confirming = versions
    .filter((v) => v.status === SEGMENT_STATUSES.confirmed || v.status === SEGMENT_STATUSES.reviewed)
    .sort((a, b) => b.version - a.version)
    .find(
      (v) =>
        v.username !== null && v.origin !== 'propagated' && v.origin !== 'pretranslate' && v.origin !== 'mt',
    );
  if (!confirming?.username || confirming.username === principal.username) return undefined;
  const [user] = await principalsNamed(deps.db, principal.organizationId, [confirming.username]);
  return user;
}

export async function deleteSegment(deps: MemoryDeps, principal: Principal, id: number) {
  const row = await documentSegments.findSegmentFor(deps.db, principal, id);
  if (row) await documentSegments.deleteSegment(deps.db, row);
  else await entries.deleteEntry(deps, principal, id);
  return { id, deleted: true };
}

/**
 * The answer of a join or a split, after telling the document's viewers: its positions moved, so they read
 * its segments again (a "reload" event).
 */
async function reshaped(deps: SegmentDeps, principal: Principal, result: documentSegments.Reshaped) {
  await deps.events.reload({
    organization_id: principal.organizationId,
    project_id: result.doc.project_id,
    document_id: result.doc.id,
  });
  return {
    segments: await documentSegments.markedSegments(deps.db, result.doc, result.segments),
    ...(result.removed === undefined ? {} : { removed: result.removed }),
  };
}

/** POST /v2/segments/join: a document segment joined with the next one of its paragraph or entry. */
export async function joinSegments(deps: SegmentDeps, principal: Principal, input: Static<typeof JoinBody>) {
  return reshaped(
    deps,
    principal,
    await documentSegments.joinWithNext(deps.db, principal, input.id, input.expected_updated_at),
  );
}

/** POST /v2/segments/split: a document segment cut in two at a source offset (and a target offset). */
export async function splitSegment(deps: SegmentDeps, principal: Principal, input: Static<typeof SplitBody>) {
  return reshaped(
    deps,
    principal,
    await documentSegments.splitAt(deps.db, principal, {
      id: input.id,
      offset: input.offset,
      targetOffset: input.target_offset,
      expectedUpdatedAt: input.expected_updated_at,
    }),
  );
}
