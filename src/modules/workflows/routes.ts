// Lilt's workflow endpoints: templates, document assignment (share), done and unlock; review unlock of
// segments; and segment locks (extension). Who may call which is the route policy's (src/http/policy.ts).
import { Type } from 'typebox';
import { principalOf } from '../../http/principal.ts';
import type { App } from '../../http/types.ts';
import {
  AssignDocumentAnswer,
  AssignDocumentBody,
  ChangedIds,
  DoneBody,
  LockSegmentsAnswer,
  LockSegmentsBody,
  ReviewUnlockBody,
  UnlockDocumentsBody,
  WorkflowTemplate,
} from './schemas.ts';
import type { WorkflowDeps } from './service.ts';
import * as service from './service.ts';

export async function workflowsRoutes(app: App, deps: WorkflowDeps) {
  const tags = ['workflows'];

  app.get(
    '/v2/workflows/templates',
    {
      schema: {
        summary: 'The workflow templates a project chooses from, with their stages',
        tags,
        response: { 200: Type.Array(WorkflowTemplate) },
      },
    },
    async (request) => service.listTemplates(principalOf(request)),
  );

  app.put(
    '/v2/documents/share',
    {
      schema: {
        summary: 'Assign or unassign a user (by e-mail) to the translation or review of a document',
        tags,
        body: AssignDocumentBody,
        response: { 200: AssignDocumentAnswer },
      },
    },
    async (request) => service.assignDocument(deps, principalOf(request), request.body),
  );

  app.post(
    '/v2/documents/done/translation',
    {
      schema: {
        summary: 'Mark the translation of documents done (checked), or send them back to translation',
        description:
          'isDone true (the default) needs every segment confirmed and no QA error, and hands each document to its next stage; false sends documents in review back to translation, where the segments already reviewed stay locked.',
        tags,
        body: DoneBody,
        response: { 200: ChangedIds },
      },
    },
    async (request) =>
      service.translationDone(deps, principalOf(request), request.body.documentIds, request.body.isDone),
  );

  app.post(
    '/v2/documents/done/review',
    {
      schema: {
        summary: 'Mark the review of documents done (checked), or send them back to the first review',
        tags,
        body: DoneBody,
        response: { 200: ChangedIds },
      },
    },
    async (request) =>
      service.reviewDone(deps, principalOf(request), request.body.documentIds, request.body.isDone),
  );

  app.post(
    '/v2/documents/done/unlock',
    {
      schema: {
        summary: 'Unlock documents: back to translation, translation and review not done',
        tags,
        body: UnlockDocumentsBody,
        response: { 200: ChangedIds },
      },
    },
    async (request) => service.unlockDocuments(deps, principalOf(request), request.body.documentIds),
  );

  app.post(
    '/v2/segments/review/unlock',
    {
      schema: {
        summary: 'Unaccept and unlock reviewed segments (they stay confirmed)',
        tags,
        body: ReviewUnlockBody,
        response: { 200: ChangedIds },
      },
    },
    async (request) => service.unlockReviewed(deps, principalOf(request), request.body.segmentIds),
  );

  app.post(
    '/v2/segments/lock',
    {
      schema: {
        summary: 'Lock or unlock segments of a document (listed, by match score, or all) (extension)',
        tags,
        body: LockSegmentsBody,
        response: { 200: LockSegmentsAnswer },
      },
    },
    async (request) => service.lockDocumentSegments(deps, principalOf(request), request.body),
  );
}
