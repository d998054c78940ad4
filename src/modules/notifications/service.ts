// Notifications: what concerns one user, in the application (GET /v2/notifications, the header's bell). Other
// modules call notify() inside the transaction of the change that concerns the user, so that a notification
// exists exactly when its change does; a user's live stream (GET /v2/events?notifications=true) reads the new
// ones from the store, whichever instance wrote them.
import type { Static } from 'typebox';
import type { Principal } from '../../http/principal.ts';
import type { Db, Queryable } from '../../store/db.ts';
import * as repo from './repository.ts';
import type { MarkReadBody, NotificationsQuery } from './schemas.ts';

/** What a notification says happened; other modules add theirs (an assignment, a hand-off). */
export type NotificationKind = 'mention' | 'reply' | 'rejected' | 'assigned' | 'stage' | (string & {});

export interface NewNotification {
  organizationId: number;
  /** Whom it concerns. */
  userId: number;
  kind: NotificationKind;
  /** One line a person reads (the bell lists it as it is). */
  text: string;
  /** The web application's path to what it is about, e.g. `/documents/7?seg=12`. */
  link?: string | null;
  /** Who did it (a username), if anyone. */
  actor?: string | null;
}

const MAX_TEXT = 500;

/**
 * Writes a notification for one user, in the caller's transaction (or on the store). The user's open streams
 * deliver it within their poll interval. Answers its id.
 */
export async function notify(tx: Queryable, n: NewNotification): Promise<number> {
  const text = n.text.length > MAX_TEXT ? `${n.text.slice(0, MAX_TEXT - 1)}…` : n.text;
  return repo.insertNotification(tx, {
    organizationId: n.organizationId,
    userId: n.userId,
    kind: n.kind,
    text,
    link: n.link ?? null,
    actor: n.actor ?? null,
  });
}

export function publicNotification(row: repo.NotificationRow) {
  return {
    id: Number(row.id),
    kind: row.kind,
    text: row.text,
    link: row.link,
    actor: row.actor,
    is_read: row.is_read === 1,
    created_at: Number(row.created_at),
  };
}

/** GET /v2/notifications: the caller's, newest first, with the count of unread ones. */
export async function listNotifications(
  db: Db,
  principal: Principal,
  query: Static<typeof NotificationsQuery>,
) {
  const rows = await repo.notificationsOf(db, principal.userId, {
    unreadOnly: query.unread ?? false,
    limit: query.limit ?? 50,
  });
  return {
    unread: await repo.unreadCount(db, principal.userId),
    notifications: rows.map(publicNotification),
  };
}

/** POST /v2/notifications/read: marks the caller's notifications read (these, or all). */
export async function markRead(db: Db, principal: Principal, body: Static<typeof MarkReadBody>) {
  const marked = await repo.markRead(db, principal.userId, body.ids);
  return { marked, unread: await repo.unreadCount(db, principal.userId) };
}

// ---- What a live stream of the caller's notifications reads.

/** Where a stream starts: the newest notification's id now. */
export function lastNotificationId(db: Queryable, userId: number) {
  return repo.lastNotificationId(db, userId);
}

/** The user's notifications newer than `afterId`, oldest first, and the unread count. */
export async function notificationsAfter(db: Queryable, userId: number, afterId: number) {
  const rows = await repo.notificationsOf(db, userId, { unreadOnly: false, limit: 100, afterId });
  return {
    notifications: rows.reverse().map(publicNotification),
    unread: await repo.unreadCount(db, userId),
  };
}
