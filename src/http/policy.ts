// Which role may call which route of the API: one table, enforced once for every request by a hook that runs
// after authentication. A route of /v2 that the table does not name is refused to everyone (and
// test/roles.test.ts fails on it), so a new route cannot ship open by omission. What a role may see *within*
// a route it may call — a translator only the documents assigned to them — is the services' part (the
// documents service's documentAccess), answered as 404 like another organization's resource.
import fp from 'fastify-plugin';
import { errors } from '../errors.ts';
import { ROLES, type Role } from './principal.ts';
import type { App } from './types.ts';

const EVERYONE: readonly Role[] = ROLES;
/** Admins and project managers: projects, jobs, memories, assignments, exports. */
const MANAGERS: readonly Role[] = ['admin', 'project_manager'];
const ADMINS: readonly Role[] = ['admin'];
/** Those who review: reviewers, and the managers who may stand in for them. */
const REVIEWERS: readonly Role[] = ['admin', 'project_manager', 'reviewer'];

/** A route answered without credentials (src/http/auth.ts decides which). */
export const PUBLIC = 'public';

/**
 * Every route of the API as "METHOD /path" (the route's pattern; HEAD is GET's). Translators and reviewers
 * read and edit the documents assigned to them, look up the memories behind them, and manage their own
 * password and keys; everything that exports, deletes, pre-translates or manages is for managers.
 */
