// The quality evaluation's vocabulary and arithmetic (MQM-Core, the Multidimensional Quality Metrics core
// typology): the error categories a reviewer annotates, the severities, the penalty each severity costs, and a
// document's score as penalty points per 1,000 source words. Pure, so that the server's report and the
// editor's Quality panel count the same way.

/** MQM-Core's top-level error dimensions, in the order the typology lists them. */
export const MQM_CATEGORIES = Object.freeze([
  'terminology',
  'accuracy',
  'linguistic_conventions',
  'style',
  'locale_conventions',
  'audience_appropriateness',
  'design_and_markup',
] as const);
export type MqmCategory = (typeof MQM_CATEGORIES)[number];

/** What a person reads for each category (the report, the CSV, the editor). */
export const MQM_CATEGORY_LABELS: Readonly<Record<MqmCategory, string>> = Object.freeze({
  terminology: 'Terminology',
  accuracy: 'Accuracy',
  linguistic_conventions: 'Linguistic conventions (fluency)',
  style: 'Style',
  locale_conventions: 'Locale conventions',
  audience_appropriateness: 'Audience appropriateness',
  design_and_markup: 'Design and markup',
});

export const MQM_SEVERITIES = Object.freeze(['minor', 'major', 'critical'] as const);
export type MqmSeverity = (typeof MQM_SEVERITIES)[number];

/**
 * Penalty points per error of each severity: MQM's scoring model weights (a minor error 1, a major one 5, a
 * critical one 25 — a critical error alone fails a short document, as it should: it makes the text unusable).
 */
export const MQM_PENALTIES: Readonly<Record<MqmSeverity, number>> = Object.freeze({
  minor: 1,
  major: 5,
  critical: 25,
});

/**
 * A project's pass threshold when it sets none: at most 10 penalty points per 1,000 words passes (ten minor
 * errors, or two major ones, in a thousand words).
 */
export const DEFAULT_PASS_THRESHOLD = 10;

export interface MqmScore {
  /** Source words of the document, as the analysis counts them. */
  words: number;
  penalty_points: number;
  /** penalty_points × 1,000 / words, rounded to two decimals (a document without words counts as one word). */
  points_per_1000_words: number;
  threshold: number;
  /** points_per_1000_words ≤ threshold. */
  pass: boolean;
}

export function penaltyPoints(annotations: readonly { severity: MqmSeverity }[]): number {
  return annotations.reduce((n, a) => n + MQM_PENALTIES[a.severity], 0);
}

export function mqmScore(
  annotations: readonly { severity: MqmSeverity }[],
  words: number,
  threshold: number,
): MqmScore {
  const points = penaltyPoints(annotations);
  const perThousand = Math.round(((points * 1000) / Math.max(words, 1)) * 100) / 100;
  return {
    words,
    penalty_points: points,
    points_per_1000_words: perThousand,
    threshold,
    pass: perThousand <= threshold,
  };
}
