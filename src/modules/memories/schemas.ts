// TypeBox schemas of the memory and segment resources (API.md).
import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.ts';

export const Memory = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  srclang: Type.String(),
  trglang: Type.String(),
  srclocale: Nullable(Type.String()),
  trglocale: Nullable(Type.String()),
  is_processing: Type.Boolean(),
  version: Type.Integer(),
  num_segments: Type.Integer(),
  resources: Type.Array(Type.String()),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

export const Penalty = Type.Object({
  kind: Type.String(),
  points: Type.Integer(),
});

export const TranslationMemoryEntry = Type.Object({
  source: Type.String(),
  target: Type.String(),
  score: Type.Integer(),
  metadata: Type.Object({
    segment_id: Type.Integer(),
    resource_name: Nullable(Type.String()),
    created_at: Type.Integer(),
    updated_at: Type.Integer(),
    created_by: Nullable(Type.String()),
    match_type: Type.String(),
    penalties: Type.Array(Penalty),
  }),
});

export const Segment = Type.Object({
  id: Type.Integer(),
  document_id: Nullable(Type.Integer()),
  memory_id: Nullable(Type.Integer()),
  source: Type.String(),
  target: Nullable(Type.String()),
  srclang: Type.String(),
  trglang: Type.String(),
  is_confirmed: Type.Boolean(),
  is_reviewed: Type.Boolean(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

export const IdQuery = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const Deleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });

export const ConcordanceEntry = Type.Object({
  source: Type.String(),
  target: Type.String(),
  side: Type.String(),
  offsets: Type.Array(Type.Array(Type.Integer(), { minItems: 2, maxItems: 2 })),
  metadata: Type.Object({
    segment_id: Type.Integer(),
    resource_name: Nullable(Type.String()),
    created_at: Type.Integer(),
    updated_at: Type.Integer(),
    created_by: Nullable(Type.String()),
  }),
});
