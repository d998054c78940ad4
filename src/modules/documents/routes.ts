// /v2/documents: upload, read, rename, delete, pre-translate, export.
import { sendAttachment } from '../../http/attachments.ts';
import { principalOf } from '../../http/principal.ts';
import { Deleted, IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { readUpload, uploadRoutes } from '../../http/uploads.ts';
import type { CommentsOfDocuments } from './comments-of-documents.ts';
import { documentTerms } from './document-glossary.ts';
import { exportDocument } from './export.ts';
import { PRETRANSLATE_MODES, readMode } from './pretranslate-modes.ts';
import * as replaceService from './replace-service.ts';
import {
  AUTO_ACCEPT_SCOPES,
  Document,
  DocumentTerms,
  DocumentUploadParams,
  DocumentWords,
  ExportQuery,
  GetDocumentQuery,
  PretranslateAnswer,
  PretranslateBody,
  PretranslateQuery,
  QaReport,
  RenameDocumentBody,
  ReplaceAnswer,
  ReplaceBody,
  SegmentsPage,
  SegmentsPageQuery,
  UndoReplaceAnswer,
  UndoReplaceBody,
} from './schemas.ts';
import * as segmentService from './segment-service.ts';
import * as service from './service.ts';

export async function documentsRoutes(
  app: App,
  deps: replaceService.ReplaceDeps & { comments: CommentsOfDocuments },
) {
  const { db } = deps;
  const tags = ['documents'];

  app.get(
    '/v2/documents',
    {
      schema: {
        summary: 'A document, with its segments when asked',
        tags,
        querystring: GetDocumentQuery,
        response: { 200: Document },
      },
    },
    async (request) =>
      service.getDocument(db, principalOf(request), request.query.id, request.query.with_segments ?? false),
  );

  app.get(
    '/v2/documents/segments',
    {
      schema: {
        summary:
          "A page of a document's segments, filtered by status and text, with counts by status (extension)",
        tags,
        querystring: SegmentsPageQuery,
        response: { 200: SegmentsPage },
      },
    },
    async (request) =>
      segmentService.segmentsPage(
        db,
        principalOf(request),
        request.query,
        deps.comments,
        deps.projects.memoryOfProject,
      ),
  );

  app.get(
    '/v2/documents/words',
    {
      schema: {
        summary: "A document's words by segment status, as the leverage analysis counts words (ext.)",
        tags,
        querystring: IdQuery,
        response: { 200: DocumentWords },
      },
    },
    async (request) => service.documentWords(db, principalOf(request), request.query.id),
  );

  app.get(
    '/v2/documents/qa',
    {
      schema: {
        summary: "The QA issues of a document's segments: tags, numbers, punctuation, spaces… (extension)",
        tags,
        querystring: IdQuery,
        response: { 200: QaReport },
      },
    },
    async (request) =>
      service.qaReport(db, principalOf(request), request.query.id, deps.projects.memoryOfProject),
  );

  app.get(
    '/v2/documents/terms',
    {
      schema: {
        summary:
          "The termbase of a document's project memory in the document's language pair, for the editor (extension)",
        tags,
        querystring: IdQuery,
        response: { 200: DocumentTerms },
      },
    },
    async (request) =>
      documentTerms(db, principalOf(request), request.query.id, deps.projects.memoryOfProject),
  );

  app.post(
    '/v2/documents/replace',
    {
      schema: {
        summary:
          'Find and replace in the text of segments (never in tags); dry_run lists the changes, else one batch (extension)',
        tags,
        body: ReplaceBody,
        response: { 200: ReplaceAnswer },
      },
    },
    async (request) => replaceService.replaceInDocument(deps, principalOf(request), request.body),
  );

  app.post(
    '/v2/documents/replace/undo',
    {
      schema: {
        summary: 'Undo a replace batch, unless its segments changed since (extension)',
        tags,
        body: UndoReplaceBody,
        response: { 200: UndoReplaceAnswer },
      },
    },
    async (request) => replaceService.undoReplace(deps, principalOf(request), request.body),
  );

  app.put(
    '/v2/documents',
    { schema: { summary: 'Rename a document', tags, body: RenameDocumentBody, response: { 200: Document } } },
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
        summary: 'Pre-translate documents from their project memory; runs as a task per document',
        tags,
        body: PretranslateBody,
        querystring: PretranslateQuery,
        response: { 202: PretranslateAnswer },
      },
    },
    async (request, reply) => {
      const { body, query } = request;
      const answer = await service.requestPretranslation(deps, principalOf(request), body.id, {
        auto_accept: body.auto_accept ?? query.auto_accept ?? query.autoAccept ?? false,
        auto_accept_scope: body.auto_accept_scope ?? query.auto_accept_scope ?? AUTO_ACCEPT_SCOPES.exact,
        case_sensitive: body.case_sensitive ?? query.case_sensitive ?? false,
        attribute_to_creator: body.attribute_to_creator ?? query.attribute_to_creator ?? false,
        mode: readMode(body.mode ?? query.mode ?? PRETRANSLATE_MODES.tm),
      });
      return reply.code(202).send(answer);
    },
  );

  app.get(
    '/v2/documents/files',
    {
      schema: {
        summary: 'Export a document: XLIFF 1.2 (default) or the original format with translations merged',
        tags,
        querystring: ExportQuery,
        produces: ['application/xliff+xml', 'application/octet-stream'],
      },
    },
    async (request, reply) =>
      sendAttachment(
        reply,
        await exportDocument(deps, principalOf(request), request.query.id, request.query.is_xliff ?? true),
      ),
  );

  await uploadRoutes(app, deps.maxUploadBytes, (uploads) => {
    uploads.post(
      '/v2/documents/files',
      {
        schema: {
          summary: 'Upload a document into a project; it is parsed by its format filter as a task',
          description:
            'Raw file body; name, project_id, pretranslate (TM, TM+MT, MT), auto_accept, auto_accept_scope, case_sensitive in the LILT-API JSON header, individual headers, or the query. multipart/form-data is accepted too.',
          tags,
          response: { 200: Document },
        },
      },
      async (request) => {
        const upload = await readUpload(request, DocumentUploadParams, deps.maxUploadBytes);
        return service.uploadDocument(deps, principalOf(request), upload.params, upload.file);
      },
    );
  });
}
