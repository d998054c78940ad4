// TypeBox schemas of /v2/segments: a memory entry or a document segment (they share one id space).
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.ts';
import { Comment, MAX_COMMENT_LENGTH } from '../comments/schemas.ts';
import { DocumentSegment } from '../documents/schemas.ts';
import { MemoryEntrySegment } from '../memories/schemas.ts';

// A document's segment first: the serializer takes the first schema that matches, and a document segment
// would also match the plain Segment and lose its extension fields.
export const SegmentAnswer = Type.Union([DocumentSegment, MemoryEntrySegment]);

export const AddSegmentBody = Type.Object({
  memory_id: Type.Optional(Type.Integer({ minimum: 1 })),
  document_id: Type.Optional(Type.Integer({ minimum: 1 })),
  source: Type.Optional(Type.String()),
  target: Type.Optional(Type.String()),
});

export const UpdateSegmentBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  target: Type.Optional(Type.String()),
  source: Type.Optional(Type.String()),
  is_confirmed: Type.Optional(Type.Boolean()),
  is_reviewed: Type.Optional(Type.Boolean()),
  /** The updated_at the edit was based on: a segment changed since is refused with 409 SEGMENT_CONFLICT (extension). */
  expected_updated_at: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const RestoreBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  version: Type.Integer({ minimum: 1 }),
  expected_updated_at: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const SegmentHistory = Type.Object({
  segment_id: Type.Integer(),
  versions: Type.Array(
    Type.Object({
      version: Type.Integer(),
      target: Nullable(Type.String()),
      status: Type.String(),
      user: Nullable(Type.String()),
      created_at: Type.Integer(),
      origin: Type.String(),
      /** The messages of the QA errors the target had when this version confirmed it (extension). */
      qa_errors: Type.Array(Type.String()),
    }),
  ),
});

export const RejectBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  /** Why: the comment the translator reads on the segment. */
  text: Type.String({ maxLength: MAX_COMMENT_LENGTH }),
  expected_updated_at: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** A segment sent back and the comment saying why (extension). */
export const RejectAnswer = Type.Object({ segment: DocumentSegment, comment: Comment });

export const JoinBody = Type.Object({
  /** The first of the two segments: it is joined with the one after it. */
  id: Type.Integer({ minimum: 1 }),
  expected_updated_at: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const SplitBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  /** Where the source is cut: characters of the tagged source before the cut. */
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  /** Where the target is cut, required when the segment has one. */
  target_offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  expected_updated_at: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** The segments a join or a split left, in document order (extension). */
export const ReshapeAnswer = Type.Object({
  segments: Type.Array(DocumentSegment),
  /** The segment a join removed. */
  removed: Type.Optional(Type.Integer()),
});
