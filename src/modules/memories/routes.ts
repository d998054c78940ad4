// /v2/memories: CRUD, query, concordance, TMX import and export. Handlers stay thin: one service call.
import { Histogram } from 'prom-client';
import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import { principalOf } from '../../http/types.ts';
import { acceptFileBodies } from '../../http/uploads.ts';
import type { Worker } from '../../jobs/worker.ts';
import { exportTmx } from './export.ts';
import { startImport } from './import.ts';
import { ConcordanceEntry, Deleted, IdQuery, Memory, TranslationMemoryEntry } from './schemas.ts';
import type { MemoryDeps } from './service.ts';
import * as service from './service.ts';

export async function memoriesRoutes(
  app: App,
  options: MemoryDeps & { worker: Worker; maxUploadBytes: number },
) {
  const deps: MemoryDeps = options;
  const tags = ['memories'];
  const queryLatency = new Histogram({
    name: 'tessera_memory_query_duration_seconds',
    help: 'Memory query latency (index catch-up, search and entry reads)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
    registers: [app.metrics],
  });

  app.post(
    '/v2/memories',
    {
      schema: {
        summary: 'Create a memory',
        tags,
        body: Type.Object({
          name: Type.Optional(Type.String({ maxLength: 500 })),
          srclang: Type.String(),
          trglang: Type.String(),
          srclocale: Type.Optional(Type.String({ maxLength: 20 })),
          trglocale: Type.Optional(Type.String({ maxLength: 20 })),
        }),
        response: { 200: Memory },
      },
    },
    async (request) => service.createMemory(deps, principalOf(request), request.body),
  );

  app.get(
    '/v2/memories',
    {
      schema: {
        summary: 'List memories, or the one with this id',
        tags,
        querystring: Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 200: Type.Array(Memory) },
      },
    },
    async (request) => service.listMemories(deps, principalOf(request), request.query.id),
  );

  app.put(
    '/v2/memories',
    {
      schema: {
        summary: 'Rename a memory',
        tags,
        body: Type.Object({
          id: Type.Integer({ minimum: 1 }),
          name: Type.Optional(Type.String({ maxLength: 500 })),
        }),
        response: { 200: Memory },
      },
    },
    async (request) => service.renameMemory(deps, principalOf(request), request.body.id, request.body.name),
  );

  app.delete(
    '/v2/memories',
    {
      schema: {
        summary: 'Delete a memory and its entries',
        tags,
        querystring: IdQuery,
        response: { 200: Deleted },
      },
    },
    async (request) => service.deleteMemory(deps, principalOf(request), request.query.id),
  );

  app.get(
    '/v2/memories/query',
    {
      schema: {
        summary: 'Fuzzy lookup: stored segments scoring at least 75 (or min_score), best first',
        tags,
        querystring: Type.Object({
          id: Type.Integer({ minimum: 1 }),
          query: Type.Optional(Type.String()),
          n: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          min_score: Type.Optional(Type.Integer({ minimum: 75, maximum: 100 })),
        }),
        response: { 200: Type.Array(TranslationMemoryEntry) },
      },
    },
    async (request) => {
      const stop = queryLatency.startTimer();
      try {
        return await service.queryMemory(deps, principalOf(request), request.query);
      } finally {
        stop();
      }
    },
  );

  app.get(
    '/v2/memories/concordance',
    {
      schema: {
        summary: 'Entries whose source (or target) holds the query words or text, with offsets (extension)',
        tags,
        querystring: Type.Object({
          id: Type.Integer({ minimum: 1 }),
          query: Type.Optional(Type.String()),
          side: Type.Optional(Type.Union([Type.Literal('source'), Type.Literal('target')])),
          n: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
        }),
        response: { 200: Type.Array(ConcordanceEntry) },
      },
    },
    async (request) => service.concordance(deps, principalOf(request), request.query),
  );

  app.delete(
    '/v2/memories/segment',
    {
      schema: {
        summary: 'Delete one entry of a memory',
        tags,
        querystring: Type.Object({
          id: Type.Integer({ minimum: 1 }),
          segment_id: Type.Integer({ minimum: 1 }),
        }),
        response: { 200: Type.Object({ success: Type.Boolean() }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      await service.requireMemory(deps.db, principal, request.query.id);
      await service.deleteEntry(deps, principal, request.query.segment_id, request.query.id);
      return { success: true };
    },
  );

  for (const path of ['/v2/memories/export', '/v2/memories/sync']) {
    app.get(
      path,
      {
        schema: {
          summary: 'Export the memory as TMX 1.4b (streamed)',
          tags,
          querystring: IdQuery,
          produces: ['application/x-tmx+xml'],
        },
      },
      async (request, reply) => {
        const memory = await service.requireMemory(deps.db, principalOf(request), request.query.id);
        const fileName = `${memory.name.replace(/[^\w.-]+/g, '_') || 'memory'}.tmx`;
        reply
          .type('application/x-tmx+xml; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${fileName}"`);
        return reply.send(exportTmx(deps.db, memory));
      },
    );
  }

  // Uploads get their body as a stream: a scope of their own, without the JSON parser.
  await app.register(async (uploads: App) => {
    await acceptFileBodies(uploads, options.maxUploadBytes);
    uploads.post(
      '/v2/memories/import',
      {
        schema: {
          summary: 'Import a TMX file (.tmx, .tmx.gz) into a memory; runs as a job',
          description:
            'Raw file body; memory_id and name in the LILT-API JSON header, individual headers, or the query. multipart/form-data with one file field is accepted too.',
          tags,
          response: {
            200: Type.Object({ id: Type.Integer(), isProcessing: Type.Integer(), job_id: Type.Integer() }),
          },
        },
      },
      async (request) => {
        const answer = await startImport(deps.db, principalOf(request), request, options.maxUploadBytes);
        options.worker.wake();
        return answer;
      },
    );
  });
}
