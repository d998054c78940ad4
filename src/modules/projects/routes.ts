// /v2/projects: CRUD; the language pair comes from the memory; each project lists its documents.
import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.ts';
import type { App } from '../../http/types.ts';
import { principalOf } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import { Document } from '../documents/schemas.ts';
import type { Languages } from '../languages/service.ts';
import { Deleted, IdQuery } from '../memories/schemas.ts';
import * as service from './service.ts';

const State = Type.Union(['backlog', 'inProgress', 'inReview', 'inQA', 'done'].map((s) => Type.Literal(s)));

export const Project = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  memory_id: Type.Integer(),
  srclang: Type.String(),
  trglang: Type.String(),
  srclocale: Nullable(Type.String()),
  trglocale: Nullable(Type.String()),
  state: Type.String(),
  due_date: Nullable(Type.Integer()),
  archived: Type.Boolean(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  document: Type.Array(Document),
});

export async function projectsRoutes(app: App, options: { db: Db; languages: Languages }) {
  const { db } = options;
  const tags = ['projects'];

  app.post(
    '/v2/projects',
    {
      schema: {
        summary: 'Create a project on a memory (its language pair comes from the memory)',
        tags,
        body: Type.Object({
          name: Type.Optional(Type.String({ maxLength: 500 })),
          memory_id: Type.Optional(Type.Integer({ minimum: 1 })),
          due_date: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
          metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        }),
        response: { 200: Project },
      },
    },
    async (request) => service.createProject(db, principalOf(request), request.body),
  );

  app.get(
    '/v2/projects',
    {
      schema: {
        summary: 'List projects (one id or several, comma separated), each with its documents',
        tags,
        querystring: Type.Object({
          id: Type.Optional(Type.String({ pattern: '^\\d+(,\\d+)*$' })),
          srclang: Type.Optional(Type.String()),
          trglang: Type.Optional(Type.String()),
          archived: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Type.Array(Project) },
      },
    },
    async (request) => {
      const q = request.query;
      return service.listProjects(db, principalOf(request), {
        ids: q.id?.split(',').map(Number),
        srclang: q.srclang === undefined ? undefined : options.languages.require('srclang', q.srclang),
        trglang: q.trglang === undefined ? undefined : options.languages.require('trglang', q.trglang),
        archived: q.archived,
      });
    },
  );

  app.put(
    '/v2/projects',
    {
      schema: {
        summary: 'Update a project',
        tags,
        body: Type.Object({
          id: Type.Integer({ minimum: 1 }),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          state: Type.Optional(State),
          due_date: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
          archived: Type.Optional(Type.Boolean()),
          metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        }),
        response: { 200: Project },
      },
    },
    async (request) => service.updateProject(db, principalOf(request), request.body),
  );

  app.delete(
    '/v2/projects',
    {
      schema: {
        summary: 'Delete a project and its documents',
        tags,
        querystring: IdQuery,
        response: { 200: Deleted },
      },
    },
    async (request) => service.deleteProject(db, principalOf(request), request.query.id),
  );
}
