// The web application's static files (web/dist, built by Vite at install): hashed assets cached for good,
// index.html revalidated, the app's routes answered with index.html, all under a strict Content-Security-Policy.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { App } from './types.ts';

/**
 * The header the web application sends with each of its API requests. A 401 answering such a request carries no
 * `WWW-Authenticate: Basic` challenge: a browser that sees one opens its own password prompt over the page
 * (or, headless, waits on it), where the application shows its sign-in form instead.
 */
export const WEB_CLIENT_HEADER = { name: 'x-requested-with', value: 'tessera-web' } as const;

/**
 * Nothing inline and nothing from elsewhere: scripts, styles, fonts and requests come from this server only.
 * One exception, for the page itself: CodeMirror writes its styles into a <style> element (constructable
 * stylesheets only inside shadow roots), so the page's styles may also come with the nonce of this response.
 */
export function contentSecurityPolicy(styleNonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    styleNonce ? `style-src 'self' 'nonce-${styleNonce}'` : "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Where index.html says the nonce goes (web/index.html); the application reads it from there. */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** Paths the application never answers with its page: the API, its reference, metrics and probes. */
const SERVER_PATHS = ['/v2', '/docs', '/metrics', '/healthz', '/readyz'];

/** web/dist of the installation: the folder holding package.json, above this module (src/, dist/ or a build). */
export function defaultWebRoot(from = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'web', 'dist');
    if (dirname(dir) === dir) return join(from, 'web', 'dist');
  }
}

function isServerPath(path: string): boolean {
  return SERVER_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

function acceptsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

export const webAppPlugin = fp(async (app: App, options: { root?: string }) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 401 && request.headers[WEB_CLIENT_HEADER.name] === WEB_CLIENT_HEADER.value) {
      reply.removeHeader('WWW-Authenticate');
    }
    return payload;
  });
  await app.register(staticApp, options);
});

/** Encapsulated: its hooks and reply.sendFile stay inside the application's own routes. */
async function staticApp(app: App, options: { root?: string }) {
  const root = options.root ?? defaultWebRoot();
  const built = existsSync(join(root, 'index.html'));

  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('Content-Security-Policy'))
      reply.header('Content-Security-Policy', contentSecurityPolicy());
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    return payload;
  });

  if (!built) {
    app.log.warn(
      { root },
      'web application not built (no index.html in its folder): serving the API only; run `npm run build`',
    );
    const notBuilt = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0];
      if (isServerPath(path) || !acceptsHtml(request)) return reply.callNotFound();
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send('The Tessera web application is not built: run `npm run build` where Tessera is installed.\n');
    };
    app.get('/', { schema: { hide: true } }, notBuilt);
    app.get('/*', { schema: { hide: true } }, notBuilt);
    return;
  }

  await app.register(fastifyStatic, { root, serve: false });
  // Read once: the page is small and every navigation of the app asks for it.
  const indexHtml = readFileSync(join(root, 'index.html'), 'utf8');
  const sendIndex = (reply: FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', contentSecurityPolicy(nonce))
      .send(indexHtml.replaceAll(NONCE_PLACEHOLDER, nonce));
  };

  // Vite names every asset by its content's hash: a changed file is a new name, so a cached one never goes stale.
  app.get('/assets/*', { schema: { hide: true } }, async (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    return reply.sendFile(`assets/${file}`, { immutable: true, maxAge: 31_536_000_000 });
  });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    if (isServerPath(path)) return reply.callNotFound();
    // A file of the build's top folder (favicon.svg); the app's own routes never hold a dot.
    if (path.includes('.')) {
      return path.lastIndexOf('/') === 0
        ? reply.sendFile(path.slice(1), { maxAge: 0 })
        : reply.callNotFound();
    }
    if (!acceptsHtml(request)) return reply.callNotFound();
    return sendIndex(reply);
  };
  app.get('/', { schema: { hide: true } }, page);
  app.get('/*', { schema: { hide: true } }, page);
}
