// GET /v2/languages: supported source → target pairs and the names of their languages.
import { sendConstantJson } from '../../http/constant-body.ts';
import type { App } from '../../http/types.ts';
import { LanguagesAnswer } from './schemas.ts';
import type { Languages } from './service.ts';

export async function languagesRoutes(app: App, options: { languages: Languages }) {
  app.get(
    '/v2/languages',
    {
      schema: {
        summary: 'Supported source/target language pairs and language names',
        description:
          'The answer is the same for the life of the server: it carries an ETag (If-None-Match answers 304) and is gzip-compressed when the client accepts it.',
        tags: ['languages'],
        response: { 200: LanguagesAnswer },
      },
    },
    // The bytes made once by the service (serializing them per request cost ~10 ms of the event loop).
    async (request, reply) => sendConstantJson(request, reply, options.languages.body),
  );
}
