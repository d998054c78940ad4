// TypeBox schemas of GET /v2/events (extension): what a subscription watches.
import { Type } from 'typebox';

export const EventsQuery = Type.Object({
  document_id: Type.Optional(Type.Integer({ minimum: 1 })),
  project_id: Type.Optional(Type.Integer({ minimum: 1 })),
  /** The caller's notifications too (alone, or beside a document's or a project's events). */
  notifications: Type.Optional(Type.Boolean()),
});
