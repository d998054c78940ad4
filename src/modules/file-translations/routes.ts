// Lilt's Instant Translate: POST /v2/translate/file (start), GET /v2/translate/file (monitor),
// GET /v2/translate/files (download the translated file).
import { Type } from 'typebox';
import { sendAttachment } from '../../http/attachments.ts';
import { principalOf } from '../../http/principal.ts';
import { IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { MonitorQuery, TranslateFileQuery, TranslationInfo } from './schemas.ts';
import * as service from './service.ts';

export async function fileTranslationsRoutes(app: App, deps: service.FileTranslationDeps) {
  const tags = ['translate'];

  app.post(
    '/v2/translate/file',
    {
      schema: {
        summary:
          'Translate uploaded files in the background with a memory’s matches and machine translation (Lilt’s Instant Translate)',
        tags,
        querystring: TranslateFileQuery,
        response: { 200: Type.Array(TranslationInfo) },
      },
    },
    async (request) => service.translateFiles(deps, principalOf(request), request.query),
  );

  app.get(
    '/v2/translate/file',
    {
      schema: {
        summary: 'File translations by ids, status or start time (at least one)',
        tags,
        querystring: MonitorQuery,
        response: { 200: Type.Array(TranslationInfo) },
      },
    },
    async (request) => service.monitorTranslations(deps, principalOf(request), request.query),
  );

  app.get(
    '/v2/translate/files',
    {
      schema: {
        summary: 'The translated file, in its original format, of a translation ReadyForDownload',
        tags,
        querystring: IdQuery,
        produces: ['application/octet-stream'],
      },
    },
    async (request, reply) =>
      sendAttachment(reply, await service.downloadTranslation(deps, principalOf(request), request.query.id)),
  );
}
