// How the web names a document's workflow stages (the server's `stage`: docs/API.md, Workflow).
import type { Stage } from '../api/types.ts';

export const STAGE_LABELS: Record<Stage, string> = {
  translate: 'Translation',
  review: 'Review',
  review2: 'Second review',
  done: 'Done',
};

/** Who works in a stage, as the assignment columns name them. */
export const ASSIGNEE_LABELS: Record<Exclude<Stage, 'done'>, string> = {
  translate: 'Translator',
  review: 'Reviewer',
  review2: 'Second reviewer',
};

/** The assignment flag of PUT /v2/documents/share for each stage. */
export const SHARE_FLAGS = {
  translate: 'is_translator',
  review: 'is_reviewer',
  review2: 'is_second_reviewer',
} as const;

export function stageLabel(stage: string): string {
  return STAGE_LABELS[stage as Stage] ?? stage;
}
