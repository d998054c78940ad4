// The one minimum score and the one set of score bands: the query's threshold, pre-translation, the leverage
// analysis, the API's parameter schemas and the web application all read them from here.

/** No match scoring below this is ever returned or used (Lilt's fixed threshold). */
export const MIN_SCORE = 75;

/** The score of an exact match: the two strings are identical after NFC. */
export const EXACT_SCORE = 100;

/** The bands a best score falls in, as a CAT tool's analysis counts them; `new` is below MIN_SCORE or none. */
export type ScoreBand = 'exact' | 'fuzzy95' | 'fuzzy85' | 'fuzzy75' | 'new';

/** Each match band with its lowest score and its label, best first; a score is in the first band it reaches. */
export const MATCH_BANDS: readonly { band: Exclude<ScoreBand, 'new'>; min: number; label: string }[] = [
  { band: 'exact', min: EXACT_SCORE, label: '100%' },
  { band: 'fuzzy95', min: 95, label: '95–99%' },
  { band: 'fuzzy85', min: 85, label: '85–94%' },
  { band: 'fuzzy75', min: MIN_SCORE, label: '75–84%' },
];

/** The band of a best score (null: no match). */
export function scoreBand(score: number | null): ScoreBand {
  if (score === null) return 'new';
  return MATCH_BANDS.find((b) => score >= b.min)?.band ?? 'new';
}
