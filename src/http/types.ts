// The Fastify instance type every module registers on: TypeBox schemas give validation and types.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Principal } from '../modules/users/service.ts';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

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
