// TypeBox schemas of the Document resource and document segments (API.md).
import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.ts';
import { Segment } from '../memories/schemas.ts';

/** The Segment of API.md with its extension fields; a document's segment belongs to no memory. */
export const DocumentSegment = Type.Object({
  ...Segment.properties,
  document_id: Type.Integer(),
  memory_id: Type.Null(),
  status: Type.String(),
  match_score: Nullable(Type.Integer()),
  position: Type.Integer(),
  context: Nullable(Type.String()),
});

export const Document = Type.Object({
  id: Type.Integer(),
  project_id: Type.Integer(),
  name: Type.String(),
  srclang: Type.String(),
  trglang: Type.String(),
  import_in_progress: Type.Boolean(),
  import_succeeded: Type.Boolean(),
  import_error_message: Nullable(Type.String()),
  export_in_progress: Type.Boolean(),
  export_succeeded: Type.Boolean(),
  export_error_message: Nullable(Type.String()),
  is_pretranslating: Type.Boolean(),
  status: Type.Object({ pretranslation: Type.String() }),
  is_review_complete: Type.Boolean(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  num_segments: Type.Integer(),
  num_confirmed: Type.Integer(),
  format: Type.String(),
  segments: Type.Optional(Type.Array(DocumentSegment)),
});
