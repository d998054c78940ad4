// GET /v2/translate/repairs (extension): fuzzy matches repaired by machine translation, for the editor.
import { principalOf } from '../../http/principal.ts';
import type { App } from '../../http/types.ts';
import { RepairList, RepairQuery } from './repair-schemas.ts';
import { type RepairDeps, repairedMatches } from './repair-service.ts';

export async function repairRoutes(app: App, deps: RepairDeps) {
  app.get(
    '/v2/translate/repairs',
    {
      schema: {
        summary:
          "A segment's fuzzy memory matches with the words that differ patched by machine translation (extension)",
        tags: ['translate'],
        querystring: RepairQuery,
        response: { 200: RepairList },
      },
    },
    async (request) => repairedMatches(deps, principalOf(request), request.query),
  );
}
