// /v2/events (extension): Server-Sent Events of a document or a project, for live screens.
import { principalOf } from '../../http/principal.ts';
import type { App } from '../../http/types.ts';
import { EventsQuery } from './schemas.ts';
import * as service from './service.ts';

export async function eventsRoutes(app: App, deps: service.EventDeps) {
  app.get(
    '/v2/events',
    {
      schema: {
        summary:
          "Live events of a document (document_id) or a project (project_id), and the caller's notifications (notifications=true), as Server-Sent Events: segment, task, document, comment, notification (extension)",
        description:
          'event: segment {document_id, segment_id, target, status, updated_at, user}; event: task {document_id, project_id, task_id, kind: import|pretranslate|export, state, progress: {done, total}}; event: document {document_id, project_id, confirmed, total, reload?}; event: comment {document_id, segment_id, comment_id, action: created|updated|deleted, user}; event: notification {id, kind, text, link, actor, created_at, unread}. Keepalive comments every 15 s.',
        tags: ['events'],
        querystring: EventsQuery,
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) =>
      app.eventStream(reply, await service.watch(deps, principalOf(request), request.query)),
  );
}
