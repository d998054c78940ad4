// TypeBox schemas of Lilt's Jobs resource (docs/FILES-AND-JOBS.md: the fields of Lilt's OpenAPI document and SDK
// models, camelCase as Lilt sends them; dates as ISO 8601 strings) and the jobs routes' parameters.
import { type TSchema, Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.ts';
import { ANALYSIS_BANDS, type AnalysisBand } from '../../matching/score-bands.ts';
import { AutoAcceptScope } from '../documents/schemas.ts';

const IsoDate = Type.String({ format: 'date-time' });
const Int = Type.Integer();

export const JobProject = Type.Object({
  id: Int,
  name: Type.String(),
  srcLang: Type.String(),
  srcLocale: Nullable(Type.String()),
  trgLang: Type.String(),
  trgLocale: Nullable(Type.String()),
  due: Nullable(IsoDate),
  isComplete: Type.Boolean(),
  isArchived: Type.Boolean(),
  isDeleted: Type.Boolean(),
  state: Type.String(),
  numSourceTokens: Int,
  createdAt: IsoDate,
  updatedAt: IsoDate,
  memoryId: Int,
  workflowStatus: Type.String(),
  workflowName: Nullable(Type.String()),
});

export const JobStats = Type.Object({
  sourceWords: Int,
  exactWords: Int,
  fuzzyWords: Int,
  newWords: Int,
  numProjects: Int,
  numLanguagePairs: Int,
  uniqueLanguagePairs: Int,
  numDeliveredProjects: Int,
  percentTranslated: Int,
  percentReviewed: Int,
  uniqueLinguists: Int,
  workflowStatus: Type.String(),
  projects: Type.Array(JobProject),
});

export const Job = Type.Object({
  id: Int,
  name: Type.String(),
  creationStatus: StringEnum(['PENDING', 'COMPLETE', 'FAILED']),
  status: StringEnum(['active', 'delivered', 'archived']),
  due: Nullable(IsoDate),
  deliveredAt: Nullable(IsoDate),
  /** 1 while an export runs, 0 when idle, -2 when the last export failed. */
  isProcessing: Int,
  stats: JobStats,
  /** Extensions: the source language, why creation or the last export failed, and when the job was made. */
  srcLang: Type.String(),
  srcLocale: Nullable(Type.String()),
  processingErrorMsg: Nullable(Type.String()),
  /** Extension: a zip of an export is ready for GET /v2/jobs/{jobId}/download (false before the first). */
  exportReady: Type.Boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});

/**
 * An ISO 8601 string, or epoch milliseconds (Lilt's Node SDK types due dates as numbers). Null comes first:
 * the validator coerces types branch by branch, and a number branch tried first turns null into 0.
 */
const OptionalDate = Type.Optional(Type.Union([Type.Null(), Type.Number(), Type.String({ maxLength: 40 })]));

export const LanguagePair = Type.Object({
  trgLang: Type.String({ minLength: 2, maxLength: 20 }),
  memoryId: Type.Integer({ minimum: 1 }),
  trgLocale: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  dueDate: OptionalDate,
  pretranslate: Type.Optional(Nullable(Type.Boolean())),
  autoAccept: Type.Optional(Nullable(Type.Boolean())),
  /** What autoAccept confirms: exact matches (the default) or context matches only (extension). */
  autoAcceptScope: Type.Optional(Nullable(AutoAcceptScope)),
  /** Accepted for Lilt's clients; it widens nothing: auto-accept takes exact matches only. */
  caseSensitive: Type.Optional(Nullable(Type.Boolean())),
  /** The pair's workflow template (GET /v2/workflows/templates): its project's. */
  workflowTemplateId: Type.Optional(Type.Unknown()),
  // Lilt's machine-translation, workflow and configuration fields: accepted and ignored.
  takeMatchAttribution: Type.Optional(Type.Unknown()),
  externalModelId: Type.Optional(Type.Unknown()),
  configId: Type.Optional(Type.Unknown()),
  workflowTemplateName: Type.Optional(Type.Unknown()),
  workflowStageAssignments: Type.Optional(Type.Unknown()),
});

export const CreateJobBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 500 }),
  fileIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }),
  srcLang: Type.String({ minLength: 2, maxLength: 20 }),
  srcLocale: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  languagePairs: Type.Array(LanguagePair, { minItems: 1, maxItems: 200 }),
  due: OptionalDate,
  isPlural: Type.Optional(Type.Unknown()),
  /** The workflow template of every pair's project (a pair's own wins). */
  workflowTemplateId: Type.Optional(Type.Unknown()),
  domainId: Type.Optional(Type.Unknown()),
});

export const UpdateJobBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  dueDate: OptionalDate,
  // Lilt lets its own services set these; a client's values are accepted and ignored.
  isProcessing: Type.Optional(Type.Unknown()),
  processingErrorMsg: Type.Optional(Type.Unknown()),
});

export const JobParams = Type.Object({ jobId: Type.Integer({ minimum: 1 }) });

