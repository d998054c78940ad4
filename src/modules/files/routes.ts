// /v2/files: Lilt's Files — upload (raw body), list, delete, download, labels.
import { Type } from 'typebox';
import { sendAttachment } from '../../http/attachments.ts';
import { principalOf } from '../../http/principal.ts';
import { Deleted, IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { readUpload, uploadRoutes } from '../../http/uploads.ts';
import { FileUploadParams, LabelBody, LabelQuery, ListFilesQuery, SourceFile } from './schemas.ts';
import type { FileDeps } from './service.ts';
import * as service from './service.ts';

export async function filesRoutes(app: App, deps: FileDeps) {
  const { db } = deps;
  const tags = ['files'];

  app.get(
    '/v2/files',
    {
      schema: {
        summary: 'Source files, or the one with this id; labels: only files carrying them all',
        tags,
        querystring: ListFilesQuery,
        response: { 200: Type.Array(SourceFile) },
      },
    },
    async (request) => service.listFiles(db, principalOf(request), request.query),
  );

  app.delete(
    '/v2/files',
    { schema: { summary: 'Delete a source file', tags, querystring: IdQuery, response: { 200: Deleted } } },
    async (request) => service.deleteFile(db, principalOf(request), request.query.id),
  );

  app.get(
    '/v2/files/download',
    {
      schema: {
        summary: 'The bytes of a source file',
        tags,
        querystring: IdQuery,
        produces: ['application/octet-stream'],
      },
    },
    async (request, reply) =>
      sendAttachment(reply, await service.downloadFile(db, principalOf(request), request.query.id)),
  );

  app.post(
    '/v2/files/labels',
    { schema: { summary: 'Add a label to a source file', tags, querystring: LabelQuery, body: LabelBody } },
    async (request, reply) => {
      await service.addLabel(
        db,
        principalOf(request),
        request.query.id,
        request.query.name ?? request.body?.name,
      );
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/files/labels',
    { schema: { summary: 'Remove a label from a source file', tags, querystring: LabelQuery } },
    async (request, reply) => {
      await service.removeLabel(db, principalOf(request), request.query.id, request.query.name);
      return reply.code(204).send();
    },
  );

  await uploadRoutes(app, deps.maxUploadBytes, (uploads) => {
    uploads.post(
      '/v2/files',
      {
        schema: {
          summary: 'Upload a source file (raw body); its MD5 and its language are recorded',
          description:
            'name, file_hash, langId, project_id, category (API or REFERENCE) and labels (comma separated) in the query, the LILT-API JSON header or individual headers; multipart/form-data is accepted too.',
          tags,
          response: { 201: SourceFile },
        },
      },
      async (request, reply) => {
        const upload = await readUpload(request, FileUploadParams, deps.maxUploadBytes);
        return reply
          .code(201)
          .send(await service.uploadFile(deps, principalOf(request), upload.params, upload.file));
      },
    );
  });
}
