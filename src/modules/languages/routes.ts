// GET /v2/languages: supported source → target pairs and the names of their languages.
import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { Languages } from './service.ts';

const LanguagesSchema = Type.Object({
  source_to_target: Type.Record(Type.String(), Type.Record(Type.String(), Type.Boolean())),
  code_to_name: Type.Record(Type.String(), Type.String()),
});

export async function languagesRoutes(app: App, options: { languages: Languages }) {
  app.get(
    '/v2/languages',
    {
      schema: {
        summary: 'Supported source/target language pairs and language names',
        tags: ['languages'],
        response: { 200: LanguagesSchema },
      },
    },
    async () => options.languages.answer,
  );
}
