// /v2/memories/terms (Tessera's CRUD of a memory's termbase, import and export), Lilt's termbase export and
// download, and Lilt's legacy lexicon. Handlers stay thin: one service call.

import { Type } from 'typebox';
import { sendAttachment } from '../../http/attachments.ts';
import { principalOf } from '../../http/principal.ts';
import { IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { readUpload, uploadRoutes } from '../../http/uploads.ts';
import {
  CandidatesAnswer,
  CandidatesQuery,
  Concept,
  ConceptBody,
  ConceptDeleted,
  ConceptQuery,
  ConceptsPage,
  LexiconBody,
  LexiconEntry,
  LexiconQuery,
  LexiconUpdated,
  TermbaseExportResponse,
  TermsExportQuery,
  TermsImported,
  TermsImportParams,
  TermsQuery,
} from './schemas.ts';
import * as service from './service.ts';

export async function termsRoutes(app: App, deps: service.TermsDeps) {
  const tags = ['terms'];

  app.get(
    '/v2/memories/terms',
    {
      schema: {
        summary: "A page of a memory's concepts and their terms, searched when q is given (extension)",
        tags,
        querystring: TermsQuery,
        response: { 200: ConceptsPage },
      },
    },
    async (request) => service.listConcepts(deps.db, principalOf(request), request.query),
  );

  app.get(
    '/v2/memories/terms/candidates',
    {
      schema: {
        summary:
          'Term candidates: phrases the memory translates consistently that are not terms yet (extension)',
        tags,
        querystring: CandidatesQuery,
        response: { 200: CandidatesAnswer },
      },
    },
    async (request) => service.termCandidates(deps, principalOf(request), request.query),
  );

  app.post(
    '/v2/memories/terms',
    {
      schema: {
        summary: 'Add a concept with its terms to a memory (extension)',
        tags,
        querystring: IdQuery,
        body: ConceptBody,
        response: { 200: Concept },
      },
    },
    async (request) => service.createConcept(deps.db, principalOf(request), request.query.id, request.body),
  );

  app.put(
    '/v2/memories/terms',
    {
      schema: {
        summary: 'Change a concept: its domain, note and terms (terms named by id keep their id) (extension)',
        tags,
        querystring: ConceptQuery,
        body: ConceptBody,
        response: { 200: Concept },
      },
    },
    async (request) => service.updateConcept(deps.db, principalOf(request), request.query, request.body),
  );

  app.delete(
    '/v2/memories/terms',
    {
      schema: {
        summary: 'Delete a concept and its terms (extension)',
        tags,
        querystring: ConceptQuery,
        response: { 200: ConceptDeleted },
      },
    },
    async (request) => service.deleteConcept(deps.db, principalOf(request), request.query),
  );

  app.get(
    '/v2/memories/terms/export',
    {
      schema: {
        summary:
          "The memory's termbase as TBX-Basic (v3, or v2 with version=2) or Lilt's termbase CSV (extension)",
        tags,
        querystring: TermsExportQuery,
        produces: ['application/x-tbx+xml', 'text/csv'],
      },
    },
    async (request, reply) =>
      sendAttachment(reply, await service.exportTerms(deps.db, principalOf(request), request.query)),
  );

  app.post(
    '/v2/memories/termbase/export',
    {
      schema: {
        summary: "Prepare the memory's termbase for download (done at once: is_processing is 0)",
        tags,
        querystring: IdQuery,
        response: { 200: TermbaseExportResponse },
      },
    },
    async (request) => service.startTermbaseExport(deps.db, principalOf(request), request.query.id),
  );

  app.get(
    '/v2/memories/termbase/download',
    {
      schema: {
        summary: "The memory's termbase as Lilt's termbase CSV",
        tags,
        querystring: IdQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) =>
      sendAttachment(
        reply,
        await service.exportTerms(deps.db, principalOf(request), { id: request.query.id, format: 'csv' }),
      ),
  );

  app.get(
    '/v2/lexicon',
    {
      schema: {
        summary: "Query the lexicon: the termbase's translations of a term, and examples from the memory",
        tags: ['lexicon'],
        querystring: LexiconQuery,
        response: { 200: Type.Array(LexiconEntry) },
      },
    },
    async (request) => service.queryLexicon(deps, principalOf(request), request.query),
  );

  app.post(
    '/v2/lexicon',
    {
      schema: {
        summary: "Add a term and its translation to the memory's termbase",
        tags: ['lexicon'],
        body: LexiconBody,
        response: { 200: LexiconUpdated },
      },
    },
    async (request) => service.addLexiconEntry(deps.db, principalOf(request), request.body),
  );

  await uploadRoutes(app, deps.maxUploadBytes, (uploads) => {
    uploads.post(
      '/v2/memories/terms/import',
      {
        schema: {
          summary: 'Import a termbase (.tbx, .csv, gzipped or not) into a memory, all or nothing (extension)',
          description:
            'Raw file body; memory_id, name and has_header_row in the LILT-API JSON header, individual headers, or the query. multipart/form-data with one file field is accepted too.',
          tags,
          response: { 200: TermsImported },
        },
      },
      async (request) => {
        const upload = await readUpload(request, TermsImportParams, deps.maxUploadBytes);
        return service.importTermFile(deps, principalOf(request), upload.params, upload.file);
      },
    );
  });
}
