// Why the signed-in caller may not change the active segment's target, as the server would refuse it
// (docs/API.md, Roles and workflow): the editor makes the target read-only and says why, rather than let a
// translator type into a document that is in review and see every save fail.
import type { Role } from '../api/types.ts';
import { isManager } from '../auth/role-names.ts';
import { stageLabel } from './stages.ts';

export function readOnlyReason(
  caller: { role: Role; user_id: number },
  doc: { stage: string; assignees?: { stage: string; user_id: number }[] } | undefined,
  segment: { locked?: boolean; is_reviewed: boolean },
): string | undefined {
  if (segment.locked) return 'Locked by a project manager';
  if (!doc || isManager(caller.role)) return undefined;
  const mine = (doc.assignees ?? []).filter((a) => a.user_id === caller.user_id).map((a) => a.stage);
  // A finished workflow is nobody's stage: "in Done; you are assigned to Review" read badly.
  if (doc.stage === 'done') return 'The workflow is done; a project manager can reopen the document';
  if (!mine.includes(doc.stage)) {
    const yours = mine.length === 0 ? 'no stage' : mine.map(stageLabel).join(' and ');
    return `The document is in ${stageLabel(doc.stage)}; you are assigned to ${yours}`;
  }
  if (doc.stage === 'translate' && segment.is_reviewed) {
    return 'Signed off in review: a project manager can unlock it';
  }
  return undefined;
}
