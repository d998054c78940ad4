// Per-API-key rate limit (requests a minute, a setting); 429 with Retry-After past it.
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { errors } from '../errors.ts';
import type { App } from './types.ts';

export const rateLimitPlugin = fp(async (app: App, options: { max: number }) => {
  await app.register(rateLimit, {
    global: true,
    // After authentication, so the limit counts per key (or per user for password logins).
    hook: 'preHandler',
    max: options.max,
    timeWindow: 60_000,
    allowList: (request) => request.principal === null,
    keyGenerator: (request) => {
      const p = request.principal;
      if (!p) return 'public';
      return p.keyId !== null ? `key:${p.keyId}` : `user:${p.userId}`;
    },
    addHeadersOnExceeding: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
    },
    errorResponseBuilder: (_request, context) =>
      errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
});
