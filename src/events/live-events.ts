// What GET /v2/events sends (extension): the data of its `segment`, `task`, `document`, `comment` and
// `notification` Server-Sent Events.
// The bus carries segment events between processes; the events module adds task and document events; the web
// application takes its types from here.
import { type Static, Type } from 'typebox';

/** A document segment's target or status changed (`segment`). */
export const SegmentEvent = Type.Object({
  document_id: Type.Integer(),
  segment_id: Type.Integer(),
  /** The target in full, however long (null: the segment has none). */
  target: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  updated_at: Type.Integer(),
  user: Type.Union([Type.String(), Type.Null()]),
});
export type SegmentEvent = Static<typeof SegmentEvent>;

/** A document's import, pre-translation or export moved (`task`); an export has no task id and no progress. */
export const TaskEvent = Type.Object({
  document_id: Type.Integer(),
  project_id: Type.Integer(),
  task_id: Type.Union([Type.Integer(), Type.Null()]),
  kind: Type.String(),
  state: Type.String(),
  progress: Type.Union([Type.Object({ done: Type.Integer(), total: Type.Integer() }), Type.Null()]),
});
export type TaskEvent = Static<typeof TaskEvent>;

/** A document's confirmed count (`document`). */
export const DocumentEvent = Type.Object({
  document_id: Type.Integer(),
  project_id: Type.Integer(),
  confirmed: Type.Integer(),
  total: Type.Integer(),
  /** Many segments changed at once (a replace, a pre-translation): read them again. */
  reload: Type.Optional(Type.Boolean()),
});
export type DocumentEvent = Static<typeof DocumentEvent>;

/** A comment of the document was written, changed (edited, resolved) or deleted (`comment`): read them again. */
export const CommentEvent = Type.Object({
  document_id: Type.Integer(),
  /** null: a comment on the whole document. */
  segment_id: Type.Union([Type.Integer(), Type.Null()]),
  comment_id: Type.Integer(),
  action: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('deleted')]),
  user: Type.String(),
});
export type CommentEvent = Static<typeof CommentEvent>;

/** A notification for the stream's user (`notification`, with `?notifications=true`), and their unread count. */
export const NotificationEvent = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  text: Type.String(),
  link: Type.Union([Type.String(), Type.Null()]),
  actor: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.Integer(),
  unread: Type.Integer(),
});
export type NotificationEvent = Static<typeof NotificationEvent>;

/**
 * A document moved through its workflow (`stage`): handed on with done, sent back, or unlocked by a project
 * manager. `assignee_user_id` is whom it concerns now (the assignee of the new stage; null at done or unassigned).
 */
export const StageEvent = Type.Object({
  document_id: Type.Integer(),
  project_id: Type.Integer(),
  from: Type.String(),
  to: Type.String(),
  action: Type.Union([Type.Literal('done'), Type.Literal('sent_back'), Type.Literal('unlocked')]),
  user: Type.String(),
  assignee_user_id: Type.Union([Type.Integer(), Type.Null()]),
});
export type StageEvent = Static<typeof StageEvent>;

/** Someone was assigned to a stage of a document, or unassigned (`assignment`). */
export const AssignmentEvent = Type.Object({
  document_id: Type.Integer(),
  project_id: Type.Integer(),
  stage: Type.String(),
  user_id: Type.Integer(),
  username: Type.String(),
  assigned: Type.Boolean(),
  by: Type.String(),
});
export type AssignmentEvent = Static<typeof AssignmentEvent>;
