// /v2/segments: one segment by id, a document's or a memory entry (they share one id space).
import { principalOf } from '../../http/principal.ts';
import { Deleted, IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import {
  AddSegmentBody,
  JoinBody,
  RejectAnswer,
  RejectBody,
  ReshapeAnswer,
  RestoreBody,
  SegmentAnswer,
  SegmentHistory,
  SplitBody,
  UpdateSegmentBody,
} from './schemas.ts';
import * as service from './service.ts';

export async function segmentsRoutes(app: App, deps: service.SegmentDeps) {
  const tags = ['segments'];

  app.post(
    '/v2/segments',
    {
      schema: {
        summary:
          'Add an entry to a memory ({memory_id, source, target}) or a segment to a document ({document_id, source, target?})',
        tags,
        body: AddSegmentBody,
        response: { 200: SegmentAnswer },
      },
    },
    async (request) => service.addSegment(deps, principalOf(request), request.body),
  );

  app.get(
    '/v2/segments',
    { schema: { summary: 'One segment', tags, querystring: IdQuery, response: { 200: SegmentAnswer } } },
    async (request) => service.getSegment(deps, principalOf(request), request.query.id),
  );

  app.put(
    '/v2/segments',
    {
      schema: {
        summary: "Change a segment's target",
        tags,
        body: UpdateSegmentBody,
        response: { 200: SegmentAnswer },
      },
    },
    async (request) => service.updateSegment(deps, principalOf(request), request.body),
  );

  app.get(
    '/v2/segments/history',
    {
      schema: {
        summary: "A document segment's versions, newest first (extension)",
        tags,
        querystring: IdQuery,
        response: { 200: SegmentHistory },
      },
    },
    async (request) => service.segmentHistory(deps, principalOf(request), request.query.id),
  );

  app.post(
    '/v2/segments/restore',
    {
      schema: {
        summary: "Make an earlier version's target the segment's, unconfirmed (extension)",
        tags,
        body: RestoreBody,
        response: { 200: SegmentAnswer },
      },
    },
    async (request) => service.restoreVersion(deps, principalOf(request), request.body),
  );

  app.post(
    '/v2/segments/reject',
    {
      schema: {
        summary:
          'Send a document segment back to its translator with a comment: unconfirmed and unreviewed, its target kept, the comment added, in one transaction (extension)',
        tags,
        body: RejectBody,
        response: { 200: RejectAnswer },
      },
    },
    async (request) => service.rejectSegment(deps, principalOf(request), request.body),
  );

  app.post(
    '/v2/segments/join',
    {
      schema: {
        summary:
          'Join a document segment with the next one of the same paragraph or entry; the joined segment is unconfirmed (extension)',
        tags,
        body: JoinBody,
        response: { 200: ReshapeAnswer },
      },
    },
    async (request) => service.joinSegments(deps, principalOf(request), request.body),
  );

  app.post(
    '/v2/segments/split',
    {
      schema: {
        summary:
          'Split a document segment in two at a source offset (and a target offset when it has a target); both parts are unconfirmed (extension)',
        tags,
        body: SplitBody,
        response: { 200: ReshapeAnswer },
      },
    },
    async (request) => service.splitSegment(deps, principalOf(request), request.body),
  );

  app.delete(
    '/v2/segments',
    { schema: { summary: 'Delete a segment', tags, querystring: IdQuery, response: { 200: Deleted } } },
    async (request) => service.deleteSegment(deps, principalOf(request), request.query.id),
  );
}
