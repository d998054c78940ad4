// GET /v2/languages: supported source → target pairs and the names of their languages.
import type { App } from '../../http/types.ts';
import { LanguagesAnswer } from './schemas.ts';
import type { Languages } from './service.ts';

export async function languagesRoutes(app: App, options: { languages: Languages }) {
  app.get(
    '/v2/languages',
    {
      schema: {
        summary: 'Supported source/target language pairs and language names',
        tags: ['languages'],
        response: { 200: LanguagesAnswer },
      },
    },
    async () => options.languages.answer,
  );
}