export const ROUTE_POLICY: Readonly<Record<string, readonly Role[] | typeof PUBLIC>> = {
  'GET /v2/openapi.json': PUBLIC,
  'POST /v2/session': PUBLIC,
  'DELETE /v2/session': PUBLIC,
  'GET /v2': EVERYONE,
  'GET /v2/': EVERYONE,
  'GET /v2/languages': EVERYONE,
  'GET /v2/me': EVERYONE,
  'PUT /v2/me/password': EVERYONE,
  // Keys: a non-admin sees and revokes only their own (the users service).
  'GET /v2/keys': EVERYONE,
  'POST /v2/keys': EVERYONE,
  'DELETE /v2/keys': EVERYONE,
  // Managers list the users to assign them; only admins change them.
  'GET /v2/users': MANAGERS,
  'POST /v2/users': ADMINS,
  'PUT /v2/users': ADMINS,
  'GET /v2/tasks': EVERYONE,
  'GET /v2/events': EVERYONE,

  // Memories: lookups serve the editor; their contents as a whole (entries, export, sync) and changes are
  // managers'.
  'GET /v2/memories': EVERYONE,
  'GET /v2/memories/query': EVERYONE,
  'GET /v2/memories/concordance': EVERYONE,
  // Machine translation: whoever may look up a memory may have a segment translated with it; the usage
  // (what MT costs) is the managers'.
  'POST /v2/translate': EVERYONE,
  'GET /v2/translate/suggestion': EVERYONE,
  'GET /v2/translate/repairs': EVERYONE,
  'GET /v2/translate/usage': MANAGERS,
  // Instant Translate works on the organization's uploaded files, which are the managers'.
  'POST /v2/translate/file': MANAGERS,
  'GET /v2/translate/file': MANAGERS,
  'GET /v2/translate/files': MANAGERS,
  // The organization's engines hold its providers' keys and what MT may cost it: its admins'.
  'GET /v2/translate/engines': ADMINS,
  'POST /v2/translate/engines': ADMINS,
  'PUT /v2/translate/engines/order': ADMINS,
  'PUT /v2/translate/engines/:engineId': ADMINS,
  'DELETE /v2/translate/engines/:engineId': ADMINS,
  'POST /v2/translate/engines/:engineId/test': ADMINS,
  'PUT /v2/translate/limit': ADMINS,
  'POST /v2/memories': MANAGERS,
  'PUT /v2/memories': MANAGERS,
  'DELETE /v2/memories': MANAGERS,
  'GET /v2/memories/entries': MANAGERS,
  'GET /v2/memories/entries/history': MANAGERS,
  'GET /v2/memories/export': MANAGERS,
  'GET /v2/memories/sync': MANAGERS,
  'PUT /v2/memories/segment': MANAGERS,
  'DELETE /v2/memories/segment': MANAGERS,
  'POST /v2/memories/import': MANAGERS,
  // Terminology: whoever translates reads the termbase (and the lexicon built on it); managers change it,
  // import it and export it whole.
  'GET /v2/memories/terms': EVERYONE,
  'GET /v2/memories/terms/candidates': MANAGERS,
  'GET /v2/lexicon': EVERYONE,
  'POST /v2/memories/terms': MANAGERS,
  'PUT /v2/memories/terms': MANAGERS,
  'DELETE /v2/memories/terms': MANAGERS,
  'POST /v2/memories/terms/import': MANAGERS,
  'GET /v2/memories/terms/export': MANAGERS,
  'POST /v2/memories/termbase/export': MANAGERS,
  'GET /v2/memories/termbase/download': MANAGERS,
  'POST /v2/lexicon': MANAGERS,

  // Projects: a linguist sees those holding a document assigned to them (the projects service).
  'GET /v2/projects': EVERYONE,
  'GET /v2/projects/status': EVERYONE,
  'GET /v2/projects/segmentation': EVERYONE,
  'POST /v2/projects': MANAGERS,
  'PUT /v2/projects': MANAGERS,
  'DELETE /v2/projects': MANAGERS,
  'PUT /v2/projects/segmentation': MANAGERS,
  'DELETE /v2/projects/segmentation': MANAGERS,
  'GET /v2/projects/quote': MANAGERS,

  // Documents: a linguist reads, edits and downloads the ones assigned to them.
  'GET /v2/documents': EVERYONE,
  'GET /v2/documents/segments': EVERYONE,
  'GET /v2/documents/words': EVERYONE,
  'GET /v2/documents/qa': EVERYONE,
  'GET /v2/documents/terms': EVERYONE,
  'GET /v2/documents/files': EVERYONE,
  'POST /v2/documents/replace': EVERYONE,
  'POST /v2/documents/replace/undo': EVERYONE,
  'PUT /v2/documents': MANAGERS,
  'DELETE /v2/documents': MANAGERS,
  'POST /v2/documents/files': MANAGERS,
  'POST /v2/documents/pretranslate': MANAGERS,

  // Segments of documents (the segments service checks the document's assignment and stage).
  'GET /v2/segments': EVERYONE,
  'POST /v2/segments': EVERYONE,
  'PUT /v2/segments': EVERYONE,
  'GET /v2/segments/history': EVERYONE,
  'POST /v2/segments/restore': EVERYONE,
  'POST /v2/segments/join': EVERYONE,
  'POST /v2/segments/split': EVERYONE,
  'DELETE /v2/segments': MANAGERS,

  // Files and jobs: a manager's business.
  'GET /v2/files': MANAGERS,
  'POST /v2/files': MANAGERS,
  'DELETE /v2/files': MANAGERS,
  'GET /v2/files/download': MANAGERS,
  'POST /v2/files/labels': MANAGERS,
  'DELETE /v2/files/labels': MANAGERS,
  'GET /v2/jobs': MANAGERS,
  'POST /v2/jobs': MANAGERS,
  'GET /v2/jobs/:jobId': MANAGERS,
  'PUT /v2/jobs/:jobId': MANAGERS,
  'DELETE /v2/jobs/:jobId': MANAGERS,
  'POST /v2/jobs/:jobId/stats': MANAGERS,
  'GET /v2/jobs/:jobId/stats.csv': MANAGERS,
  'POST /v2/jobs/:jobId/archive': MANAGERS,
  'POST /v2/jobs/:jobId/unarchive': MANAGERS,
  'POST /v2/jobs/:jobId/deliver': MANAGERS,
  'GET /v2/jobs/:jobId/download': MANAGERS,
  'POST /v2/jobs/:jobId/reactivate': MANAGERS,
  'GET /v2/jobs/:jobId/export': MANAGERS,
  'GET /v2/analysis/weights': MANAGERS,
  'PUT /v2/analysis/weights': ADMINS,

  // Workflow (src/modules/workflows): templates are read by all; assignment and locks are managers'; the
  // hand-offs are the assignees' (the workflows service checks which stage is theirs).
  'GET /v2/workflows/templates': EVERYONE,
  'PUT /v2/documents/share': MANAGERS,
  'POST /v2/documents/done/translation': EVERYONE,
  'POST /v2/documents/done/review': EVERYONE,
  'POST /v2/documents/done/unlock': MANAGERS,
  'POST /v2/segments/review/unlock': MANAGERS,
  'POST /v2/segments/lock': MANAGERS,

  // Comments and notifications: everyone who may see the document (the comments service checks it); one's
  // own notifications only. Sending a segment back is a reviewer's (or a manager's) act.
  'GET /v2/comments': EVERYONE,
  'POST /v2/comments': EVERYONE,
  'PUT /v2/comments': EVERYONE,
  'DELETE /v2/comments': EVERYONE,
  'GET /v2/notifications': EVERYONE,
  'POST /v2/notifications/read': EVERYONE,
  'POST /v2/segments/reject': REVIEWERS,

  // Review and quality: annotating errors is the reviewers'; reading them, the score and the report is open to
  // whoever sees the document (a translator learns from them); the threshold and the words per person are
  // the managers'.
  'GET /v2/quality/annotations': EVERYONE,
  'POST /v2/quality/annotations': REVIEWERS,
  'PUT /v2/quality/annotations': REVIEWERS,
  'DELETE /v2/quality/annotations': REVIEWERS,
  'GET /v2/quality/score': EVERYONE,
  'GET /v2/quality/report': EVERYONE,
  'GET /v2/quality/report.csv': EVERYONE,
  'GET /v2/quality/settings': EVERYONE,
  'PUT /v2/quality/settings': MANAGERS,
  'GET /v2/review/baselines': EVERYONE,
  'GET /v2/review/progress': MANAGERS,
};

/** The policy's key of a route: its method (HEAD as GET) and pattern. */
export function policyKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

export interface ApiRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of /v2 registered on the app (HEAD routes left out), in registration order. */
    apiRoutes: ApiRoute[];
  }
}

/** Registered first, so that it sees every route; its check runs once the principal is known. */
export const policyPlugin = fp(async (app: App) => {
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v2')) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url });
    }
  });
  // preParsing: after every onRequest hook (authentication, the rate limit), before the body is read or
  // validated, so that a role refused is told so whatever it sent.
  app.addHook('preParsing', async (request) => {
    const principal = request.principal;
    const url = request.routeOptions.url;
    // Public routes and what is not the API (probes, the web application, its catch-all answering an unknown
    // /v2 path with 404) are not the policy's.
    if (!principal || url === undefined || !url.startsWith('/v2')) return;
    const allowed = ROUTE_POLICY[policyKey(request.method, url)];
    if (allowed === undefined) {
      request.log.error({ route: policyKey(request.method, url) }, 'route without a policy refused');
      throw errors.forbidden('This operation is not open to any role');
    }
    if (allowed === PUBLIC || allowed.includes(principal.role)) return;
    throw errors.forbidden(`This operation needs the role ${allowed.join(' or ')}`);
  });
});
