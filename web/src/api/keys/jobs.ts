// Query keys of Lilt's jobs and a job's leverage analysis.
export const jobsKey = ['jobs'] as const;
export const jobStatsKey = (jobId: number | undefined) => ['job-stats', jobId] as const;
/** The organization's analysis weights: a change re-weighs every analysis shown. */
export const analysisWeightsKey = ['analysis-weights'] as const;
