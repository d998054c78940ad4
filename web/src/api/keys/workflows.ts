// Query keys of the workflow: the templates a project chooses from (the same for the whole organization).
export const workflowTemplatesKey = ['workflow-templates'] as const;
