// TypeBox schemas of the Project resource (docs/API.md) and the projects routes' parameters.
import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.ts';
import { SEGMENTATIONS } from '../../text/segmentation-modes.ts';
import { Document, WordsByStatus } from '../documents/schemas.ts';
import { PROJECT_STATES } from './project-states.ts';

const State = StringEnum(PROJECT_STATES);

/**
 * How the project's documents are segmented (extension): `auto` each format's default (software strings one
 * segment per entry, prose by sentence, a paragraph the memory holds whole kept whole), `sentence`, or
 * `paragraph` (one segment per paragraph or entry). It applies to documents imported after it is set.
 */
export const Segmentation = StringEnum(SEGMENTATIONS);

/** Which sentence rules apply (extension): the built-in ones, or the project's own SRX. */
export const SEGMENTATION_RULES = Object.freeze(['built-in', 'project'] as const);

export const Project = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  memory_id: Type.Integer(),
  srclang: Type.String(),
  trglang: Type.String(),
  srclocale: Nullable(Type.String()),
  trglocale: Nullable(Type.String()),
  state: State,
  due_date: Nullable(Type.Integer()),
  archived: Type.Boolean(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  /** The Lilt Job the project is a language pair of (extension); null when it belongs to none. */
  job_id: Nullable(Type.Integer()),
  /**
   * Whether confirming a segment fills the project's unconfirmed segments with the same source, confirmed
   * (extension; default true).
   */
  propagate_repetitions: Type.Boolean(),
  segmentation: Segmentation,
  segmentation_rules: StringEnum(SEGMENTATION_RULES),
  /** The stages its documents go through (GET /v2/workflows/templates; extension). */
  workflow_template_id: Type.Integer(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  document: Type.Array(Document),
});

export const CreateProjectBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 500 })),
  memory_id: Type.Optional(Type.Integer({ minimum: 1 })),
  due_date: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }))),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Confirming a segment fills its unconfirmed repetitions (extension; default true). */
  propagate_repetitions: Type.Optional(Type.Boolean()),
  segmentation: Type.Optional(Segmentation),
  /** Its workflow template (GET /v2/workflows/templates; extension, default 1: translate only). */
  workflow_template_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const ListProjectsQuery = Type.Object({
  id: Type.Optional(Type.String({ pattern: '^\\d+(,\\d+)*$' })),
  srclang: Type.Optional(Type.String()),
  trglang: Type.Optional(Type.String()),
  archived: Type.Optional(Type.Boolean()),
});

export const UpdateProjectBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  state: Type.Optional(State),
  due_date: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }))),
  archived: Type.Optional(Type.Boolean()),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Another memory of the same language pair (extension): the documents confirm into it from then on. */
  memory_id: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Confirming a segment fills its unconfirmed repetitions (extension). */
  propagate_repetitions: Type.Optional(Type.Boolean()),
  segmentation: Type.Optional(Segmentation),
  /** Its workflow template (GET /v2/workflows/templates; extension, default 1: translate only). */
  workflow_template_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** Lilt's ResourceStatus: a person's time and words on the project. */
const ResourceStatus = Type.Object({
  user_id: Type.Integer(),
  total_time: Type.Integer(),
  unique_segments_confirmed: Type.Integer(),
  unique_segments_reviewed: Type.Integer(),
});

/** Lilt's ProjectStatus (GET /v2/projects/status), with words by status per document (extensions). */
export const ProjectStatus = Type.Object({
  id: Type.Integer(),
  num_source_words: Type.Integer(),
  /** Words of confirmed segments, reviewed ones included (Lilt's meaning). */
  num_words_confirmed: Type.Integer(),
  num_words_reviewed: Type.Integer(),
  /** Tessera does not time work: 0. */
  time_elapsed: Type.Integer(),
  time_elapsed_translation: Type.Integer(),
  time_elapsed_research: Type.Integer(),
  time_elapsed_review: Type.Integer(),
  /** Tessera does not time work: empty. */
  resources: Type.Array(ResourceStatus),
  words: WordsByStatus,
  documents: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), words: WordsByStatus })),
});
