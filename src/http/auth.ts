// Authentication of every /v2 request: ?key=, Basic (key:key or username:password), or Bearer.
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../errors.ts';
import type { Principal } from '../modules/users/service.ts';
import { authenticateKey, authenticatePassword } from '../modules/users/service.ts';
import type { Db } from '../store/db.ts';
import type { App } from './types.ts';

/** Paths that answer without credentials: probes, metrics and the API reference. */
export function isPublicPath(url: string): boolean {
  const path = url.split('?')[0];
  return !path.startsWith('/v2') || path === '/v2/openapi.json';
}

type Credentials = { kind: 'key'; key: string } | { kind: 'password'; username: string; password: string };

/** Reads the credentials a request carries; null when none or malformed. */
export function readCredentials(request: FastifyRequest): Credentials | null {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && Object.hasOwn(query, 'key')) {
    const key = query.key;
    return typeof key === 'string' && key !== '' ? { kind: 'key', key } : null;
  }
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (!value) return null;
  if (/^bearer$/i.test(scheme)) return { kind: 'key', key: value };
  if (!/^basic$/i.test(scheme)) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (password === '') return null;
  // The Lilt convention: the API key as both user and password.
  if (user === password) return { kind: 'key', key: user };
  return { kind: 'password', username: user, password };
}

// A password check costs a scrypt (~50 ms); a client sending Basic user:password on every request would pay
// it each time. Successful logins are remembered briefly by a hash of the credentials, never in clear.
const PASSWORD_CACHE_MS = 60_000;

export const authPlugin = fp(async (app: App, options: { db: Db }) => {
  const passwordCache = new Map<string, { principal: Principal; until: number }>();

  async function authenticate(credentials: Credentials): Promise<Principal | null> {
    if (credentials.kind === 'key') return authenticateKey(options.db, credentials.key);
    const cacheKey = createHash('sha256')
      .update(`${credentials.username}\0${credentials.password}`)
      .digest('hex');
    const cached = passwordCache.get(cacheKey);
    if (cached && cached.until > Date.now()) return cached.principal;
    const principal = await authenticatePassword(options.db, credentials.username, credentials.password);
    if (principal) {
      if (passwordCache.size > 10_000) passwordCache.clear();
      passwordCache.set(cacheKey, { principal, until: Date.now() + PASSWORD_CACHE_MS });
    }
    return principal;
  }

  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (isPublicPath(request.url)) return;
    const credentials = readCredentials(request);
    const principal = credentials ? await authenticate(credentials) : null;
    if (!principal) throw errors.unauthorized();
    request.principal = principal;
  });
});
