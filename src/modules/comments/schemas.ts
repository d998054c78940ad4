// TypeBox schemas of /v2/comments: Lilt's comments resource (Comment, CommentBody, DocumentComments,
// CommentDeleteResponse), with Tessera's threads, mentions and document-wide comments as extensions.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.ts';

/** The longest comment text, in characters. */
export const MAX_COMMENT_LENGTH = 5000;

/** Lilt's Annotation: a note on a comment. */
export const Annotation = Type.Object({ text: Type.Optional(Type.String({ maxLength: 1000 })) });

export const Comment = Type.Object({
  id: Type.Integer(),
  text: Type.String(),
  annotations: Type.Array(Annotation),
  /** A reply answers its thread's: a thread is resolved on its first comment. */
  is_resolved: Type.Boolean(),
  document_id: Type.Integer(),
  /** null: a comment on the whole document (extension). */
  segment_id: Nullable(Type.Integer()),
  /** The segment's version the comment was written on (GET /v2/segments/history numbers them). */
  segment_revision_id: Nullable(Type.Integer()),
  user_id: Nullable(Type.Integer()),
  created_at: Type.Integer(),
  /** Extensions: the first comment of the thread a reply belongs to, the author's name, the last change, and
   * the users the text @mentions. */
  parent_id: Nullable(Type.Integer()),
  user: Type.String(),
  updated_at: Type.Integer(),
  mentions: Type.Array(Type.String()),
});

/** Lilt's DocumentComments: comments by segment id; those on the whole document under "document" (ext.). */
export const DocumentComments = Type.Record(Type.String(), Type.Array(Comment));

export const ListCommentsQuery = Type.Object({ document_id: Type.Integer({ minimum: 1 }) });

export const CreateCommentQuery = Type.Object({
  document_id: Type.Integer({ minimum: 1 }),
  /** Without it, a comment on the whole document (extension). */
  segment_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** Lilt's CommentBody; Lilt types is_resolved as a string, so "true" and "false" are read too. */
export const CommentBody = Type.Object({
  text: Type.Optional(Type.String({ maxLength: MAX_COMMENT_LENGTH })),
  annotations: Type.Optional(Type.Array(Annotation, { maxItems: 50 })),
  is_resolved: Type.Optional(Type.Boolean()),
  /** A reply: the comment it answers (extension). */
  parent_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const UpdateCommentQuery = Type.Object({
  comment_id: Type.Integer({ minimum: 1 }),
  document_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const DeleteCommentQuery = Type.Object({ comment_id: Type.Integer({ minimum: 1 }) });

/** Lilt's CommentDeleteResponse, with Tessera's usual `deleted`. */
export const CommentDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });
