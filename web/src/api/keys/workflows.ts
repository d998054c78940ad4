// Query keys of the workflow: the templates (GET /v2/workflows/templates), the same for the whole session.
export const workflowTemplatesKey = ['workflow-templates'] as const;
