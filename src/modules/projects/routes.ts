// /v2/projects: CRUD; the language pair comes from the memory; each project lists its documents.
import { Type } from 'typebox';
import { principalOf } from '../../http/principal.ts';
import { Deleted, IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import {
  CreateProjectBody,
  ListProjectsQuery,
  Project,
  ProjectStatus,
  UpdateProjectBody,
} from './schemas.ts';
import type { ProjectDeps } from './service.ts';
import * as service from './service.ts';

export async function projectsRoutes(app: App, deps: ProjectDeps) {
  const tags = ['projects'];

  app.post(
    '/v2/projects',
    {
      schema: {
        summary: 'Create a project on a memory (its language pair comes from the memory)',
        tags,
        body: CreateProjectBody,
        response: { 200: Project },
      },
    },
    async (request) => service.createProject(deps, principalOf(request), request.body),
  );

  app.get(
    '/v2/projects',
    {
      schema: {
        summary: 'List projects (one id or several, comma separated), each with its documents',
        tags,
        querystring: ListProjectsQuery,
        response: { 200: Type.Array(Project) },
      },
    },
    async (request) => service.listProjects(deps, principalOf(request), request.query),
  );

  app.get(
    '/v2/projects/status',
    {
      schema: {
        summary: "A project's status: its source words, the confirmed and reviewed ones, and words by status",
        description:
          'Words as the leverage analysis counts them. words and documents (words by segment status, per document) are extensions; Tessera does not time work, so the time fields are 0 and resources is empty.',
        tags,
        querystring: IdQuery,
        response: { 200: ProjectStatus },
      },
    },
    async (request) => service.projectStatus(deps, principalOf(request), request.query.id),
  );

  app.put(
    '/v2/projects',
    { schema: { summary: 'Update a project', tags, body: UpdateProjectBody, response: { 200: Project } } },
    async (request) => service.updateProject(deps, principalOf(request), request.body),
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
    async (request) => service.deleteProject(deps, principalOf(request), request.query.id),
  );
}
