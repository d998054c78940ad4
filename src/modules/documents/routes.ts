// /v2/documents: upload, read, rename, delete, pre-translate, export.
import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import { principalOf } from '../../http/types.ts';
import { acceptFileBodies } from '../../http/uploads.ts';
import type { Worker } from '../../jobs/worker.ts';
import type { Db } from '../../store/db.ts';
import { Deleted, IdQuery } from '../memories/schemas.ts';
import { exportDocument } from './export.ts';
import { Document } from './schemas.ts';
import * as service from './service.ts';

export async function documentsRoutes(app: App, options: { db: Db; worker: Worker; maxUploadBytes: number }) {
  const { db } = options;
  const tags = ['documents'];

  app.get(
    '/v2/documents',
    {
      schema: {
        summary: 'A document, with its segments when asked',
        tags,
        querystring: Type.Object({
          id: Type.Integer({ minimum: 1 }),
          with_segments: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Document },
      },
    },
    async (request) =>
      service.getDocument(db, principalOf(request), request.query.id, request.query.with_segments ?? false),
  );

  app.put(
    '/v2/documents',
    {
      schema: {
        summary: 'Rename a document',
        tags,
        body: Type.Object({ id: Type.Integer({ minimum: 1 }), name: Type.String() }),
        response: { 200: Document },
      },
    },
    async (request) => service.renameDocument(db, principalOf(request), request.body.id, request.body.name),
  );

  app.delete(
    '/v2/documents',
    { schema: { summary: 'Delete a document', tags, querystring: IdQuery, response: { 200: Deleted } } },
    async (request) => service.deleteDocument(db, principalOf(request), request.query.id),
  );

  app.post(
    '/v2/documents/pretranslate',
    {
      schema: {
        summary: 'Pre-translate documents from their project memory; runs as a job per document',
        tags,
        body: Type.Object({
          id: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }),
          auto_accept: Type.Optional(Type.Boolean()),
          case_sensitive: Type.Optional(Type.Boolean()),
          attribute_to_creator: Type.Optional(Type.Boolean()),
          mode: Type.Optional(Type.Union([Type.Literal('tm'), Type.Literal('TM')])),
        }),
        response: {
          202: Type.Object({
            id: Type.Array(Type.Integer()),
            is_pretranslating: Type.Boolean(),
            documents: Type.Array(Document),
          }),
        },
      },
    },
    async (request, reply) => {
      const answer = await service.requestPretranslation(db, principalOf(request), request.body.id, {
        auto_accept: request.body.auto_accept ?? false,
        case_sensitive: request.body.case_sensitive ?? false,
        attribute_to_creator: request.body.attribute_to_creator ?? false,
      });
      options.worker.wake();
      return reply.code(202).send(answer);
    },
  );

  app.get(
    '/v2/documents/files',
    {
      schema: {
        summary: 'Export a document: XLIFF 1.2 (default) or the original format with translations merged',
        tags,
        querystring: Type.Object({
          id: Type.Integer({ minimum: 1 }),
          is_xliff: Type.Optional(Type.Boolean()),
        }),
        produces: ['application/xliff+xml', 'application/octet-stream'],
      },
    },
    async (request, reply) => {
      const result = await exportDocument(
        db,
        principalOf(request),
        request.query.id,
        request.query.is_xliff ?? true,
      );
      const ascii = result.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
      reply
        .type(result.contentType)
        .header(
          'Content-Disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(result.fileName)}`,
        );
      return reply.send(result.body);
    },
  );

  await app.register(async (uploads: App) => {
    await acceptFileBodies(uploads, options.maxUploadBytes);
    uploads.post(
      '/v2/documents/files',
      {
        schema: {
          summary: 'Upload a document into a project; it is parsed by its format filter as a job',
          description:
            'Raw file body; name, project_id, pretranslate (TM), auto_accept, case_sensitive in the LILT-API JSON header, individual headers, or the query. multipart/form-data is accepted too.',
          tags,
          response: { 200: Document },
        },
      },
      async (request) => {
        const answer = await service.uploadDocument(
          db,
          principalOf(request),
          request,
          options.maxUploadBytes,
        );
        options.worker.wake();
        return answer;
      },
    );
  });
}
