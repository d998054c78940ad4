// TypeBox schemas of terminology: a memory's concepts and terms (Tessera's CRUD under /v2/memories/terms),
// Lilt's termbase export and download, and Lilt's legacy lexicon (GET/POST /v2/lexicon).
import { Type } from 'typebox';
import { TERM_STATUSES } from '../../formats/tbx/termbase.ts';
import { Nullable, StringEnum } from '../../http/schemas.ts';

export const Term = Type.Object({
  id: Type.Integer(),
  concept_id: Type.Integer(),
  lang: Type.String(),
  text: Type.String(),
  status: StringEnum(TERM_STATUSES),
  case_sensitive: Type.Boolean(),
  part_of_speech: Nullable(Type.String()),
  definition: Nullable(Type.String()),
  context: Nullable(Type.String()),
  note: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  updated_by: Nullable(Type.String()),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

export const Concept = Type.Object({
  id: Type.Integer(),
  memory_id: Type.Integer(),
  /** The id a TBX file gave the concept, when it came from one. */
  external_id: Nullable(Type.String()),
  domain: Nullable(Type.String()),
  note: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  updated_by: Nullable(Type.String()),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  terms: Type.Array(Term),
});

export const ConceptsPage = Type.Object({
  concepts: Type.Array(Concept),
  /** Concepts matching the search (all of the memory's without q). */
  total: Type.Integer(),
  offset: Type.Integer(),
  limit: Type.Integer(),
});

export const TermsQuery = Type.Object({
  /** The memory. */
  id: Type.Integer({ minimum: 1 }),
  /** Concepts with a term holding this text (case aside). */
  q: Type.Optional(Type.String({ maxLength: 500 })),
  /** Where q must stand in the term: anywhere (the default) or at its start. */
  match: Type.Optional(StringEnum(['substring', 'prefix'])),
  /** Only terms of this language (its primary subtag) are searched. */
  lang: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}$' })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
});

export const ConceptQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  concept_id: Type.Integer({ minimum: 1 }),
});

const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));

export const TermInput = Type.Object({
  /** A term of the concept kept (edited) rather than replaced; absent for a new term. */
  id: Type.Optional(Type.Integer({ minimum: 1 })),
  lang: Type.String({ pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$' }),
  text: Type.String({ minLength: 1, maxLength: 500 }),
  status: Type.Optional(StringEnum(TERM_STATUSES)),
  case_sensitive: Type.Optional(Type.Boolean()),
  part_of_speech: OptionalText(100),
  definition: OptionalText(5000),
  context: OptionalText(5000),
  note: OptionalText(5000),
});

export const ConceptBody = Type.Object({
  domain: OptionalText(500),
  note: OptionalText(5000),
  terms: Type.Array(TermInput, { minItems: 1, maxItems: 200 }),
});

export const ConceptDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });

export const TermsImportParams = Type.Object({
  memory_id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  /** Lilt's flag for a termbase CSV whose first row is a header. */
  has_header_row: Type.Optional(Type.Boolean()),
});

export const TermsImported = Type.Object({
  id: Type.Integer(),
  concepts: Type.Integer(),
  terms: Type.Integer(),
  /** CSV rows without a source or a target term, left out as Lilt leaves them out. */
  skipped: Type.Integer(),
});

export const TermsExportQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  /** tbx (TBX-Basic, the default) or csv (Lilt's termbase CSV). */
  format: Type.Optional(StringEnum(['tbx', 'csv'])),
  /** The TBX version: 3 (TBX 2019, the default) or 2 (TBX 2008, martif). */
  version: Type.Optional(Type.Integer({ minimum: 2, maximum: 3 })),
});

export const TermbaseExportResponse = Type.Object({ id: Type.Integer(), is_processing: Type.Integer() });

export const LexiconQuery = Type.Object({
  memory_id: Type.Integer({ minimum: 1 }),
  srclang: Type.String({ minLength: 2, maxLength: 20 }),
  trglang: Type.String({ minLength: 2, maxLength: 20 }),
  query: Type.String({ minLength: 1, maxLength: 250 }),
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

export const LexiconEntry = Type.Object({
  translations: Type.Array(
    Type.Object({
      source: Type.String(),
      target: Type.String(),
      /**
       * How many of the termbase's concepts give this translation; for one learned from the memory, in how
       * many of its sentences holding the query the memory renders it so (0 for a two-word query those
       * sentences render by nothing: a guess composed of its words' translations).
       */
      frequency: Type.Number(),
      memory_id: Type.Integer(),
      /**
       * Extension: the target term's status (forbidden translations are never offered); null for a
       * translation learned from the memory, which no one has vetted.
       */
      status: Nullable(StringEnum(TERM_STATUSES)),
      /**
       * Extension: where it comes from — `termbase`, or `memory`: learned from the memory's own pairs (word
       * alignments), offered after the termbase's for a query the termbase does not hold or holds few of.
       */
      origin: StringEnum(['termbase', 'memory']),
    }),
  ),
  examples: Type.Array(
    Type.Object({
      source: Type.String(),
      target: Type.String(),
      memory_id: Type.Integer(),
    }),
  ),
});

export const LexiconBody = Type.Object({
  memory_id: Type.Integer({ minimum: 1 }),
  source: Type.String({ minLength: 1, maxLength: 250 }),
  target: Type.String({ minLength: 1, maxLength: 500 }),
});

export const LexiconUpdated = Type.Object({ memory_id: Type.Integer(), success: Type.Boolean() });

export const CandidatesQuery = Type.Object({
  /** The memory. */
  id: Type.Integer({ minimum: 1 }),
  /** How many candidates at most (default 50). */
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});

/** Term candidates learned from a memory (extension): phrases it translates consistently, not yet terms. */
export const CandidatesAnswer = Type.Object({
  /**
   * `ready`: the candidates are the memory's; `learning`: its lexicon is being learned (ask again shortly);
   * `empty`: the memory holds no pairs to learn from.
   */
  state: StringEnum(['ready', 'learning', 'empty']),
  candidates: Type.Array(
    Type.Object({
      /** The phrase in the memory's source language, as the memory writes it most often. */
      source: Type.String(),
      /** Its translation as the memory writes it most often. */
      target: Type.String(),
      /** In how many of the sentences looked at (up to 150) the memory translates it so. */
      frequency: Type.Integer(),
      /** That share of the sentences holding the phrase that were looked at, 0.5–1. */
      share: Type.Number(),
    }),
  ),
});
