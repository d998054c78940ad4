// The roles by name, and which of them manage: pure, for the pages and the workflow's checks alike.
import type { Role } from '../api/types.ts';

/** The roles an admin gives, in the order the Admin page lists them (the API's old 'member' is stored as project_manager). */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  project_manager: 'Project manager',
  translator: 'Translator',
  reviewer: 'Reviewer',
};

/** Admins and project managers: projects, jobs, memories, assignments, exports. */
export function isManager(role: Role): boolean {
  return role === 'admin' || role === 'project_manager';
}

/** Those who review (src/http/policy.ts's REVIEWERS): reviewers, and the managers who may stand in for them. They
 * alone switch on review mode, annotate errors and send segments back. */
export function mayReview(role: Role): boolean {
  return role === 'reviewer' || isManager(role);
}

export function roleLabel(role: Role): string {
  return ROLE_LABELS[role];
}
