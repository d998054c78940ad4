// TypeBox schemas of machine translation: Lilt's POST /v2/translate (TranslateSegmentBody in,
// TranslationList out, as Lilt's SDKs name them) and the usage counters (extension).
import { Type } from 'typebox';

export const MAX_SOURCE_LENGTH = 5000;

export const TranslateBody = Type.Object({
  /** The memory whose matches come first, and whose languages the MT translates between. */
  memory_id: Type.Integer({ minimum: 1 }),
  /** The source segment, tagged text (docs/API.md, Tagged text), at most 5000 characters. */
  source: Type.String({ maxLength: MAX_SOURCE_LENGTH }),
  /** Lilt's alternative to `source` (a hash of a segment Lilt stored): not supported, `source` is required. */
  source_hash: Type.Optional(Type.Integer()),
  /** How many memory matches at most (Lilt's n-best); the MT suggestion follows them. Default 1. */
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  /** Include the memory's fuzzy matches ahead of the MT (default true). */
  tm_matches: Type.Optional(Type.Boolean()),
  /**
   * Lilt's target prefix for interactive translation: the beginning of the target the translator has typed,
   * as plain text. Every suggestion continues it: memory matches whose target starts with it are kept
   * (the others left out), and so is a machine translation that does; one that does not is completed after
   * it — the prefix's words aligned to the translation's first words by a word edit distance (without case),
   * the translation continued from the aligned point, a last word still being typed completed from the
   * translation's word it begins, and the tags of the replaced part moved to where the continuation starts.
   */
  prefix: Type.Optional(Type.String({ maxLength: MAX_SOURCE_LENGTH })),
  /** Lilt's word alignments: accepted; `align` is empty (the engines here give none). */
  rich: Type.Optional(Type.Boolean()),
  /** Lilt's "project the source's tags": `targetWithTags` always carries them, so this changes nothing. */
  project_tags: Type.Optional(Type.Boolean()),
  contains_icu_data: Type.Optional(Type.Boolean()),
});

/** One suggestion, memory match or MT, in Lilt's Translation shape (its wire names are camelCase). */
export const Translation = Type.Object({
  /** The translation without inline tags. */
  target: Type.String(),
  /** The translation with the source's tags (tagged text). */
  targetWithTags: Type.String(),
  /** Lilt's word alignments; empty. */
  align: Type.String(),
  /** Lilt's per-word origin; empty. */
  provenance: Type.String(),
  /** A memory match's score (0–100); 0 for MT, whose engines give no score. */
  score: Type.Number(),
  /** True for a memory match (exact or fuzzy: `score` says which), false for machine translation. */
  isTMMatch: Type.Boolean(),
  targetWords: Type.Array(Type.String()),
  /** What precedes each word, and after the last what ends the text: one more than targetWords. */
  targetDelimiters: Type.Array(Type.String()),
});

export const TranslationList = Type.Object({
  untokenizedSource: Type.String(),
  /** The source's words and punctuation, separated by single spaces. */
  tokenizedSource: Type.String(),
  sourceDelimiters: Type.Array(Type.String()),
  /** Memory matches first, best first, then the machine translation. */
  translation: Type.Array(Translation),
});

export const UsageAnswer = Type.Object({
  /** Per engine: characters sent to it, characters answered from the cache, and requests. */
  usage: Type.Array(
    Type.Object({
      provider: Type.String(),
      characters: Type.Integer(),
      cached_characters: Type.Integer(),
      requests: Type.Integer(),
    }),
  ),
});

export const SuggestionQuery = Type.Object({
  memory_id: Type.Integer({ minimum: 1 }),
  /** The segment's source, tagged text. */
  source: Type.String({ maxLength: MAX_SOURCE_LENGTH }),
});

/** The machine translation of one segment, as the editor's matches panel shows it (extension). */
export const MtSuggestion = Type.Object({
  /** Whether any engine is configured (the editor says nothing of MT when none is). */
  configured: Type.Boolean(),
  /** The engine that translated it; null when none could. */
  provider: Type.Union([Type.String(), Type.Null()]),
  /** The translation with the source's tags; null when there is none (see `unavailable`). */
  target: Type.Union([Type.String(), Type.Null()]),
  /**
   * Why there is none: no engine, no pair, a failing or paused engine, or tags that could not be restored;
   * null when `target` is given.
   */
  unavailable: Type.Union([Type.String(), Type.Null()]),
});

// GET /v2/translate/repairs's schemas live in repair-schemas.ts; the web reads API types from here (types
// only: a value re-export would make the two modules import each other).
export type * from './repair-schemas.ts';
