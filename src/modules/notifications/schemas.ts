// TypeBox schemas of /v2/notifications (extension): what concerns the caller — a mention, an assignment, a
// hand-off — read or not.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.ts';

export const Notification = Type.Object({
  id: Type.Integer(),
  /** What happened: mention, reply, rejected, and the kinds other modules add (assigned, stage…). */
  kind: Type.String(),
  text: Type.String(),
  /** The web application's path to what it is about (a document, at a segment), or null. */
  link: Nullable(Type.String()),
  /** Who did it, or null. */
  actor: Nullable(Type.String()),
  is_read: Type.Boolean(),
  created_at: Type.Integer(),
});

export const NotificationsQuery = Type.Object({
  /** Only the unread ones. */
  unread: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});

export const NotificationsPage = Type.Object({
  /** The caller's unread notifications, all of them (not only those listed). */
  unread: Type.Integer(),
  notifications: Type.Array(Notification),
});

export const MarkReadBody = Type.Object({
  /** The notifications to mark read; without it, all of the caller's. */
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 })),
});

export const MarkReadAnswer = Type.Object({ marked: Type.Integer(), unread: Type.Integer() });
