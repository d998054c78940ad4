// TypeBox schemas of the Document resource, document segments and the documents routes' parameters (docs/API.md).
import { type Static, Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.ts';
import { Segment } from '../memories/schemas.ts';
import { SEGMENT_STATUSES, type SegmentStatus, STAGES } from './document-states.ts';
import { ModesReport, PretranslateModeParam } from './pretranslate-modes.ts';

/**
 * What auto-accept confirms (extension): `exact`, a match whose source is the segment's exactly (the
 * default); `context`, only a context (101 %) match.
 */
export const AUTO_ACCEPT_SCOPES = Object.freeze({ exact: 'exact', context: 'context' } as const);
export const AutoAcceptScope = StringEnum([AUTO_ACCEPT_SCOPES.exact, AUTO_ACCEPT_SCOPES.context]);
export type AutoAcceptScope = Static<typeof AutoAcceptScope>;

/** The Segment of docs/API.md with its extension fields; a document's segment belongs to no memory. */
export const DocumentSegment = Type.Object({
  ...Segment.properties,
  document_id: Type.Integer(),
  memory_id: Type.Null(),
  status: StringEnum(Object.values(SEGMENT_STATUSES)),
  match_score: Nullable(Type.Integer()),
  /** Whether match_score came from a context (101 %) match: the web shows it as 101 % (extension). */
  context_match: Type.Boolean(),
  /** Locked by a project manager (POST /v2/segments/lock): nobody changes it until it is unlocked (extension). */
  locked: Type.Optional(Type.Boolean()),
  position: Type.Integer(),
  context: Nullable(Type.String()),
  /** The placeables pre-translation put in place of the match's (extension); null when none. */
  repairs: Nullable(Type.Array(Type.Object({ from: Type.String(), to: Type.String(), kind: Type.String() }))),
  /**
   * The machine translation engine whose translation the target is — pre-translation in mode `mt` or `tm+mt`
   * wrote it, and nobody changed it since (extension); null otherwise. Its match_score is null.
   */
  mt_provider: Type.Optional(Nullable(Type.String())),
  /**
   * Whether its source occurs more than once in its project's documents (extension): how many segments share
   * it, and whether this one is the first of them; null when it occurs once. In the answers the editor reads.
   */
  repetition: Type.Optional(Nullable(Type.Object({ count: Type.Integer(), first: Type.Boolean() }))),
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
  num_reviewed: Type.Integer(),
  /** Words of its segments as the scorer counts them (extension). */
  num_words: Type.Integer(),
  format: Type.String(),
  /** Where it is in its project's workflow: translate, review, review2 or done (extension; docs/API.md, Workflow). */
  stage: StringEnum(Object.values(STAGES)),
  /** Lilt's: the e-mail (or, without one, the username) of whom its translation is assigned to. */
  translator_email: Type.Optional(Nullable(Type.String())),
  /** Lilt's: the same for its review. */
  reviewer_email: Type.Optional(Nullable(Type.String())),
  /** Who is assigned to each stage (extension). */
  assignees: Type.Optional(
    Type.Array(
      Type.Object({
        stage: StringEnum(Object.values(STAGES)),
        user_id: Type.Integer(),
        username: Type.String(),
        email: Nullable(Type.String()),
        due_date: Nullable(Type.Integer()),
      }),
    ),
  ),
  /** In the answer to an upload that asks for pre-translation: what it will run of the mode asked (extension). */
  pretranslation_modes: Type.Optional(ModesReport),
  segments: Type.Optional(Type.Array(DocumentSegment)),
});

/** POST /v2/documents/files: from the LILT-API header, individual headers, the query or multipart fields. */
export const DocumentUploadParams = Type.Object({
  name: Type.String(),
  project_id: Type.Integer({ minimum: 1 }),
  /** `TM`, `TM+MT` or `MT` (any case; pretranslate-modes.ts), or a flag meaning TM. */
  pretranslate: Type.Optional(Type.Union([...PretranslateModeParam.anyOf, Type.Boolean()])),
  auto_accept: Type.Optional(Type.Boolean()),
  auto_accept_scope: Type.Optional(AutoAcceptScope),
  /** Accepted for Lilt's clients; it widens nothing: auto-accept takes exact matches only. */
  case_sensitive: Type.Optional(Type.Boolean()),
});

export const GetDocumentQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  with_segments: Type.Optional(Type.Boolean()),
});

export const RenameDocumentBody = Type.Object({ id: Type.Integer({ minimum: 1 }), name: Type.String() });

export const PretranslateBody = Type.Object({
  id: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }),
  auto_accept: Type.Optional(Type.Boolean()),
  auto_accept_scope: Type.Optional(AutoAcceptScope),
  /** Accepted for Lilt's clients; it widens nothing: auto-accept takes exact matches only. */
  case_sensitive: Type.Optional(Type.Boolean()),
  attribute_to_creator: Type.Optional(Type.Boolean()),
  mode: Type.Optional(PretranslateModeParam),
});

/**
 * The options Lilt's older Node SDK sends in the query of POST /v2/documents/pretranslate (the body's names;
 * `autoAccept` too). A value in the body wins over the query's.
 */
export const PretranslateQuery = Type.Object({
  auto_accept: Type.Optional(Type.Boolean()),
  autoAccept: Type.Optional(Type.Boolean()),
  auto_accept_scope: Type.Optional(AutoAcceptScope),
  case_sensitive: Type.Optional(Type.Boolean()),
  attribute_to_creator: Type.Optional(Type.Boolean()),
  mode: Type.Optional(PretranslateModeParam),
});

