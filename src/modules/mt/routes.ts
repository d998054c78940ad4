// Machine translation: Lilt's POST /v2/translate (memory matches, then MT) and the usage counters.
import { principalOf } from '../../http/principal.ts';
import type { App } from '../../http/types.ts';
import { MtSuggestion, SuggestionQuery, TranslateBody, TranslationList, UsageAnswer } from './schemas.ts';
import * as service from './service.ts';

export async function mtRoutes(app: App, deps: service.MtDeps) {
  const tags = ['translate'];

  app.post(
    '/v2/translate',
    {
      schema: {
        summary:
          "Translate a segment: the memory's matches first, then machine translation (Lilt's TranslationList)",
        tags,
        body: TranslateBody,
        response: { 200: TranslationList },
      },
    },
    async (request) => service.translateSegment(deps, principalOf(request), request.body),
  );

  app.get(
    '/v2/translate/suggestion',
    {
      schema: {
        summary: "A segment's machine translation in the pair of a memory, for the editor (extension)",
        tags,
        querystring: SuggestionQuery,
        response: { 200: MtSuggestion },
      },
    },
    async (request) => service.mtSuggestion(deps, principalOf(request), request.query),
  );

  app.get(
    '/v2/translate/usage',
    {
      schema: {
        summary: 'Characters the organization had machine-translated, per engine (extension)',
        tags,
        response: { 200: UsageAnswer },
      },
    },
    async (request) => service.usage(deps, principalOf(request)),
  );
}
