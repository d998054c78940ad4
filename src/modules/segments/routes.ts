// /v2/segments: one segment by id, a document's or a memory entry (they share one id space).
import { Type } from 'typebox';
import { errors } from '../../errors.ts';
import type { App } from '../../http/types.ts';
import { principalOf } from '../../http/types.ts';
import { DocumentSegment } from '../documents/schemas.ts';
import * as documents from '../documents/service.ts';
import { Deleted, IdQuery, Segment } from '../memories/schemas.ts';
import type { MemoryDeps } from '../memories/service.ts';
import * as memories from '../memories/service.ts';

// A document's segment first: the serializer takes the first schema that matches, and a document segment
// would also match the plain Segment and lose its extension fields.
const SegmentAnswer = Type.Union([DocumentSegment, Segment]);

export async function segmentsRoutes(app: App, options: MemoryDeps) {
  const { db } = options;
  const tags = ['segments'];

  app.post(
    '/v2/segments',
    {
      schema: {
        summary: 'Add an entry to a memory ({memory_id, source, target})',
        tags,
        body: Type.Object({
          memory_id: Type.Optional(Type.Integer({ minimum: 1 })),
          document_id: Type.Optional(Type.Integer({ minimum: 1 })),
          source: Type.Optional(Type.String()),
          target: Type.Optional(Type.String()),
        }),
        response: { 200: SegmentAnswer },
      },
    },
    async (request) => {
      const { memory_id: memoryId, document_id: documentId, ...rest } = request.body;
      if (documentId !== undefined)
        return documents.appendSegment(db, principalOf(request), documentId, rest);
      if (memoryId === undefined) throw errors.missingParameter('memory_id');
      return memories.addEntry(options, principalOf(request), { memory_id: memoryId, ...rest });
    },
  );

  app.get(
    '/v2/segments',
    {
      schema: {
        summary: 'One segment',
        tags,
        querystring: IdQuery,
        response: { 200: SegmentAnswer },
      },
    },
    async (request) =>
      (await documents.getSegment(db, principalOf(request), request.query.id)) ??
      memories.getEntry(options, principalOf(request), request.query.id),
  );

  app.put(
    '/v2/segments',
    {
      schema: {
        summary: "Change a segment's target",
        tags,
        body: Type.Object({
          id: Type.Integer({ minimum: 1 }),
          target: Type.Optional(Type.String()),
          source: Type.Optional(Type.String()),
          is_confirmed: Type.Optional(Type.Boolean()),
          is_reviewed: Type.Optional(Type.Boolean()),
        }),
        response: { 200: SegmentAnswer },
      },
    },
    async (request) =>
      (await documents.updateSegment(db, principalOf(request), request.body)) ??
      memories.updateEntry(options, principalOf(request), request.body),
  );

  app.delete(
    '/v2/segments',
    { schema: { summary: 'Delete a segment', tags, querystring: IdQuery, response: { 200: Deleted } } },
    async (request) => {
      if (!(await documents.deleteSegment(db, principalOf(request), request.query.id))) {
        await memories.deleteEntry(options, principalOf(request), request.query.id);
      }
      return { id: request.query.id, deleted: true };
    },
  );
}
