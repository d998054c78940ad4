// The workflow templates a project chooses from (Lilt's GET /v2/workflows/templates): which stages its
// documents go through, in order. Fixed for every organization; a project names one by id.

export interface WorkflowTemplate {
  id: number;
  name: string;
  /** The stages in order, by the names documents carry in `stage` (documents/assignments.ts). */
  stages: readonly ('translate' | 'review' | 'review2')[];
}

export const WORKFLOW_TEMPLATES: readonly WorkflowTemplate[] = Object.freeze([
  { id: 1, name: 'Translate only', stages: ['translate'] },
  { id: 2, name: 'Translate > Review', stages: ['translate', 'review'] },
  { id: 3, name: 'Translate > Review > Second review', stages: ['translate', 'review', 'review2'] },
]);

/** What a project takes when none is named: translate only, as every project worked before workflows. */
export const DEFAULT_WORKFLOW_TEMPLATE = 1;

export function workflowTemplate(id: number): WorkflowTemplate | undefined {
  return WORKFLOW_TEMPLATES.find((t) => t.id === id);
}
