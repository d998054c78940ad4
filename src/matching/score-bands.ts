// The one minimum score and the one set of score bands: the query's threshold, pre-translation, the leverage
// analysis, the API's parameter schemas and the web application (its match colours and its analysis table)
// all read them from here.

/** No match scoring below this is ever returned or used (Lilt's fixed threshold). */
export const MIN_SCORE = 75;

/** The score of an exact match: the two strings are identical after NFC. */
export const EXACT_SCORE = 100;

/**
 * The score people read for a context match: exact, and in the same context (docs/MATCHING.md §2.6). The
 * server answers such a match with 100 and a flag; the analysis and the web show it as 101, as memoQ and Trados.
 */
export const CONTEXT_SCORE = 101;

/** Each match band with its lowest score and its label, best first; a score is in the first band it reaches. */
export const MATCH_BANDS = [
  { band: 'exact', min: EXACT_SCORE, label: '100%' },
  { band: 'fuzzy95', min: 95, label: '95–99%' },
  { band: 'fuzzy85', min: 85, label: '85–94%' },
  { band: 'fuzzy75', min: MIN_SCORE, label: '75–84%' },
] as const satisfies readonly { band: string; min: number; label: string }[];

export type MatchBand = (typeof MATCH_BANDS)[number]['band'];

/** The bands a best score falls in, as a CAT tool's analysis counts them; `new` is below MIN_SCORE or none. */
export type ScoreBand = MatchBand | 'new';

/** The band of a best score (null: no match). */
export function scoreBand(score: number | null): ScoreBand {
  if (score === null) return 'new';
  return MATCH_BANDS.find((b) => score >= b.min)?.band ?? 'new';
}

/**
 * The bands of a leverage analysis, best first, with the titles CAT tools give them: a context (101 %) match,
 * the match bands, repetitions within the job, machine translation, and new. Each segment counts in one.
 * `mt` is MateCat's "MT" band: a segment no memory match or repetition covers, holding a machine translation
 * draft (pre-translated by MT, not yet confirmed or edited) — post-editing, paid below a new word.
 */
export const ANALYSIS_BANDS = [
  { band: 'context', label: `${CONTEXT_SCORE}%` },
  ...MATCH_BANDS.map(({ band, label }) => ({ band, label })),
  { band: 'repetitions', label: 'Repetitions' },
  { band: 'mt', label: 'MT' },
  { band: 'new', label: 'New' },
] as const;

export type AnalysisBand = (typeof ANALYSIS_BANDS)[number]['band'];
