// What the signed-in caller's role lets them do in the web application: the server's route policy
// (src/http/policy.ts) decides; the pages leave out what a role cannot do rather than offer it and fail.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { meKey } from '../api/keys/users.ts';
import type { Caller, Role } from '../api/types.ts';

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

/** The signed-in caller (the shell has read it before any page shows). */
export function useCaller(): Caller {
  const me = useQuery({ queryKey: meKey, queryFn: api.me, staleTime: Number.POSITIVE_INFINITY });
  return me.data!;
}

export function roleLabel(role: Role): string {
  return role === 'member' ? ROLE_LABELS.project_manager : ROLE_LABELS[role];
}
