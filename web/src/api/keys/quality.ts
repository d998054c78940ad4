// Query keys of the quality evaluation and review: a document's annotations, score and report, a project's
// threshold, the translator's versions review mode compares with, and a project's progress per user.
export const annotationsKey = (documentId: number) => ['quality', documentId, 'annotations'] as const;
export const qualityScoreKey = (documentId: number) => ['quality', documentId, 'score'] as const;
export const qualityReportKey = (documentId: number) => ['quality', documentId, 'report'] as const;
/** Everything of a document's quality: an annotation changes its list, score and report together. */
export const qualityKey = (documentId: number) => ['quality', documentId] as const;
export const qualitySettingsKey = (projectId: number) => ['quality-settings', projectId] as const;
export const reviewBaselinesKey = (documentId: number) => ['review-baselines', documentId] as const;
export const reviewProgressKey = (projectId: number) => ['project', projectId, 'review-progress'] as const;
