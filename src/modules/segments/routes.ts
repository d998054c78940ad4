// /v2/segments: one segment by id. Memory entries now; document segments share the id space.
import { Type } from 'typebox';
import { errors } from '../../errors.ts';
import type { App } from '../../http/types.ts';
import { principalOf } from '../../http/types.ts';
import { Deleted, IdQuery, Segment } from '../memories/schemas.ts';
import type { MemoryDeps } from '../memories/service.ts';
import * as memories from '../memories/service.ts';

export async function segmentsRoutes(app: App, options: MemoryDeps) {
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
        response: { 200: Segment },
      },
    },
    async (request) => {
      const { memory_id: memoryId, ...rest } = request.body;
      if (memoryId === undefined) throw errors.missingParameter('memory_id');
      return memories.addEntry(options, principalOf(request), { memory_id: memoryId, ...rest });
    },
  );

  app.get(
    '/v2/segments',
    { schema: { summary: 'One segment', tags, querystring: IdQuery, response: { 200: Segment } } },
    async (request) => memories.getEntry(options, principalOf(request), request.query.id),
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
        response: { 200: Segment },
      },
    },
    async (request) => memories.updateEntry(options, principalOf(request), request.body),
  );

  app.delete(
    '/v2/segments',
    { schema: { summary: 'Delete a segment', tags, querystring: IdQuery, response: { 200: Deleted } } },
    async (request) => {
      await memories.deleteEntry(options, principalOf(request), request.query.id);
      return { id: request.query.id, deleted: true };
    },
  );
}
