// The workflow of documents: the templates a project chooses from, who is assigned to each stage of a document,
// and the hand-offs — done (checked: every segment confirmed, no QA error), send back, a manager's unlock —
// each told on the event bus (`stage` and `assignment` events). The tables are the documents module's
// (documents/assignments.ts); this module decides what may happen and in which order.
import type { Static } from 'typebox';
import { errors } from '../../errors.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { StageEvent } from '../../events/live-events.ts';
import { isLinguist, type Principal } from '../../http/principal.ts';
import type { Db } from '../../store/db.ts';
import {
  documentAccess,
  lockSegments,
  moveStage,
  requireStageOf,
  STAGES,
  type Stage,
  setAssignment,
  unreviewSegments,
  type WorkStage,
} from '../documents/assignments.ts';
import { getDocument, qaReport } from '../documents/service.ts';
import { notify } from '../notifications/service.ts';
import { memoryOfProject, templateOfProject } from '../projects/service.ts';
import { WORKFLOW_TEMPLATES, type WorkflowTemplate } from '../projects/workflow-templates.ts';
import { findUserByEmailOrName } from '../users/service.ts';
import type { AssignDocumentBody, LockSegmentsBody } from './schemas.ts';

export interface WorkflowDeps {
  db: Db;
  events: EventBus;
}

const STAGE_NAMES: Record<WorkStage, string> = {
  translate: 'Translation',
  review: 'Review',
  review2: 'Second review',
};

/** GET /v2/workflows/templates: Lilt's WorkflowTemplate list, the same for every organization. */
export function listTemplates(principal: Principal) {
  return WORKFLOW_TEMPLATES.map((t) => ({
    id: t.id,
    name: t.name,
    team_id: principal.organizationId,
    stages: t.stages.map((s) => ({ name: STAGE_NAMES[s], assignment_type: s })),
  }));
}

/** An ISO date or Unix seconds as Unix seconds; a date that does not read is refused, naming the parameter. */
function dueSeconds(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  if (typeof value === 'number') return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw errors.badParameter('Parameter "due_date" must be an ISO 8601 date or Unix seconds');
  return Math.floor(ms / 1000);
}

/**
 * PUT /v2/documents/share: assigns (true) or unassigns (false) the user named by e-mail to the translation,
 * review or second review of a document. A stage the project's template does not have is refused.
 */
export async function assignDocument(
  deps: WorkflowDeps,
  principal: Principal,
  input: Static<typeof AssignDocumentBody>,
) {
  const { db } = deps;
  const doc = await documentAccess(db, principal, input.id);
  const user = await findUserByEmailOrName(db, principal.organizationId, input.email);
  if (!user)
    throw errors.badParameter(`Parameter "email": no user of your organization has "${input.email}"`);
  const changes: [WorkStage, boolean | undefined][] = [
    [STAGES.translate, input.is_translator],
    [STAGES.review, input.is_reviewer],
    [STAGES.review2, input.is_second_reviewer],
  ];
  if (changes.every(([, v]) => v === undefined)) {
    throw errors.missingParameter('is_translator');
  }
  const template = await templateOfProject(db, doc.project_id);
  const dueAt = dueSeconds(input.due_date);
  for (const [stage, assigned] of changes) {
    if (assigned === undefined) continue;
    if (assigned && !template.stages.includes(stage)) {
      throw errors.badParameter(
        `The project's workflow "${template.name}" has no ${STAGE_NAMES[stage].toLowerCase()} stage to assign`,
      );
    }
  }
  for (const [stage, assigned] of changes) {
    if (assigned === undefined) continue;
    await setAssignment(db, doc, { stage, userId: user.id, assigned, dueAt });
    // The bell tells the person assigned (not one who assigns themself).
    if (assigned && user.id !== principal.userId) {
      await notify(db, {
        organizationId: doc.organization_id,
        userId: user.id,
        kind: 'assigned',
        text: `${principal.username} assigned you the ${STAGE_NAMES[stage].toLowerCase()} of ${doc.name}`,
        link: `/documents/${doc.id}`,
        actor: principal.username,
      });
    }
    await deps.events.workflowChanged(scopeOf(doc), {
      assignment: {
        document_id: doc.id,
        project_id: doc.project_id,
        stage,
        user_id: user.id,
        username: user.username,
        assigned,
        by: principal.username,
      },
    });
  }
  return { id: doc.id };
}

