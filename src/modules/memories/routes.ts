// /v2/memories: CRUD, query, concordance, TMX import and export. Handlers stay thin: one service call.
import { Histogram } from 'prom-client';
import { Type } from 'typebox';
import { sendAttachment } from '../../http/attachments.ts';
import { principalOf } from '../../http/principal.ts';
import { Deleted, IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { readUpload, uploadRoutes } from '../../http/uploads.ts';
import { MIN_SCORE } from '../../matching/score-bands.ts';
import type { TaskNotifier } from '../../tasks/task-worker.ts';
import { browseEntries, deleteMemoryEntry, entryHistory, updateMemoryEntry } from './entry-service.ts';
import { exportTmx } from './export.ts';
import { startImport } from './import.ts';
import {
  BrowseEntriesQuery,
  ConcordanceEntry,
  ConcordanceParams,
  CreateMemoryBody,
  DeleteEntryQuery,
  EntriesPage,
  EntryDeleted,
  EntryHistory,
  EntryHistoryQuery,
  ImportStarted,
  ListMemoriesQuery,
  Memory,
  MemoryEntrySegment,
  MemoryImportParams,
  QueryParams,
  RenameMemoryBody,
  SyncQuery,
  TranslationMemoryEntry,
  UpdateEntryBody,
} from './schemas.ts';
import type { MemoryDeleted, MemoryDeps, ProjectsUsingMemory, SegmentContextOf } from './service.ts';
import * as service from './service.ts';
import type { TermFiles } from './term-files.ts';

export async function memoriesRoutes(
  app: App,
  options: MemoryDeps & {
    projectsUsing: ProjectsUsingMemory;
    memoryDeleted?: MemoryDeleted;
    segmentContext: SegmentContextOf;
    tasks: TaskNotifier;
    maxUploadBytes: number;
    instanceId: string;
    termFiles?: TermFiles;
  },
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
    { schema: { summary: 'Create a memory', tags, body: CreateMemoryBody, response: { 200: Memory } } },
    async (request) => service.createMemory(deps, principalOf(request), request.body),
  );

  app.get(
    '/v2/memories',
    {
      schema: {
        summary: 'List memories, or the one with this id',
        tags,
        querystring: ListMemoriesQuery,
        response: { 200: Type.Array(Memory) },
      },
    },
    async (request) => service.listMemories(deps, principalOf(request), request.query.id),
  );

  app.put(
    '/v2/memories',
    {
      schema: {
        summary: 'Rename a memory, or allow several translations per source (extension)',
        tags,
        body: RenameMemoryBody,
        response: { 200: Memory },
      },
    },
    async (request) => service.updateMemory(deps, principalOf(request), request.body),
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
    async (request) => service.deleteMemory(options, principalOf(request), request.query.id),
  );

  app.get(
    '/v2/memories/query',
    {
      schema: {
        summary: `Fuzzy lookup: stored segments scoring at least ${MIN_SCORE} (or min_score), best first`,
        tags,
        querystring: QueryParams,
        response: { 200: Type.Array(TranslationMemoryEntry) },
      },
    },
    async (request) => {
      const stop = queryLatency.startTimer();
      try {
        return await service.queryMemory(options, principalOf(request), request.query);
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
        querystring: ConcordanceParams,
        response: { 200: Type.Array(ConcordanceEntry) },
      },
    },
    async (request) => service.concordance(deps, principalOf(request), request.query),
  );

  app.get(
    '/v2/memories/entries',
    {
      schema: {
        summary: "A page of a memory's entries, searched in source and target when q is given (extension)",
        tags,
        querystring: BrowseEntriesQuery,
        response: { 200: EntriesPage },
      },
    },
    async (request) => browseEntries(deps, principalOf(request), request.query),
  );

  app.get(
    '/v2/memories/entries/history',
    {
      schema: {
        summary: "An entry's versions, newest first: what it held, who wrote it and when (extension)",
        tags,
        querystring: EntryHistoryQuery,
        response: { 200: EntryHistory },
      },
    },
    async (request) => entryHistory(deps, principalOf(request), request.query),
  );

  app.put(
    '/v2/memories/segment',
    {
      schema: {
        summary: 'Change one entry of a memory: its target (and source) (extension)',
        tags,
        body: UpdateEntryBody,
        response: { 200: MemoryEntrySegment },
      },
    },
    async (request) => updateMemoryEntry(deps, principalOf(request), request.body),
  );

  app.delete(
    '/v2/memories/segment',
    {
      schema: {
        summary: 'Delete one entry of a memory',
        tags,
        querystring: DeleteEntryQuery,
        response: { 200: EntryDeleted },
      },
    },
    async (request) =>
      deleteMemoryEntry(deps, principalOf(request), request.query.id, request.query.segment_id),
  );

  for (const path of ['/v2/memories/export', '/v2/memories/sync']) {
    app.get(
      path,
      {
        schema: {
          summary:
            'Export the memory as TMX 1.4b (streamed); from_time, to_time and when select the entries created, updated or deleted in a window',
          tags,
          querystring: SyncQuery,
          produces: ['application/x-tmx+xml'],
        },
      },
      async (request, reply) =>
        sendAttachment(reply, await exportTmx(deps.db, principalOf(request), request.query)),
    );
  }

  await uploadRoutes(app, options.maxUploadBytes, (uploads) => {
    uploads.post(
      '/v2/memories/import',
      {
        schema: {
          summary:
            'Import a memory file (TMX, TSV, CSV) as a task, or a termbase (.tbx; .csv with has_header_row) at once',
          description:
            'Raw file body; memory_id and name in the LILT-API JSON header, individual headers, or the query. multipart/form-data with one file field is accepted too.',
          tags,
          response: { 200: ImportStarted },
        },
      },
      async (request) => {
        const upload = await readUpload(request, MemoryImportParams, options.maxUploadBytes);
        return startImport(options, principalOf(request), upload.params, upload.file);
      },
    );
  });
}
