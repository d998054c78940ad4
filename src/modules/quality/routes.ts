// /v2/quality (extension): MQM annotations of a document's segments, the document's score, its report as JSON
// and CSV, and a project's pass threshold.
import { Type } from 'typebox';
import { sendAttachment } from '../../http/attachments.ts';
import { principalOf } from '../../http/principal.ts';
import { Deleted, IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import {
  Annotation,
  CreateAnnotationBody,
  DocumentQuery,
  ListAnnotationsQuery,
  ProjectQuery,
  QualityReport,
  QualityScore,
  QualitySettings,
  UpdateAnnotationBody,
  UpdateQualitySettingsBody,
} from './schemas.ts';
import * as service from './service.ts';

export async function qualityRoutes(app: App, deps: { db: Db }) {
  const { db } = deps;
  const tags = ['quality'];

  app.get(
    '/v2/quality/annotations',
    {
      schema: {
        summary: "A document's MQM error annotations, or one segment's (ext.)",
        tags,
        querystring: ListAnnotationsQuery,
        response: { 200: Type.Array(Annotation) },
      },
    },
    async (request) => service.listAnnotations(db, principalOf(request), request.query),
  );

  app.post(
    '/v2/quality/annotations',
    {
      schema: {
        summary: 'Annotate an error on a document segment: an MQM-Core category and a severity (ext.)',
        tags,
        body: CreateAnnotationBody,
        response: { 200: Annotation },
      },
    },
    async (request) => service.createAnnotation(db, principalOf(request), request.body),
  );

  app.put(
    '/v2/quality/annotations',
    {
      schema: {
        summary: "Change an annotation's category, severity or note (ext.)",
        tags,
        body: UpdateAnnotationBody,
        response: { 200: Annotation },
      },
    },
    async (request) => service.updateAnnotation(db, principalOf(request), request.body),
  );

  app.delete(
    '/v2/quality/annotations',
    {
      schema: {
        summary: 'Delete an annotation (ext.)',
        tags,
        querystring: IdQuery,
        response: { 200: Deleted },
      },
    },
    async (request) => service.deleteAnnotation(db, principalOf(request), request.query.id),
  );

  app.get(
    '/v2/quality/score',
    {
      schema: {
        summary: "A document's quality score: MQM penalty points per 1,000 words, pass or fail (ext.)",
        tags,
        querystring: DocumentQuery,
        response: { 200: QualityScore },
      },
    },
    async (request) => service.qualityScore(db, principalOf(request), request.query.document_id),
  );

  app.get(
    '/v2/quality/report',
    {
      schema: {
        summary: "A document's quality report: the score, the errors by category, every annotation (ext.)",
        tags,
        querystring: DocumentQuery,
        response: { 200: QualityReport },
      },
    },
    async (request) => service.qualityReport(db, principalOf(request), request.query.document_id),
  );

  app.get(
    '/v2/quality/report.csv',
    {
      schema: {
        summary: 'The quality report as CSV: a row per annotation, then the categories and the score (ext.)',
        tags,
        querystring: DocumentQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) =>
      sendAttachment(
        reply,
        await service.qualityReportCsv(db, principalOf(request), request.query.document_id),
      ),
  );

  app.get(
    '/v2/quality/settings',
    {
      schema: {
        summary: "A project's quality pass threshold, in penalty points per 1,000 words (ext.)",
        tags,
        querystring: ProjectQuery,
        response: { 200: QualitySettings },
      },
    },
    async (request) => service.qualitySettings(db, principalOf(request), request.query.project_id),
  );

  app.put(
    '/v2/quality/settings',
    {
      schema: {
        summary: "Set a project's quality pass threshold (ext.)",
        tags,
        body: UpdateQualitySettingsBody,
        response: { 200: QualitySettings },
      },
    },
    async (request) => service.updateQualitySettings(db, principalOf(request), request.body),
  );
}
