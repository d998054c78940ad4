// /v2/notifications (extension): the caller's notifications, and marking them read.
import { principalOf } from '../../http/principal.ts';
import type { App } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import { MarkReadAnswer, MarkReadBody, NotificationsPage, NotificationsQuery } from './schemas.ts';
import * as service from './service.ts';

export async function notificationsRoutes(app: App, deps: { db: Db }) {
  const tags = ['notifications'];

  app.get(
    '/v2/notifications',
    {
      schema: {
        summary: "The caller's notifications, newest first, with the count of unread ones (extension)",
        tags,
        querystring: NotificationsQuery,
        response: { 200: NotificationsPage },
      },
    },
    async (request) => service.listNotifications(deps.db, principalOf(request), request.query),
  );

  app.post(
    '/v2/notifications/read',
    {
      schema: {
        summary: "Mark the caller's notifications read: those of ids, or all (extension)",
        tags,
        body: MarkReadBody,
        response: { 200: MarkReadAnswer },
      },
    },
    async (request) => service.markRead(deps.db, principalOf(request), request.body),
  );
}
