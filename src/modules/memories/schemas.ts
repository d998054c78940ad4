// TypeBox schemas of the memory and segment resources (docs/API.md) and the memories routes' parameters.
import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.ts';
import { RANK_REASONS } from '../../matching/ranking.ts';
import { EXACT_SCORE, MIN_SCORE } from '../../matching/score-bands.ts';

export const Memory = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  srclang: Type.String(),
  trglang: Type.String(),
  srclocale: Nullable(Type.String()),
  trglocale: Nullable(Type.String()),
  /** null until something was imported; then true while an import runs, false after (as Lilt answers). */
  is_processing: Nullable(Type.Boolean()),
  version: Type.Integer(),
  num_segments: Type.Integer(),
  /** The names of the files imported; null before any (as Lilt answers). */
  resources: Nullable(Type.Array(Type.String())),
  /**
   * Extension: whether a source may have several translations in one context. False (the default): a
   * confirmation replaces the entry its source has in that context, which keeps its earlier versions.
   */
  multiple_translations: Type.Boolean(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  /** Extension: the last import's task, its state, and why it failed (null before any import). */
  last_import: Nullable(
    Type.Object({
      task_id: Type.Integer(),
      state: Type.String(),
      error: Nullable(Type.String()),
      error_code: Nullable(Type.String()),
    }),
  ),
});

export const Penalty = Type.Object({
  kind: Type.String(),
  points: Type.Integer(),
});

/** Where an entry came from: the metadata of query and concordance answers. */
const EntryMetadata = Type.Object({
  segment_id: Type.Integer(),
  resource_name: Nullable(Type.String()),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  created_by: Nullable(Type.String()),
  /** Extension: who changed the entry last (who corrected it; its creator until then). */
  updated_by: Nullable(Type.String()),
  /** The e-mail of the user who added the entry (a stable placeholder for a user without one), as Lilt sends. */
  user_email: Type.String(),
});

export const TranslationMemoryEntry = Type.Object({
  source: Type.String(),
  target: Type.String(),
  score: Type.Integer(),
  metadata: Type.Object({
    ...EntryMetadata.properties,
    match_type: Type.String(),
    penalties: Type.Array(Penalty),
    /**
     * An exact match stored in the context of the query's segment_id (a 101 % match, extension): the same
     * key, or the same previous and next sources. Its score stays 100.
     */
    context_match: Type.Boolean(),
    /**
     * Extension, on the first match only (null on the others): why it ranks first (docs/MATCHING.md §2.4) —
     * `only`, `context`, `score`, `penalties`, `newest` or `first_stored` (changed in the same second) —
     * and how many matches stand as high but for recency (`of`: "newest of 2 translations").
     */
    ranked_first: Nullable(Type.Object({ reason: StringEnum(RANK_REASONS), of: Type.Integer() })),
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

/** A memory entry as /v2/segments answers it: the Segment with who added and who last changed it (extension). */
export const MemoryEntrySegment = Type.Object({
  ...Segment.properties,
  created_by: Nullable(Type.String()),
  updated_by: Nullable(Type.String()),
});

export const ConcordanceEntry = Type.Object({
  source: Type.String(),
  target: Type.String(),
  side: StringEnum(['source', 'target']),
  offsets: Type.Array(Type.Array(Type.Integer(), { minItems: 2, maxItems: 2 })),
  metadata: EntryMetadata,
});

export const CreateMemoryBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 500 })),
  srclang: Type.String(),
  trglang: Type.String(),
  srclocale: Type.Optional(Type.String({ maxLength: 20 })),
  trglocale: Type.Optional(Type.String({ maxLength: 20 })),
  /** Extension: several translations per source and context (default false: one, replaced). */
  multiple_translations: Type.Optional(Type.Boolean()),
});

export const ListMemoriesQuery = Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1 })) });

export const RenameMemoryBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.Optional(Type.String({ maxLength: 500 })),
  /** Extension: several translations per source and context (see Memory). */
  multiple_translations: Type.Optional(Type.Boolean()),
});

export const QueryParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  query: Type.Optional(Type.String()),
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  min_score: Type.Optional(Type.Integer({ minimum: MIN_SCORE, maximum: EXACT_SCORE })),
  /** A document segment of the caller's organization whose context the matches are compared with (extension). */
  segment_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const ConcordanceParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  query: Type.Optional(Type.String()),
  side: Type.Optional(Type.Union([Type.Literal('source'), Type.Literal('target')])),
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

/** The spellings of Lilt's `when` accepted: as its reference lists them, capitalized as its examples send them. */
const SYNC_WHEN = ['created', 'updated', 'deleted'].flatMap((w) => [
  w,
  w[0].toUpperCase() + w.slice(1),
  w.toUpperCase(),
]);

/** GET /v2/memories/sync (and /export): the whole memory, or the section a time window selects. */
export const SyncQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  /** Unix seconds, inclusive. */
  from_time: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Unix seconds, exclusive. */
  to_time: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Which time the window applies to: created, updated (the default with a window) or deleted. */
  when: Type.Optional(StringEnum(SYNC_WHEN)),
});

export const DeleteEntryQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  segment_id: Type.Integer({ minimum: 1 }),
});

/** PUT /v2/memories/segment (extension): change one entry of a memory. */
/** The answer of DELETE /v2/memories/segment (Lilt's). */
export const EntryDeleted = Type.Object({ success: Type.Boolean() });

export const UpdateEntryBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  segment_id: Type.Integer({ minimum: 1 }),
  source: Type.Optional(Type.String()),
  target: Type.Optional(Type.String()),
});

/** POST /v2/memories/import: from the LILT-API header, individual headers, the query or multipart fields. */
export const MemoryImportParams = Type.Object({
  memory_id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  /** Lilt's flag for a termbase CSV with a header row: given, a `.csv` is a termbase (docs/API.md, Terminology). */
  has_header_row: Type.Optional(Type.Boolean()),
});

export const ImportStarted = Type.Object({
  id: Type.Integer(),
  isProcessing: Type.Integer(),
  job_id: Type.Integer(),
  /** The same id, by what it is here: GET /v2/tasks?id= tells the import's progress and outcome (extension). */
  task_id: Type.Integer(),
});

/** GET /v2/memories/entries (extension): browse a memory's entries. */
export const BrowseEntriesQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  q: Type.Optional(Type.String({ maxLength: 500 })),
});

export const EntriesPage = Type.Object({
  total: Type.Integer(),
  entries: Type.Array(
    Type.Object({
      id: Type.Integer(),
      source: Type.String(),
      target: Type.String(),
      created_at: Type.Integer(),
      updated_at: Type.Integer(),
      created_by: Nullable(Type.String()),
      updated_by: Nullable(Type.String()),
      /** How many earlier versions the entry keeps (GET /v2/memories/entries/history), extension. */
      earlier_versions: Type.Integer(),
    }),
  ),
});

/** GET /v2/memories/entries/history (extension): the versions of one entry of a memory. */
export const EntryHistoryQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  segment_id: Type.Integer({ minimum: 1 }),
});

export const EntryHistory = Type.Object({
  memory_id: Type.Integer(),
  segment_id: Type.Integer(),
  /** Newest first: the entry as it is (current), then what it held before each change. */
  versions: Type.Array(
    Type.Object({
      source: Type.String(),
      target: Type.String(),
      /** Who wrote this text, and when. */
      user: Nullable(Type.String()),
      created_at: Type.Integer(),
      current: Type.Boolean(),
      /** Who replaced it, and when (null for the current text). */
      replaced_by: Nullable(Type.String()),
      replaced_at: Nullable(Type.Integer()),
    }),
  ),
});
