// A project's workflow state, as Lilt names it.
export const PROJECT_STATES = Object.freeze(['backlog', 'inProgress', 'inReview', 'inQA', 'done'] as const);
export type ProjectState = (typeof PROJECT_STATES)[number];
