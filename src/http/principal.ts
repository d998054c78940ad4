// Who is calling: the principal the auth plugin resolves once per /v2 request, and how routes read it.
/**
 * What a user may do (the route policy in policy.ts says which role may call which route): admins manage the
 * users and keys of their organization and may do everything else; project managers run projects, jobs,
 * memories, assignments and exports; translators and reviewers work on the documents assigned to them.
 */
export const ROLES = ['admin', 'project_manager', 'translator', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];

/** The role's name before there were four: accepted on input, stored as project_manager. */
export const LEGACY_MEMBER_ROLE = 'member';

/** A translator or reviewer: sees only what is assigned to them. */
export function isLinguist(principal: { role: Role }): boolean {
  return principal.role === 'translator' || principal.role === 'reviewer';
}

export interface Principal {
  organizationId: number;
  userId: number;
  username: string;
  role: Role;
  /**
   * The API key used — directly, or to sign in the session used — or null for a username/password login
   * (directly or through a session).
   */
  keyId: number | null;
  /** The session used (its id in the store), or null for a key or password sent with the request. */
  sessionId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set by the auth plugin on every /v2 route. */
    principal: Principal | null;
  }
}

/** The caller of an authenticated route (the auth hook guarantees one). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route reached without authentication');
  return request.principal;
}