/** Lilt's POST /v2/jobs/{jobId}/{action}: one route each, with what it does to the job and its projects. */
export const JOB_ACTIONS = {
  archive: 'Archive the job and its projects',
  unarchive: 'Unarchive the job and its projects',
  deliver: 'Mark the job and its projects delivered',
  reactivate: 'Take a delivered job and its projects back into work',
} as const;
export type JobAction = keyof typeof JOB_ACTIONS;

export const ListJobsQuery = Type.Object({
  isArchived: Type.Optional(Type.Boolean()),
  isDelivered: Type.Optional(Type.Boolean()),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const ExportQuery = Type.Object({
  type: Type.Union([Type.Literal('files'), Type.Literal('memory')]),
});

/**
 * The analysis's bands, best first (extension): context (101 %) matches, exact (100 %), the fuzzy bands,
 * repetitions within the job, machine translation drafts, and new (ANALYSIS_BANDS of matching/score-bands.ts). Each segment counts in one.
 */
export const LEVERAGE_BANDS: readonly AnalysisBand[] = ANALYSIS_BANDS.map((b) => b.band);
export type LeverageBand = AnalysisBand;

const byBand = <T extends TSchema>(value: T) =>
  Type.Object(Object.fromEntries(LEVERAGE_BANDS.map((b) => [b, value])) as Record<LeverageBand, T>);

/** Words by match band: what translators are paid by (extension). */
export const LeverageBands = byBand(Int);

/**
 * The weights of the bands, in percent of a new word (extension): a weighted word count is each band's
 * words times its weight, summed — what a price per word is applied to.
 */
export const LeverageWeights = byBand(Type.Number({ minimum: 0, maximum: 1000 }));

/** One file of a language pair: its words and segments by band (extension). */
export const FileLeverage = Type.Object({
  documentId: Int,
  name: Type.String(),
  sourceWords: Int,
  segments: Int,
  bands: LeverageBands,
  bandSegments: LeverageBands,
  weightedWords: Type.Number(),
  /** The new words (band `new`) the pair's MT engine can draft: a tm+mt pre-translation's (extension). */
  mtAvailableWords: Int,
});

export const ProjectLeverage = Type.Object({
  id: Int,
  sourceWords: Int,
  exactWords: Int,
  fuzzyWords: Int,
  newWords: Int,
  srcLang: Type.String(),
  trgLang: Type.String(),
  memoryId: Int,
  bands: LeverageBands,
  /** Extensions: segments by band, the weighted words, and the same per file. */
  segments: Int,
  bandSegments: LeverageBands,
  weightedWords: Type.Number(),
  /**
   * Machine translation for the pair (extensions): the engine that serves it (null: none does, and
   * mtAvailableWords is 0), and the new words it can draft — band `new`, which a tm+mt pre-translation turns
   * into band `mt`. Read from the engine's pairs; nothing is translated to count them.
   */
  mtProvider: Nullable(Type.String()),
  mtAvailableWords: Int,
  files: Type.Array(FileLeverage),
});

export const JobLeverageStats = Type.Object({
  sourceWords: Int,
  exactWords: Int,
  fuzzyWords: Int,
  newWords: Int,
  projects: Type.Array(ProjectLeverage),
  bands: LeverageBands,
  /** Extensions: segments by band, the weighted words and the weights they were weighed with. */
  segments: Int,
  bandSegments: LeverageBands,
  weightedWords: Type.Number(),
  weights: LeverageWeights,
  /** The pairs' mtAvailableWords, summed (extension). */
  mtAvailableWords: Int,
});

/** PUT /v2/analysis/weights: every band's weight, or `reset` to go back to the defaults. */
export const UpdateWeightsBody = Type.Object({
  weights: Type.Optional(Type.Partial(LeverageWeights)),
  reset: Type.Optional(Type.Boolean()),
});

export const AnalysisWeights = Type.Object({
  weights: LeverageWeights,
  /** The defaults, for a client that offers to go back to them. */
  defaults: LeverageWeights,
  /** Whether the organization changed them. */
  custom: Type.Boolean(),
});

/** Lilt's MatchBand: a score range's words and segments. */
export const MatchBand = Type.Object({
  minimum_score: Int,
  maximum_score: Int,
  num_source_words: Int,
  num_segments: Int,
});

const quoteFields = {
  num_source_words: Int,
  num_words_new: Int,
  num_segments_new: Int,
  num_words_repetition: Int,
  num_segments_repetition: Int,
  /** Extensions: the words and segments holding a machine translation draft (the analysis's band `mt`). */
  num_words_mt: Int,
  num_segments_mt: Int,
  bands: Type.Array(MatchBand),
  /** Extension: the weighted words (LeverageWeights). */
  weighted_words: Type.Number(),
};

/** Lilt's DocumentQuote. */
export const DocumentQuote = Type.Object({ id: Int, ...quoteFields });

/** Lilt's ProjectQuote (GET /v2/projects/quote). */
export const ProjectQuote = Type.Object({
  id: Int,
  ...quoteFields,
  documents: Type.Array(DocumentQuote),
  /** Extension: the weights applied. */
  weights: LeverageWeights,
});

export const JobDeleted = Type.Object({ id: Int, deleted: Type.Boolean() });
