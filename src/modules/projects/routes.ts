// /v2/projects: CRUD; the language pair comes from the memory; each project lists its documents.
import { Type } from 'typebox';
import { MAX_SRX_BYTES } from '../../formats/srx/srx-file.ts';
import { sendAttachment } from '../../http/attachments.ts';
import { principalOf } from '../../http/principal.ts';
import { Deleted, IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { readUpload, uploadRoutes } from '../../http/uploads.ts';
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

  app.get(
    '/v2/projects/segmentation',
    {
      schema: {
        summary:
          "The project's segmentation rules in force, as an SRX 2.0 file: its own, or the built-in ones (extension)",
        tags,
        querystring: IdQuery,
        produces: ['application/xml'],
      },
    },
    async (request, reply) =>
      sendAttachment(reply, await service.segmentationRules(deps, principalOf(request), request.query.id)),
  );

  app.delete(
    '/v2/projects/segmentation',
    {
      schema: {
        summary: 'The project goes back to the built-in segmentation rules (extension)',
        tags,
        querystring: IdQuery,
        response: { 200: Project },
      },
    },
    async (request) => service.deleteSegmentationRules(deps, principalOf(request), request.query.id),
  );

  await uploadRoutes(app, MAX_SRX_BYTES, (uploads) => {
    uploads.put(
      '/v2/projects/segmentation',
      {
        schema: {
          summary:
            "An SRX 2.0 file becomes the project's segmentation rules, for documents imported from now on (extension)",
          description:
            'Raw SRX body (or multipart/form-data with one file); id in the query. The rules are checked (well-formed SRX 2.0, every expression compiled, limits) and tried on a probe text under the regular-expression deadline before they are kept.',
          tags,
          response: { 200: Project },
        },
      },
      async (request) => {
        const upload = await readUpload(request, IdQuery, MAX_SRX_BYTES);
        return service.putSegmentationRules(deps, principalOf(request), upload.params.id, upload.file);
      },
    );
  });
}
