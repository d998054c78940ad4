// What the signed-in caller's role lets them do in the web application: the server's route policy
// (src/http/policy.ts) decides; the pages leave out what a role cannot do rather than offer it and fail.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { meKey } from '../api/keys/users.ts';
import type { Caller } from '../api/types.ts';

export { isManager, mayReview, ROLE_LABELS, roleLabel } from './role-names.ts';

/** The signed-in caller (the shell has read it before any page shows). */
export function useCaller(): Caller {
  const me = useQuery({ queryKey: meKey, queryFn: api.me, staleTime: Number.POSITIVE_INFINITY });
  return me.data!;
}