export const PretranslateAnswer = Type.Object({
  id: Type.Array(Type.Integer()),
  is_pretranslating: Type.Boolean(),
  documents: Type.Array(Document),
  /** What each document's pre-translation runs of the mode asked for (extension). */
  modes: ModesReport,
});

export const ExportQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  is_xliff: Type.Optional(Type.Boolean()),
});

const STATUS_NAMES = Object.values(SEGMENT_STATUSES);
const STATUS_LIST = `(${STATUS_NAMES.join('|')})`;

/** GET /v2/documents/segments (extension): the editor's page of a document's segments. */
export const SegmentsPageQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  /** Statuses to keep, comma separated. */
  status: Type.Optional(Type.String({ pattern: `^${STATUS_LIST}(,${STATUS_LIST})*$` })),
  q: Type.Optional(Type.String({ maxLength: 500 })),
  /** Only repetitions: segments whose source occurs more than once in the project's documents (extension). */
  repeated: Type.Optional(Type.Boolean()),
  /** Only segments with QA issues (`any`) or QA errors (`error`), as GET /v2/documents/qa finds them. */
  qa: Type.Optional(StringEnum(['any', 'error'])),
  /** Only segments with an unresolved comment thread (extension). */
  unresolved: Type.Optional(Type.Boolean()),
});

export const SegmentsPage = Type.Object({
  /** Segments matching the filter. */
  total: Type.Integer(),
  offset: Type.Integer(),
  limit: Type.Integer(),
  /** Segments of the whole document by status. */
  counts: Type.Object(
    Object.fromEntries(STATUS_NAMES.map((status) => [status, Type.Integer()])) as Record<
      SegmentStatus,
      ReturnType<typeof Type.Integer>
    >,
  ),
  /** Segments of the whole document that are repetitions within its project (extension). */
  repetitions: Type.Integer(),
  segments: Type.Array(DocumentSegment),
});

/** Words of segments by status (extension), as word-count.ts counts them; confirmed excludes reviewed. */
export const WordsByStatus = Type.Object({
  ...(Object.fromEntries(STATUS_NAMES.map((status) => [status, Type.Integer()])) as Record<
    SegmentStatus,
    ReturnType<typeof Type.Integer>
  >),
  total: Type.Integer(),
});

/** GET /v2/documents/words (extension): a document's words by status. */
export const DocumentWords = Type.Object({ document_id: Type.Integer(), words: WordsByStatus });

/** GET /v2/documents/qa (extension): the QA issues of every segment of a document (src/text/qa). */
export const QaReport = Type.Object({
  document_id: Type.Integer(),
  counts: Type.Object({ error: Type.Integer(), warning: Type.Integer() }),
  issues: Type.Array(
    Type.Object({
      segment_id: Type.Integer(),
      position: Type.Integer(),
      code: Type.String(),
      severity: Type.String(),
      message: Type.String(),
      /** The segment's source as the QA list shows it: its text without tags, 160 characters at most. */
      source: Type.String(),
      /**
       * On the placeholder issues of a confirmed segment the export cannot write as it is: `fuzzy`, written
       * with the format's mark of a draft (PO); `blocked`, the export is refused (422 EXPORT_BLOCKED).
       */
      export: Type.Optional(StringEnum(['fuzzy', 'blocked'])),
    }),
  ),
});

/** GET /v2/documents/terms (extension): the termbase of the document's project memory in its language pair. */
export const DocumentTerms = Type.Object({
  document_id: Type.Integer(),
  /** The project's memory, where a term added from the editor goes (POST /v2/memories/terms). */
  memory_id: Type.Union([Type.Integer(), Type.Null()]),
  srclang: Type.String(),
  trglang: Type.String(),
  terms: Type.Array(
    Type.Object({
      concept_id: Type.Integer(),
      term_id: Type.Integer(),
      lang: Type.String(),
      text: Type.String(),
      status: StringEnum(['preferred', 'admitted', 'deprecated', 'forbidden']),
      case_sensitive: Type.Boolean(),
      part_of_speech: Type.Union([Type.String(), Type.Null()]),
      definition: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

/** POST /v2/documents/replace (extension). */
export const ReplaceBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  find: Type.String({ maxLength: 1000 }),
  replace: Type.String({ maxLength: 5000 }),
  regex: Type.Optional(Type.Boolean()),
  case_sensitive: Type.Optional(Type.Boolean()),
  field: Type.Optional(Type.Union([Type.Literal('source'), Type.Literal('target')])),
  statuses: Type.Optional(Type.Array(StringEnum(STATUS_NAMES), { maxItems: 10 })),
  dry_run: Type.Optional(Type.Boolean()),
});

export const ReplaceAnswer = Type.Object({
  batch_id: Nullable(Type.Integer()),
  /** Segments changed (or, in a dry run, that would change). */
  changed: Type.Integer(),
  /** The first of them in document order: 200 at most, and a million characters of texts at most. */
  changes: Type.Array(
    Type.Object({
      segment_id: Type.Integer(),
      position: Type.Integer(),
      before: Type.String(),
      after: Type.String(),
    }),
  ),
  /** More segments changed than `changes` lists. */
  truncated: Type.Boolean(),
  /**
   * The first 200 segments left as they were: the replacement would break their tags, or (when applying)
   * someone changed the segment while the replace ran. Position null: the segment was deleted meanwhile.
   */
  skipped: Type.Array(
    Type.Object({ segment_id: Type.Integer(), position: Nullable(Type.Integer()), reason: Type.String() }),
  ),
  skipped_count: Type.Integer(),
});

export const UndoReplaceBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  batch_id: Type.Integer({ minimum: 1 }),
});

export const UndoReplaceAnswer = Type.Object({ batch_id: Type.Integer(), restored: Type.Integer() });
