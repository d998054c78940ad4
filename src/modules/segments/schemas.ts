// TypeBox schemas of /v2/segments: a memory entry or a document segment (they share one id space).
import { Type } from 'typebox';
import { DocumentSegment } from '../documents/schemas.ts';
import { Segment } from '../memories/schemas.ts';

// A document's segment first: the serializer takes the first schema that matches, and a document segment
// would also match the plain Segment and lose its extension fields.
export const SegmentAnswer = Type.Union([DocumentSegment, Segment]);

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
});
