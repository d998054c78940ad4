// Who may see and change a document: a translator or reviewer only the documents assigned to them (any other is
// answered as missing, like another organization's), and changes only in the stage assigned to them; a
// segment a project manager locked, or one a reviewer signed off before sending the document back, is changed
// by nobody until it is unlocked. documentAccess is the one check every module's document lookup goes through.
import { errors } from '../../errors.ts';
import { isLinguist, type Principal } from '../../http/principal.ts';
import type { Db, Queryable } from '../../store/db.ts';
import * as assignments from './assignment-repository.ts';
import { STAGES, type Stage } from './document-states.ts';
import * as repo from './repository.ts';
import * as segments from './segment-repository.ts';

export { STAGES, type Stage };
/** The stages a person is assigned to (done has nobody). */
export type WorkStage = Exclude<Stage, 'done'>;
export const WORK_STAGES: readonly WorkStage[] = [STAGES.translate, STAGES.review, STAGES.review2];

/** Whether the principal may see the document at all: managers every one of their organization's. */
async function mayAccess(db: Queryable, principal: Principal, documentId: number): Promise<boolean> {
  return !isLinguist(principal) || assignments.isAssigned(db, documentId, principal.userId);
}

/**
 * The document, when the principal may see it: of their organization, visible, and assigned to them when they
 * are a translator or reviewer. Otherwise NOT_FOUND, whatever the reason, so that an id tells nothing.
 */
export async function documentAccess(db: Queryable, principal: Principal, id: number) {
  const doc = await repo.findDocument(db, id, principal.organizationId);
  if (!doc || !(await mayAccess(db, principal, doc.id))) throw errors.notFound('Document', id);
  return doc;
}

/** Whether the principal may see the document (documentAccess without the error). */
export async function canSeeDocument(db: Queryable, principal: Principal, id: number): Promise<boolean> {
  return (await repo.isDocumentOf(db, id, principal.organizationId)) && mayAccess(db, principal, id);
}

/** The ids of the documents a translator or reviewer may see; null for a manager, who sees them all. */
export async function visibleDocumentIds(db: Queryable, principal: Principal): Promise<Set<number> | null> {
  if (!isLinguist(principal)) return null;
  return new Set(await assignments.documentsAssignedTo(db, principal.userId, principal.organizationId));
}

/**
 * Refuses a change of the document by a translator or reviewer outside their stage: a translator edits in the
 * translate stage, a reviewer in the review stage assigned to them. Managers change documents at any stage.
 */
export async function requireStageOf(db: Queryable, principal: Principal, doc: repo.DocumentRow) {
  if (!isLinguist(principal)) return;
  const mine = (await assignments.assignmentsOf(db, [doc.id]))
    .filter((a) => Number(a.user_id) === principal.userId)
    .map((a) => a.stage);
  if (!mine.includes(doc.stage)) {
    throw errors.notYourStage(doc.id, doc.stage, mine);
  }
}

/**
 * Refuses a change of a segment nobody may change now: one a project manager locked, and — while the document
 * is back in translation — one a reviewer signed off (Lilt's review lock; POST /v2/segments/review/unlock frees it).
 */
export function requireSegmentUnlocked(
  principal: Principal,
  doc: { stage: string },
  segment: { id: number; locked: number; is_reviewed: number },
) {
  if (segment.locked === 1) throw errors.segmentLocked(segment.id, 'a project manager locked it');
  if (isLinguist(principal) && doc.stage === STAGES.translate && segment.is_reviewed === 1) {
    throw errors.segmentLocked(segment.id, 'it was signed off in review; a project manager can unlock it');
  }
}

/** Everything a change of one segment of a document needs to be allowed (documentAccess done). */
export async function requireSegmentWritable(
  db: Queryable,
  principal: Principal,
  segment: { id: number; document_id: number; locked: number; is_reviewed: number },
) {
  const doc = await documentAccess(db, principal, Number(segment.document_id));
  await requireStageOf(db, principal, doc);
  requireSegmentUnlocked(principal, doc, segment);
  return doc;
}

// ---- Changes of the workflow, which the workflows module (/v2/documents/share, /done/…, locks) makes.

/** Assigns (or, with assigned false, unassigns) a stage of a document to a user. */
export async function setAssignment(
  db: Db,
  doc: repo.DocumentRow,
  change: { stage: WorkStage; userId: number; assigned: boolean; dueAt: number | null },
) {
  if (change.assigned) {
    await db.transaction(async (tx) =>
      assignments.assign(tx, {
        documentId: doc.id,
        stage: change.stage,
        organizationId: doc.organization_id,
        userId: change.userId,
        dueAt: change.dueAt,
      }),
    );
  } else {
    await assignments.unassign(db, doc.id, change.stage, change.userId);
  }
}

/** Moves the document from one stage to another unless someone moved it first (answers whether it moved). */
export function moveStage(db: Queryable, doc: repo.DocumentRow, to: Stage, reviewComplete: boolean) {
  return repo.moveStage(db, doc.id, { from: doc.stage, to, reviewComplete });
}

/** Locks or unlocks segments of a document (the listed ones, or those matching at least minScore, or all). */
export function lockSegments(
  db: Queryable,
  documentId: number,
  select: { ids?: readonly number[]; minScore?: number },
  locked: boolean,
) {
  return segments.setLocked(db, documentId, select, locked);
}

/** Lilt's review unlock: reviewed segments of the organization's documents become confirmed again. */
export function unreviewSegments(db: Queryable, ids: readonly number[], organizationId: number) {
  return segments.unreview(db, ids, organizationId);
}
