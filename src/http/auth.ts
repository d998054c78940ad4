// Authentication of every /v2 request: ?key=, Basic (key:key or username:password), or Bearer.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../errors.ts';
import type { Principal } from './principal.ts';
import type { Attempt, SignInThrottle } from './sign-in-throttle.ts';
import type { App } from './types.ts';

/** How credentials become a principal (the users module provides these); null when they do not. */
export interface Authenticator {
  key(key: string): Promise<Principal | null>;
  password(username: string, password: string): Promise<Principal | null>;
  session(token: string): Promise<Principal | null>;
}

/** The cookie that carries a browser session's token (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'tessera_session';

/** The routes of the API that answer without credentials: its reference, and signing in and out. */
const PUBLIC_API_ROUTES = new Set(['/v2/openapi.json', '/v2/session']);

/** Whether a path is the API's: /v2 and below (a path such as /v2x is refused too rather than guessed). */
function isApiPath(path: string): boolean {
  return path.startsWith('/v2');
}

/**
 * Whether a request answers without credentials: probes, metrics, the web application, and the public routes
 * of the API. Decided once per request, by the auth hook, for every hook after it (the cross-site check,
 * the sign-in throttle, the rate limit). A request that matched a route of the API is decided by that
 * route's pattern, never by the spelling of its URL: the router decodes "/%76%32/memories" to the route
 * /v2/memories, so the raw URL cannot be trusted to say which route will answer. One that matched no route
 * of the API (the web application's catch-all, or none) is decided by its path decoded and folded the widest
 * way, so that anything that could read as /v2 asks for credentials and answers 401 rather than 404.
 */
export function isPublicRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined && isApiPath(route)) return PUBLIC_API_ROUTES.has(route);
  return !isApiPath(foldedPath(request.url));
}

/** A URL's path percent-decoded (when it decodes), runs of slashes and backslashes as one slash, lower case. */
function foldedPath(url: string): string {
  let path = url.split(/[?#]/, 1)[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    // Malformed escapes: the router refuses the URL; the raw text is judged.
  }
  return path.replace(/[/\\]+/g, '/').toLowerCase();
}

type Credentials =
  | { kind: 'key'; key: string }
  | { kind: 'password'; username: string; password: string }
  | { kind: 'session'; token: string };

/** The Set-Cookie value of a session: never readable by scripts, never sent by another site's pages. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'HttpOnly',
    'SameSite=Strict',
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** A cookie's value from the Cookie header, or undefined. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether a request comes from this server's own pages: its Origin is this server (the Host it was sent
 * to, or behind a trusted proxy the X-Forwarded-Host it was sent to). Browsers send Origin with every request
 * that can change something; a cross-site form cannot fake it.
 */
export function isSameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Reads the credentials a request carries; null when none or malformed. Explicit ones win over a cookie. */
export function readCredentials(request: FastifyRequest): Credentials | null {
  const explicit = readExplicitCredentials(request);
  if (explicit || request.headers.authorization !== undefined) return explicit;
  const token = cookieValue(request, SESSION_COOKIE);
  return token ? { kind: 'session', token } : null;
}

function readExplicitCredentials(request: FastifyRequest): Credentials | null {
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

export const authPlugin = fp(
  async (app: App, options: { authenticator: Authenticator; throttle: SignInThrottle }) => {
    const { throttle } = options;

    async function authenticate(credentials: Credentials): Promise<Principal | null> {
      if (credentials.kind === 'key') return options.authenticator.key(credentials.key);
      if (credentials.kind === 'session') return options.authenticator.session(credentials.token);
      return options.authenticator.password(credentials.username, credentials.password);
    }

    app.decorateRequest('principal', null);
    app.addHook('onRequest', async (request) => {
      if (isPublicRequest(request)) return;
      const credentials = readCredentials(request);
      // A session cookie is checked against cross-site use first: it is sent by the browser on its own.
      if (credentials?.kind === 'session' && !SAFE_METHODS.has(request.method) && !isSameOrigin(request)) {
        throw errors.csrfRefused();
      }
      if (credentials === null && request.headers.authorization === undefined) throw errors.unauthorized();
      // A session token (256 bits) is no guess; anything else presented counts, an unreadable Authorization
      // header as a wrong key.
      const principal =
        credentials?.kind === 'session'
          ? await authenticate(credentials)
          : await throttle.guard(attemptOf(request, credentials), async () =>
              credentials ? authenticate(credentials) : null,
            );
      if (!principal) throw errors.unauthorized();
      request.principal = principal;
    });
  },
);

/** What the throttle counts of a request's credentials (a session is never counted). */
function attemptOf(request: FastifyRequest, credentials: Credentials | null): Attempt {
  if (credentials?.kind === 'password') return { address: request.ip, username: credentials.username };
  if (credentials?.kind === 'key') return { address: request.ip, key: credentials.key };
  return { address: request.ip, key: request.headers.authorization ?? '' };
}
