// Per-API-key rate limit (requests a minute, a setting); 429 with Retry-After past it. Counted in the
// counters given (src/http/counters.ts), so that several processes on one store share one limit.
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { errors } from '../errors.ts';
import type { Counters } from './counters.ts';
import type { App } from './types.ts';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** @fastify/rate-limit's store interface over our counters. */
function storeOver(counters: Counters) {
  return class CountersStore {
    incr(key: string, callback: Callback, timeWindow: number) {
      counters.increment(key, timeWindow).then(
        (c) => callback(null, { current: c.count, ttl: c.resetMs }),
        (err: Error) => callback(err),
      );
    }
    read(key: string, callback: Callback, timeWindow: number) {
      counters.read(key, timeWindow).then(
        (c) => callback(null, { current: c.count, ttl: c.resetMs }),
        (err: Error) => callback(err),
      );
    }
    child() {
      return this;
    }
  };
}

export const rateLimitPlugin = fp(async (app: App, options: { max: number; counters: Counters }) => {
  await app.register(rateLimit, {
    global: true,
    // After authentication, so the limit counts per key (or per user for password logins).
    hook: 'preHandler',
    max: options.max,
    timeWindow: 60_000,
    store: storeOver(options.counters),
    allowList: (request) => request.principal === null,
    keyGenerator: (request) => {
      const p = request.principal;
      if (!p) return 'public';
      return p.keyId !== null ? `rate:key:${p.keyId}` : `rate:user:${p.userId}`;
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
