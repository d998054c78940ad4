// Who is calling: the principal the auth plugin resolves once per /v2 request, and how routes read it.
import type { Role } from '../roles.ts';

export { LEGACY_MEMBER_ROLE, ROLES, type Role } from '../roles.ts';

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
