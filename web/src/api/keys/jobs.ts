// Query keys of Lilt's jobs and a job's leverage analysis.
export const jobsKey = ['jobs'] as const;
/** Every job's analysis: new weights weigh each of them again. */
export const everyJobStatsKey = ['job-stats'] as const;
export const jobStatsKey = (jobId: number | undefined) => [...everyJobStatsKey, jobId] as const;
/** The organization's analysis weights: a change re-weighs every analysis shown. */
export const analysisWeightsKey = ['analysis-weights'] as const;