function scopeOf(doc: { organization_id: number; project_id: number; id: number }) {
  return { organization_id: doc.organization_id, project_id: doc.project_id, document_id: doc.id };
}

/** The stage after this one in the template, or done. */
function nextStage(template: WorkflowTemplate, stage: Stage): Stage {
  const i = template.stages.indexOf(stage as WorkStage);
  // A stage the template no longer has (the project's template changed meanwhile) leads to done.
  if (i < 0) return STAGES.done;
  return template.stages[i + 1] ?? STAGES.done;
}

/** The stage before this one in the template (done's is the last). */
function previousStage(template: WorkflowTemplate, stage: Stage): WorkStage | undefined {
  if (stage === STAGES.done) return template.stages.at(-1);
  const i = template.stages.indexOf(stage as WorkStage);
  return i > 0 ? template.stages[i - 1] : undefined;
}

/** What stops a document from leaving its stage: unconfirmed segments and QA errors (none: ready). */
async function handOffProblems(db: Db, principal: Principal, id: number) {
  const doc = await getDocument(db, principal, id, false);
  const unconfirmed = doc.num_segments - doc.num_confirmed;
  const qa = await qaReport(db, principal, id, memoryOfProject);
  const problems: string[] = [];
  if (unconfirmed > 0) problems.push(`${unconfirmed} unconfirmed segment${unconfirmed === 1 ? '' : 's'}`);
  if (qa.counts.error > 0) problems.push(`${qa.counts.error} QA error${qa.counts.error === 1 ? '' : 's'}`);
  return { problems, unconfirmed, qaErrors: qa.counts.error };
}

type Direction = 'done' | 'sent_back';

/**
 * Moves each document one stage on (done) or back (sent_back) from a stage of the kind given: translation
 * (`translate`) or review (`review`, `review2`). All documents are checked before any moves: one refused
 * refuses the request. A translator or reviewer moves only documents whose current stage is theirs.
 */
async function move(
  deps: WorkflowDeps,
  principal: Principal,
  ids: readonly number[],
  kind: 'translation' | 'review',
  direction: Direction,
) {
  const { db } = deps;
  const plans: { doc: Awaited<ReturnType<typeof documentAccess>>; to: Stage; template: WorkflowTemplate }[] =
    [];
  for (const id of new Set(ids)) {
    const doc = await documentAccess(db, principal, id);
    const template = await templateOfProject(db, doc.project_id);
    const stage = doc.stage as Stage;
    if (direction === 'done') {
      const expected = kind === 'translation' ? [STAGES.translate] : [STAGES.review, STAGES.review2];
      if (!(expected as string[]).includes(stage)) {
        throw errors.conflict(`Document ${id} is in its ${stage} stage, not ${kind}: nothing to mark done`);
      }
      await requireStageOf(db, principal, doc);
      const { problems, unconfirmed, qaErrors } = await handOffProblems(db, principal, id);
      if (problems.length > 0) {
        throw errors.workflowCheckFailed(`${doc.name} cannot be marked done: ${problems.join(' and ')}`, {
          document_id: id,
          unconfirmed_segments: unconfirmed,
          qa_errors: qaErrors,
        });
      }
      plans.push({ doc, to: nextStage(template, stage), template });
    } else {
      // Back to translation (done/translation, isDone false) from the stage after it; back to the first review
      // (done/review, isDone false) from the second review or from done.
      const to = previousStage(template, stage);
      const allowed =
        kind === 'translation' ? to === STAGES.translate : to === STAGES.review || to === STAGES.review2;
      if (!to || !allowed) {
        throw errors.conflict(
          `Document ${id} is in its ${stage} stage: there is no ${kind} to send it back to`,
        );
      }
      // The one sending back is the assignee of the stage it leaves (a reviewer rejecting the translation).
      if (stage !== STAGES.done) await requireStageOf(db, principal, doc);
      else if (isLinguist(principal)) throw errors.notYourStage(id, stage, []);
      plans.push({ doc, to, template });
    }
  }
  const moved: number[] = [];
  for (const { doc, to, template } of plans) {
    const reviewComplete = to === STAGES.done && template.stages.length > 1;
    if (!(await moveStage(db, doc, to, reviewComplete))) {
      throw errors.conflict(`Document ${doc.id} moved meanwhile; read it again`);
    }
    moved.push(doc.id);
    await publishStage(deps, principal, doc, to, direction);
  }
  return moved;
}

