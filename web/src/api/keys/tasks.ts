// Query key of a background task (an import) followed until it ends.
export const taskKey = (taskId: number | null) => ['task', taskId] as const;
