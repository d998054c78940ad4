// The roles by name, and which of them manage: pure, for the pages and the workflow's checks alike.
import type { Role } from '../api/types.ts';

/** The roles an admin gives, in the order the Admin page lists them ('member' is the old project_manager). */
export const ROLE_LABELS: Record<Exclude<Role, 'member'>, string> = {
  admin: 'Admin',
  project_manager: 'Project manager',
  translator: 'Translator',
  reviewer: 'Reviewer',
};

/** Admins and project managers: projects, jobs, memories, assignments, exports. */
export function isManager(role: Role): boolean {
  return role === 'admin' || role === 'project_manager' || role === 'member';
}

export function roleLabel(role: Role): string {
  return role === 'member' ? ROLE_LABELS.project_manager : ROLE_LABELS[role];
}
