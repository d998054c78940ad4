// /v2/jobs: Lilt's Jobs — one source, several target languages; analysis, delivery, zip export.
import { Type } from 'typebox';
import { sendAttachment } from '../../http/attachments.ts';
import { principalOf } from '../../http/principal.ts';
import { IdQuery } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { CONTEXT_SCORE, EXACT_SCORE, MATCH_BANDS, MIN_SCORE } from '../../matching/score-bands.ts';
import {
  AnalysisWeights,
  CreateJobBody,
  ExportQuery,
  JOB_ACTIONS,
  Job,
  type JobAction,
  JobDeleted,
  JobLeverageStats,
  JobParams,
  ListJobsQuery,
  ProjectQuote,
  UpdateJobBody,
  UpdateWeightsBody,
} from './schemas.ts';
import type { JobDeps } from './service.ts';
import * as service from './service.ts';
import { getWeights, updateWeights } from './weights.ts';

/** The match bands' score ranges, best first, as the leverage analysis's description names them. */
const BAND_RANGES = MATCH_BANDS.map((b) => b.label.replace('%', '')).join(', ');

export async function jobsRoutes(app: App, deps: JobDeps) {
  const { db } = deps;
  const tags = ['jobs'];

  app.post(
    '/v2/jobs',
    {
      schema: {
        summary: 'Create a job: a project per language pair, a document per file in each',
        description:
          'Documents are imported (and pre-translated when the pair asks) in the background: creationStatus is PENDING until they are, then COMPLETE or FAILED.',
        tags,
        body: CreateJobBody,
        response: { 200: Job },
      },
    },
    async (request) => service.createJob(deps, principalOf(request), request.body),
  );

  app.get(
    '/v2/jobs',
    {
      schema: { summary: 'List jobs', tags, querystring: ListJobsQuery, response: { 200: Type.Array(Job) } },
    },
    async (request) => service.listJobs(db, principalOf(request), request.query),
  );

  app.get(
    '/v2/jobs/:jobId',
    { schema: { summary: 'A job', tags, params: JobParams, response: { 200: Job } } },
    async (request) => service.getJob(db, principalOf(request), request.params.jobId),
  );

  app.put(
    '/v2/jobs/:jobId',
    {
      schema: {
        summary: 'Rename a job or change its due date',
        tags,
        params: JobParams,
        body: UpdateJobBody,
        response: { 200: Job },
      },
    },
    async (request) => service.updateJob(db, principalOf(request), request.params.jobId, request.body),
  );

  app.delete(
    '/v2/jobs/:jobId',
    {
      schema: {
        summary: 'Delete a job with its projects and documents',
        tags,
        params: JobParams,
        response: { 200: JobDeleted },
      },
    },
    async (request) => service.deleteJob(db, principalOf(request), request.params.jobId),
  );

  app.post(
    '/v2/jobs/:jobId/stats',
    {
      schema: {
        summary: "Leverage analysis: each pair's source words as exact, fuzzy and new against its memory",
        description:
          `Exact: best match ${EXACT_SCORE}; fuzzy: ${MIN_SCORE}–${EXACT_SCORE - 1}; new: below ${MIN_SCORE}. ` +
          `bands (an extension) splits the same words into 101 (context matches), ${BAND_RANGES}, repetitions within the job and new; ` +
          'per file (files), with segments by band and weighted words (weights: GET /v2/analysis/weights).',
        tags,
        params: JobParams,
        response: { 200: JobLeverageStats },
      },
    },
    async (request) => service.analyse(deps, principalOf(request), request.params.jobId),
  );

  app.get(
    '/v2/jobs/:jobId/stats.csv',
    {
      schema: {
        summary:
          'The leverage analysis as CSV: a row per file of each language pair, totals and weights (ext.)',
        description:
          'Runs the analysis of POST /v2/jobs/{jobId}/stats now (and keeps it with the job as that does), in RFC 4180 CSV.',
        tags,
        params: JobParams,
        produces: ['text/csv'],
      },
    },
    async (request, reply) =>
      sendAttachment(reply, await service.analysisAsCsv(deps, principalOf(request), request.params.jobId)),
  );

  app.get(
    '/v2/analysis/weights',
    {
      schema: {
        summary: "The leverage analysis's weights: each band's share of a new word, in percent (ext.)",
        tags,
        response: { 200: AnalysisWeights },
      },
    },
    async (request) => getWeights(db, principalOf(request)),
  );

  app.put(
    '/v2/analysis/weights',
    {
      schema: {
        summary: "Change the organization's analysis weights, or reset them to the defaults (ext., admins)",
        tags,
        body: UpdateWeightsBody,
        response: { 200: AnalysisWeights },
      },
    },
    async (request) => updateWeights(db, principalOf(request), request.body),
  );

  // Lilt's project quote sits with the analysis it is answered from (projects sit below jobs).
  app.get(
    '/v2/projects/quote',
    {
      schema: {
        summary: "A project's quote: its words and segments by match band against its memory, per document",
        description: `Bands: ${CONTEXT_SCORE} (context matches), ${BAND_RANGES}; repetitions within the project and new words apart. weighted_words and weights are extensions.`,
        tags: ['projects'],
        querystring: IdQuery,
        response: { 200: ProjectQuote },
      },
    },
    async (request) => service.projectQuote(deps, principalOf(request), request.query.id),
  );

  for (const [action, summary] of Object.entries(JOB_ACTIONS) as [JobAction, string][]) {
    app.post(
      `/v2/jobs/:jobId/${action}`,
      { schema: { summary, tags, params: JobParams, response: { 200: Job } } },
      async (request) => service.setJobStatus(db, principalOf(request), request.params.jobId, action),
    );
  }

  app.get(
    '/v2/jobs/:jobId/export',
    {
      schema: {
        summary: "Prepare the job's zip: its translated files, or its memories as TMX",
        description:
          'The job shows isProcessing 1 while the zip is made, 0 when it can be downloaded, -2 when it failed.',
        tags,
        params: JobParams,
        querystring: ExportQuery,
        response: { 200: Job },
      },
    },
    async (request) =>
      service.startExport(deps, principalOf(request), request.params.jobId, request.query.type),
  );

  app.get(
    '/v2/jobs/:jobId/download',
    {
      schema: {
        summary: 'The zip the last export prepared: a folder per target language',
        tags,
        params: JobParams,
        produces: ['application/zip'],
      },
    },
    async (request, reply) =>
      sendAttachment(reply, await service.downloadExport(db, principalOf(request), request.params.jobId)),
  );
}
