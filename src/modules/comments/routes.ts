// /v2/comments: Lilt's comments resource — a document's comments by segment, and creating, changing and
// deleting one (the ids in the query, as Lilt's clients send them).
import { principalOf } from '../../http/principal.ts';
import type { App } from '../../http/types.ts';
import {
  Comment,
  CommentBody,
  CommentDeleted,
  CreateCommentQuery,
  DeleteCommentQuery,
  DocumentComments,
  ListCommentsQuery,
  UpdateCommentQuery,
} from './schemas.ts';
import * as service from './service.ts';

export async function commentsRoutes(app: App, deps: service.CommentDeps) {
  const tags = ['comments'];

  app.get(
    '/v2/comments',
    {
      schema: {
        summary: "A document's comments, grouped by segment id",
        description:
          'Each thread in the order it was started, its replies after its first comment. Comments on the whole document are under the key "document" (extension).',
        tags,
        querystring: ListCommentsQuery,
        response: { 200: DocumentComments },
      },
    },
    async (request) => service.listComments(deps, principalOf(request), request.query),
  );

  app.post(
    '/v2/comments',
    {
      schema: {
        summary: 'Comment on a segment (or, without segment_id, on the document), or reply to a comment',
        description:
          'parent_id makes a reply (extension); @username in the text mentions a user who can see the document, who is notified.',
        tags,
        querystring: CreateCommentQuery,
        body: CommentBody,
        response: { 201: Comment },
      },
    },
    async (request, reply) => {
      const comment = await service.createComment(deps, principalOf(request), request.query, request.body);
      return reply.code(201).send(comment);
    },
  );

  app.put(
    '/v2/comments',
    {
      schema: {
        summary: "Change a comment's text (its author) or resolve it (its thread)",
        tags,
        querystring: UpdateCommentQuery,
        body: CommentBody,
        response: { 200: Comment },
      },
    },
    async (request) => service.updateComment(deps, principalOf(request), request.query, request.body),
  );

  app.delete(
    '/v2/comments',
    {
      schema: {
        summary: 'Delete a comment (its author or an admin); a first comment takes its replies along',
        tags,
        querystring: DeleteCommentQuery,
        response: { 200: CommentDeleted },
      },
    },
    async (request) => service.deleteComment(deps, principalOf(request), request.query),
  );
}
