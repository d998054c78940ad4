// What the signed-in caller's role lets them do in the web application: the server's route policy
// (src/http/policy.ts) decides; the pages leave out what a role cannot do rather than offer it and fail.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { meKey } from '../api/keys/users.ts';
import type { Caller } from '../api/types.ts';

export { isManager, mayReview, ROLE_LABELS, roleLabel } from './role-names.ts';

/**
 * Who a page renders for between a sign-out and the sign-in page replacing it: a sign-out empties the caller
 * and drops the other queries, and a page still mounted (the editor, whose document query was just dropped)
 * may render once more before the shell unmounts it. It may do nothing: the least role, no user.
 */
const SIGNED_OUT: Caller = Object.freeze({
  user_id: 0,
  username: '',
  organization_id: 0,
  role: 'translator',
});

/** The signed-in caller (the shell has read it before any page shows). */
export function useCaller(): Caller {
  const me = useQuery({ queryKey: meKey, queryFn: api.me, staleTime: Number.POSITIVE_INFINITY });
  return me.data ?? SIGNED_OUT;
}
