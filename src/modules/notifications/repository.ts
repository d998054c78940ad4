// SQL for notifications: the one owner of the notifications table.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export interface NotificationRow {
  id: number;
  organization_id: number;
  user_id: number;
  kind: string;
  text: string;
  link: string | null;
  actor: string | null;
  is_read: number;
  created_at: number;
}

export async function insertNotification(
  db: Queryable,
  n: {
    organizationId: number;
    userId: number;
    kind: string;
    text: string;
    link: string | null;
    actor: string | null;
  },
): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO notifications (organization_id, user_id, kind, text, link, actor, is_read, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 0, ?) RETURNING id`,
    [n.organizationId, n.userId, n.kind, n.text, n.link, n.actor, nowSeconds()],
  );
  return Number(row!.id);
}

/** A user's notifications, newest first; only those after `afterId` when given (a live stream's news). */
export function notificationsOf(
  db: Queryable,
  userId: number,
  options: { unreadOnly: boolean; limit: number; afterId?: number },
) {
  return db.all<NotificationRow>(
    `SELECT * FROM notifications WHERE user_id = ?${options.unreadOnly ? ' AND is_read = 0' : ''}
     AND id > ? ORDER BY id DESC LIMIT ?`,
    [userId, options.afterId ?? 0, options.limit],
  );
}

export async function unreadCount(db: Queryable, userId: number): Promise<number> {
  const row = await db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND is_read = 0',
    [userId],
  );
  return Number(row?.n ?? 0);
}

/** The newest notification's id of a user (0 without any): where a live stream starts. */
export async function lastNotificationId(db: Queryable, userId: number): Promise<number> {
  const row = await db.get<{ id: number | null }>(
    'SELECT MAX(id) AS id FROM notifications WHERE user_id = ?',
    [userId],
  );
  return Number(row?.id ?? 0);
}

/** Marks these of the user's notifications read (all of them without ids); answers how many changed. */
export async function markRead(db: Queryable, userId: number, ids: readonly number[] | undefined) {
  if (ids === undefined) {
    return (await db.run('UPDATE notifications SET is_read = 1 WHERE user_id = ? AND is_read = 0', [userId]))
      .changes;
  }
  if (ids.length === 0) return 0;
  return (
    await db.run(
      `UPDATE notifications SET is_read = 1 WHERE user_id = ? AND is_read = 0 AND id IN (${ids.map(() => '?').join(', ')})`,
      [userId, ...ids],
    )
  ).changes;
}