async function publishStage(
  deps: WorkflowDeps,
  principal: Principal,
  doc: { id: number; organization_id: number; project_id: number; stage: string },
  to: Stage,
  action: StageEvent['action'],
) {
  const answer = await getDocument(deps.db, principal, doc.id, false).catch(() => undefined);
  const assignee = answer?.assignees?.find((a) => a.stage === to);
  // The bell tells whoever works in the stage the document moved to: it is theirs now.
  if (assignee && assignee.user_id !== principal.userId && to !== STAGES.done) {
    const what =
      action === 'done'
        ? `${principal.username} handed ${answer?.name ?? `document ${doc.id}`} on to you for ${STAGE_NAMES[to as WorkStage].toLowerCase()}`
        : action === 'sent_back'
          ? `${principal.username} sent ${answer?.name ?? `document ${doc.id}`} back to you for ${STAGE_NAMES[to as WorkStage].toLowerCase()}`
          : `${principal.username} reopened ${answer?.name ?? `document ${doc.id}`} for ${STAGE_NAMES[to as WorkStage].toLowerCase()}`;
    await notify(deps.db, {
      organizationId: doc.organization_id,
      userId: assignee.user_id,
      kind: 'stage',
      text: what,
      link: `/documents/${doc.id}`,
      actor: principal.username,
    });
  }
  await deps.events.workflowChanged(scopeOf(doc), {
    stage: {
      document_id: doc.id,
      project_id: doc.project_id,
      from: doc.stage,
      to,
      action,
      user: principal.username,
      assignee_user_id: assignee?.user_id ?? null,
    },
  });
}

/** POST /v2/documents/done/translation: the translation done (isDone true, the default) or sent back (false). */
export function translationDone(deps: WorkflowDeps, principal: Principal, ids: number[], isDone = true) {
  return move(deps, principal, ids, 'translation', isDone ? 'done' : 'sent_back');
}

/** POST /v2/documents/done/review: a review done (isDone true) or the second review sent back (false). */
export function reviewDone(deps: WorkflowDeps, principal: Principal, ids: number[], isDone = true) {
  return move(deps, principal, ids, 'review', isDone ? 'done' : 'sent_back');
}

/** POST /v2/documents/done/unlock: documents back to translation, translation and review not done. */
export async function unlockDocuments(deps: WorkflowDeps, principal: Principal, ids: number[]) {
  const docs = [];
  for (const id of new Set(ids)) docs.push(await documentAccess(deps.db, principal, id));
  for (const doc of docs) {
    if (doc.stage === STAGES.translate && doc.is_review_complete === 0) continue;
    await moveStage(deps.db, doc, STAGES.translate, false);
    await publishStage(deps, principal, doc, STAGES.translate, 'unlocked');
  }
  return docs.map((d) => d.id);
}

/** POST /v2/segments/review/unlock: reviewed segments become confirmed, free for the translator again. */
export async function unlockReviewed(deps: WorkflowDeps, principal: Principal, segmentIds: number[]) {
  return unreviewSegments(deps.db, [...new Set(segmentIds)], principal.organizationId);
}

/** POST /v2/segments/lock: locks (or unlocks) segments of a document, e.g. every context (101 %) match. */
export async function lockDocumentSegments(
  deps: WorkflowDeps,
  principal: Principal,
  input: Static<typeof LockSegmentsBody>,
) {
  const doc = await documentAccess(deps.db, principal, input.document_id);
  const locked = input.locked ?? true;
  const ids = await lockSegments(
    deps.db,
    doc.id,
    { ids: input.segment_ids, minScore: input.min_score },
    locked,
  );
  if (ids.length > 0) await deps.events.reload(scopeOf(doc));
  return { document_id: doc.id, locked, segment_ids: ids };
}
