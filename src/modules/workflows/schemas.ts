// TypeBox schemas of the workflow: Lilt's templates, document assignment and done endpoints, review unlock, and
// the segment locks (extension).
import { Type } from 'typebox';

export const WorkflowStageTemplate = Type.Object({
  name: Type.String(),
  /** translate, review or review2: the `stage` a document in it carries. */
  assignment_type: Type.String(),
});

export const WorkflowTemplate = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The organization (Lilt's team) the template is offered to. */
  team_id: Type.Integer(),
  stages: Type.Array(WorkflowStageTemplate),
});

/** Lilt's DocumentAssignmentParameters (PUT /v2/documents/share). */
export const AssignDocumentBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  /** The user's e-mail address (their username works too). */
  email: Type.String({ minLength: 1, maxLength: 320 }),
  is_translator: Type.Optional(Type.Boolean()),
  is_reviewer: Type.Optional(Type.Boolean()),
  /** Assign (or unassign) the second review of a three-stage workflow (extension). */
  is_second_reviewer: Type.Optional(Type.Boolean()),
  /** An ISO 8601 date and time, or Unix seconds. */
  due_date: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Integer({ minimum: 0 })])),
});

export const AssignDocumentAnswer = Type.Object({ id: Type.Integer() });

const DocumentIds = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 });

/** Lilt's DocumentDoneUpdateParameters (POST /v2/documents/done/translation and /review). */
export const DoneBody = Type.Object({
  documentIds: DocumentIds,
  /** true hands the documents on (checked); false sends them back to the stage before. */
  isDone: Type.Optional(Type.Boolean()),
});

/** POST /v2/documents/done/unlock. */
export const UnlockDocumentsBody = Type.Object({ documentIds: DocumentIds });

/** POST /v2/segments/review/unlock. */
export const ReviewUnlockBody = Type.Object({
  segmentIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 10000 }),
});

/** The ids changed, as Lilt answers the done and unlock endpoints. */
export const ChangedIds = Type.Array(Type.Integer());

/** POST /v2/segments/lock (extension): lock or unlock segments of a document. */
export const LockSegmentsBody = Type.Object({
  document_id: Type.Integer({ minimum: 1 }),
  /** The segments; none named: those matching at least min_score, or every segment of the document. */
  segment_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 10000 })),
  /** Lock the segments whose match score is at least this (101: context matches). */
  min_score: Type.Optional(Type.Integer({ minimum: 0, maximum: 101 })),
  /** false unlocks (default true). */
  locked: Type.Optional(Type.Boolean()),
});

export const LockSegmentsAnswer = Type.Object({
  document_id: Type.Integer(),
  locked: Type.Boolean(),
  /** The segments whose lock changed, in document order. */
  segment_ids: Type.Array(Type.Integer()),
});
