// /v2/review (extension): the translator's versions review mode compares with, and the words confirmed and
// reviewed per user.
import { principalOf } from '../../http/principal.ts';
import type { App } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import { DocumentQuery, ProjectQuery, ReviewBaselines, ReviewProgress } from './schemas.ts';
import * as service from './service.ts';

export async function reviewRoutes(app: App, deps: { db: Db }) {
  const { db } = deps;
  const tags = ['review'];

  app.get(
    '/v2/review/baselines',
    {
      schema: {
        summary:
          "Each segment's newest confirmed version: the translator's, which review mode compares with (ext.)",
        tags,
        querystring: DocumentQuery,
        response: { 200: ReviewBaselines },
      },
    },
    async (request) => service.reviewBaselines(db, principalOf(request), request.query.document_id),
  );

  app.get(
    '/v2/review/progress',
    {
      schema: {
        summary: "A project's words confirmed and reviewed per user, whole and per document (ext.)",
        tags,
        querystring: ProjectQuery,
        response: { 200: ReviewProgress },
      },
    },
    async (request) => service.reviewProgress(db, principalOf(request), request.query.project_id),
  );
}
