// Query keys of projects: the list, and each project read alone (with its documents).
export const projectsKey = ['projects'] as const;
export const projectKey = (projectId: number | undefined) => ['project', projectId] as const;
/** Every project read alone: a confirmation changes the progress of whichever shows it. */
export const everyProjectKey = ['project'] as const;
/** A project's words by status (Lilt's project status): a confirmation changes them. */
export const projectStatusKey = (projectId: number | undefined) => ['project', projectId, 'status'] as const;
