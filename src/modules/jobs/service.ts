// Lilt's Jobs: one set of source files translated into several languages — a project per language pair on
// that pair's memory, a document per file in each — delivered, archived, analysed and exported as one.
import { Readable } from 'node:stream';
import type { Static } from 'typebox';
import { errors } from '../../errors.ts';
import { filterForName, SUPPORTED_EXTENSIONS } from '../../formats/registry.ts';
import type { Attachment } from '../../http/attachments.ts';
import type { Principal } from '../../http/principal.ts';
import { CONTEXT_SCORE, EXACT_SCORE, MATCH_BANDS } from '../../matching/score-bands.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import { insertTask } from '../../tasks/queue.ts';
import { readTaskFile } from '../../tasks/task-files.ts';
import type { TaskNotifier } from '../../tasks/task-worker.ts';
import { requireLocale } from '../../text/locales.ts';
import { type DocumentDeps, uploadDocument } from '../documents/service.ts';
import { fileBytes, requireFile } from '../files/service.ts';
import type { Languages } from '../languages/service.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { requireMemory } from '../memories/service.ts';
import {
  archiveProjectsOfJob,
  createProject,
  deleteProjectsOfJob,
  listProjects,
  projectsOfJob,
  setProjectsOfJobDone,
} from '../projects/service.ts';
import { workflowTemplate } from '../projects/workflow-templates.ts';
import { analysisCsv } from './analysis-csv.ts';
import type { JobExportTaskParams } from './export-task.ts';
import { analyseJob, analyseProject, type MtProviderOf } from './leverage.ts';
import * as repo from './repository.ts';
import type {
  CreateJobBody,
  JobAction,
  JobLeverageStats,
  LeverageBand,
  LeverageBands,
  ListJobsQuery,
  UpdateJobBody,
} from './schemas.ts';
import { weightsOf } from './weights.ts';

export interface JobDeps extends DocumentDeps {
  languages: Languages;
  indexes: IndexCache;
  tasks: TaskNotifier;
  /** Which MT engine serves a pair (the analysis's mtProvider); absent: none does. */
  mtProviderOf?: MtProviderOf;
}

/** The MT engine serving a project's pair for the organization, as BCP-47 tags (null: none). */
function mtProviderOfProject(
  deps: JobDeps,
  organizationId: number,
  p: { srclang: string; srclocale: string | null; trglang: string; trglocale: string | null },
): Promise<string | null> {
  if (!deps.mtProviderOf) return Promise.resolve(null);
  const tag = (lang: string, locale: string | null) => (locale ? `${lang}-${locale}` : lang);
  return deps.mtProviderOf(organizationId, tag(p.srclang, p.srclocale), tag(p.trglang, p.trglocale));
}

type JobProjects = Awaited<ReturnType<typeof projectsOfJob>>;
type Leverage = Static<typeof JobLeverageStats>;

const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

/** An ISO 8601 date (or date-time) parameter as Unix seconds; null when absent; 400 naming it when invalid. */
/** Due dates outside these years are a client's mistake (a year or seconds read as milliseconds), not a plan. */
const PLAUSIBLE_FROM = Date.UTC(2000, 0, 1);
const PLAUSIBLE_TO = Date.UTC(2100, 0, 1);

/**
 * A due date in Unix seconds: an ISO 8601 string, or epoch milliseconds as Lilt's Node SDK types it (a
 * number, or its digits in a string). A date before 2000 or after 2100 is refused naming the field, so that
 * a mangled value (`2031`, which is 1970 in milliseconds) is never stored as a date.
 */
function seconds(name: string, value: string | number | null | undefined): number | null {
  if (value === undefined || value === null || value === '') return null;
  const epoch = typeof value === 'number' || /^\d+$/.test(value);
  const ms = epoch ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) {
    throw errors.badParameter(
      `Field "${name}" must be an ISO 8601 date or epoch milliseconds, got "${value}"`,
    );
  }
  if (ms < PLAUSIBLE_FROM || ms > PLAUSIBLE_TO) {
    throw errors.badParameter(
      `Field "${name}" must be a date from 2000 to 2100, got "${value}"${epoch ? ' (read as epoch milliseconds)' : ''}`,
    );
  }
  return Math.floor(ms / 1000);
}

/** PENDING until every document is imported (and pre-translated when asked); FAILED when one could not be. */
function creationStatus(projects: JobProjects): 'PENDING' | 'COMPLETE' | 'FAILED' {
  const documents = projects.flatMap((p) => p.document);
  if (documents.some((d) => !d.import_in_progress && !d.import_succeeded)) return 'FAILED';
  if (documents.some((d) => d.import_in_progress || d.is_pretranslating)) return 'PENDING';
  return 'COMPLETE';
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((100 * part) / whole);
}

export function publicJob(row: repo.JobRow, projects: JobProjects) {
  const documents = projects.flatMap((p) => p.document);
  const segments = documents.reduce((n, d) => n + d.num_segments, 0);
  const leverage = row.leverage ? (JSON.parse(row.leverage) as Leverage) : null;
  const delivered = row.delivered_at !== null;
  const status = creationStatus(projects);
  const failedImport = documents.find((d) => d.import_error_message)?.import_error_message ?? null;
  return {
    id: row.id,
    name: row.name,
    creationStatus: status,
    status:
      row.archived === 1 ? ('archived' as const) : delivered ? ('delivered' as const) : ('active' as const),
    due: iso(row.due),
    deliveredAt: iso(row.delivered_at),
    isProcessing: row.export_state === 'running' ? 1 : row.export_state === 'failed' ? -2 : 0,
    stats: {
      sourceWords: documents.reduce((n, d) => n + d.num_words, 0),
      exactWords: leverage?.exactWords ?? 0,
      fuzzyWords: leverage?.fuzzyWords ?? 0,
      newWords: leverage?.newWords ?? 0,
      numProjects: projects.length,
      numLanguagePairs: projects.length,
      uniqueLanguagePairs: new Set(projects.map((p) => `${p.srclang}-${p.trglang}`)).size,
      numDeliveredProjects: delivered ? projects.length : 0,
      percentTranslated: percent(
        documents.reduce((n, d) => n + d.num_confirmed, 0),
        segments,
      ),
      percentReviewed: percent(
        documents.reduce((n, d) => n + d.num_reviewed, 0),
        segments,
      ),
      uniqueLinguists: 0,
      workflowStatus: delivered
        ? 'DONE'
        : segments > 0 && documents.some((d) => d.num_confirmed > 0)
          ? 'IN_PROGRESS'
          : 'READY_TO_START',
      projects: projects.map((p) => {
        const words = p.document.reduce((n, d) => n + d.num_words, 0);
        const total = p.document.reduce((n, d) => n + d.num_segments, 0);
        const confirmed = p.document.reduce((n, d) => n + d.num_confirmed, 0);
        return {
          id: p.id,
          name: p.name,
          srcLang: p.srclang,
          srcLocale: p.srclocale,
          trgLang: p.trglang,
          trgLocale: p.trglocale,
          due: iso(p.due_date),
          isComplete: delivered || (total > 0 && confirmed === total),
          isArchived: p.archived,
          isDeleted: false,
          state: p.state,
          numSourceTokens: words,
          createdAt: iso(p.created_at)!,
          updatedAt: iso(p.updated_at)!,
          memoryId: p.memory_id,
          workflowStatus: delivered ? 'DONE' : confirmed > 0 ? 'IN_PROGRESS' : 'READY_TO_START',
          workflowName: null,
        };
      }),
    },
    srcLang: row.src_lang,
    srcLocale: row.src_locale,
    processingErrorMsg:
      row.export_state === 'failed' ? row.export_error : status === 'FAILED' ? failedImport : null,
    exportReady: row.export_task_id !== null && row.export_state !== 'running',
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

async function answer(db: Db, row: repo.JobRow) {
  return publicJob(row, await projectsOfJob(db, row.id));
}

export async function requireJob(db: Queryable, principal: Principal, id: number) {
  const row = await repo.findJob(db, id, principal.organizationId);
  if (!row) throw errors.notFound('Job', id);
  return row;
}

/**
 * POST /v2/jobs: a project per language pair (on that pair's memory, whose languages must be the pair's),
 * and in each a document per file, parsed and — when the pair asks — pre-translated as tasks.
 */
/**
 * A workflow template id as Lilt's clients send it (a number, or a number as a string), when it names one of
 * GET /v2/workflows/templates. Any other value is left out, as before templates existed: a client coming from
 * Lilt sends its own team's template ids, which mean nothing here, and its job must still be created.
 */
function templateParam(value: unknown): number | undefined {
  const id = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && workflowTemplate(id) ? id : undefined;
}

export async function createJob(deps: JobDeps, principal: Principal, body: Static<typeof CreateJobBody>) {
  const { db } = deps;
  const srcLang = deps.languages.require('srcLang', body.srcLang);
  const srcLocale = requireLocale('srcLocale', body.srcLocale);
  const due = seconds('due', body.due);
  const files = [];
  for (const id of new Set(body.fileIds)) {
    const file = await requireFile(db, principal, id);
    if (!filterForName(file.name)) throw errors.unsupportedMediaType(file.name, SUPPORTED_EXTENSIONS);
    files.push(file);
  }
  const jobTemplate = templateParam(body.workflowTemplateId);
  const pairs = [];
  for (const [i, pair] of body.languagePairs.entries()) {
    const trgLang = deps.languages.require(`languagePairs.${i}.trgLang`, pair.trgLang);
    const memory = await requireMemory(db, principal, pair.memoryId);
    if (memory.srclang !== srcLang || memory.trglang !== trgLang) {
      throw errors.badParameter(
        `Field "languagePairs.${i}.memoryId": memory ${memory.id} is ${memory.srclang}→${memory.trglang}, not ${srcLang}→${trgLang}`,
      );
    }
    pairs.push({
      ...pair,
      trgLang,
      trgLocale: requireLocale(`languagePairs.${i}.trgLocale`, pair.trgLocale),
      due: seconds(`languagePairs.${i}.dueDate`, pair.dueDate) ?? due,
      // Lilt's workflow of the pair, else the job's: the project's workflow template.
      workflowTemplateId: templateParam(pair.workflowTemplateId) ?? jobTemplate,
    });
  }

  const jobId = await repo.insertJob(db, {
    organizationId: principal.organizationId,
    name: body.name.trim(),
    srcLang,
    srcLocale,
    due,
  });
  try {
    for (const pair of pairs) {
      const project = await createProject({ db }, principal, {
        name: `${body.name.trim()} (${pair.trgLocale ?? pair.trgLang})`,
        memory_id: pair.memoryId,
        due_date: pair.due,
        job_id: jobId,
        srclocale: srcLocale,
        trglocale: pair.trgLocale ?? null,
        workflow_template_id: pair.workflowTemplateId,
      });
      for (const file of files) {
        await uploadDocument(
          deps,
          principal,
          {
            name: file.name,
            project_id: project.id,
            pretranslate: pair.pretranslate ? 'TM' : undefined,
            auto_accept: pair.autoAccept ?? false,
            auto_accept_scope: pair.autoAcceptScope ?? undefined,
            case_sensitive: pair.caseSensitive ?? false,
          },
          fileBytes(db, file.id),
        );
      }
    }
  } catch (err) {
    // Nothing of a job that could not be made stays behind.
    await db.transaction(async (tx) => {
      await deleteProjectsOfJob(tx, jobId);
      await repo.deleteJob(tx, jobId);
    });
    throw err;
  }
  return answer(db, (await repo.jobById(db, jobId))!);
}

export async function listJobs(db: Db, principal: Principal, query: Static<typeof ListJobsQuery>) {
  const rows = await repo.listJobs(db, principal.organizationId, {
    archived: query.isArchived,
    delivered: query.isDelivered,
    offset: query.offset ?? 0,
    limit: query.limit ?? 100,
  });
  const jobs = [];
  for (const row of rows) jobs.push(await answer(db, row));
  return jobs;
}

export async function getJob(db: Db, principal: Principal, id: number) {
  return answer(db, await requireJob(db, principal, id));
}

export async function updateJob(
  db: Db,
  principal: Principal,
  id: number,
  body: Static<typeof UpdateJobBody>,
) {
  await requireJob(db, principal, id);
  await repo.updateJob(db, id, {
    name: body.name?.trim() || undefined,
    due: body.dueDate === undefined ? undefined : seconds('dueDate', body.dueDate),
  });
  return getJob(db, principal, id);
}

/** DELETE /v2/jobs/{jobId}: the job, its projects and their documents. */
export async function deleteJob(db: Db, principal: Principal, id: number) {
  await requireJob(db, principal, id);
  await db.transaction(async (tx) => {
    await deleteProjectsOfJob(tx, id);
    await repo.deleteJob(tx, id);
  });
  return { id, deleted: true };
}

/** archive · unarchive · deliver · reactivate: the job and its projects together. */
export async function setJobStatus(db: Db, principal: Principal, id: number, action: JobAction) {
  await requireJob(db, principal, id);
  await db.transaction(async (tx) => {
    if (action === 'archive' || action === 'unarchive') {
      await repo.updateJob(tx, id, { archived: action === 'archive' ? 1 : 0 });
      await archiveProjectsOfJob(tx, id, action === 'archive');
    } else {
      await repo.updateJob(tx, id, { delivered_at: action === 'deliver' ? nowSeconds() : null });
      await setProjectsOfJobDone(tx, id, action === 'deliver');
    }
  });
  return getJob(db, principal, id);
}

/**
 * POST /v2/jobs/{jobId}/stats: the leverage analysis, run now against each pair's memory and kept with the
 * job (its stats show the figures from then on). Refused while the job's documents are still being made.
 */
export async function analyse(deps: JobDeps, principal: Principal, id: number) {
  const { db } = deps;
  await requireJob(db, principal, id);
  const projects = await projectsOfJob(db, id);
  if (creationStatus(projects) === 'PENDING') {
    throw errors.jobBusy(`Job ${id} is still being created; retry when creationStatus is COMPLETE`);
  }
  const { weights } = await weightsOf(db, principal.organizationId);
  const mtProviders = await Promise.all(
    projects.map((p) => mtProviderOfProject(deps, principal.organizationId, p)),
  );
  const stats = await analyseJob(db.background(), deps.indexes, projects, weights, mtProviders);
  await repo.updateJob(db, id, { leverage: JSON.stringify(stats) });
  return stats;
}

/** GET /v2/jobs/{jobId}/stats.csv: the same analysis, run now, as a CSV file named after the job. */
export async function analysisAsCsv(deps: JobDeps, principal: Principal, id: number): Promise<Attachment> {
  const row = await requireJob(deps.db, principal, id);
  const stats = await analyse(deps, principal, id);
  return {
    body: Buffer.from(analysisCsv(stats)),
    contentType: 'text/csv; charset=utf-8',
    fileName: `${row.name.replace(/[^\w.-]+/g, '_') || 'job'}-analysis.csv`,
  };
}

/** Lilt's MatchBands of the quote: 101 % (context), 100 % and the fuzzy bands, best first. */
function matchBands(bands: Static<typeof LeverageBands>, segments: Static<typeof LeverageBands>) {
  const ranges: [LeverageBand, number, number][] = [
    ['context', CONTEXT_SCORE, CONTEXT_SCORE],
    ...MATCH_BANDS.map((b, i): [LeverageBand, number, number] => [
      b.band,
      b.min,
      i === 0 ? EXACT_SCORE : MATCH_BANDS[i - 1].min - 1,
    ]),
  ];
  return ranges.map(([band, min, max]) => ({
    minimum_score: min,
    maximum_score: max,
    num_source_words: bands[band],
    num_segments: segments[band],
  }));
}

function quoteOf(
  id: number,
  t: {
    sourceWords: number;
    bands: Static<typeof LeverageBands>;
    bandSegments: Static<typeof LeverageBands>;
    weightedWords: number;
  },
) {
  return {
    id,
    num_source_words: t.sourceWords,
    num_words_new: t.bands.new,
    num_segments_new: t.bandSegments.new,
    num_words_repetition: t.bands.repetitions,
    num_segments_repetition: t.bandSegments.repetitions,
    num_words_mt: t.bands.mt,
    num_segments_mt: t.bandSegments.mt,
    bands: matchBands(t.bands, t.bandSegments),
    weighted_words: t.weightedWords,
  };
}

/**
 * GET /v2/projects/quote: Lilt's quote of a project — its words and segments by match band against its
 * memory, new and repeated, per document — from the job analysis's code (leverage.ts), run now.
 */
export async function projectQuote(deps: JobDeps, principal: Principal, id: number) {
  const [project] = await listProjects(deps, principal, { id: String(id) });
  if (project.document.some((d) => d.import_in_progress)) {
    throw errors.documentBusy(`Project ${id} has documents still being imported; retry when they are`, 2);
  }
  const { weights } = await weightsOf(deps.db, principal.organizationId);
  const analysed = await analyseProject(
    deps.db.background(),
    deps.indexes,
    project,
    weights,
    await mtProviderOfProject(deps, principal.organizationId, project),
  );
  return {
    ...quoteOf(project.id, analysed),
    documents: analysed.files.map((f) => quoteOf(f.documentId, f)),
    weights,
  };
}

/**
 * GET /v2/jobs/{jobId}/export: prepares the zip of the translated files (or of the memories) as a task;
 * the job shows isProcessing 1 until it is ready. Refused while the job's documents are still being made.
 */
export async function startExport(
  deps: JobDeps,
  principal: Principal,
  id: number,
  type: JobExportTaskParams['type'],
) {
  const { db } = deps;
  const row = await requireJob(db, principal, id);
  const projects = await projectsOfJob(db, id);
  const status = creationStatus(projects);
  if (type === 'files' && status === 'PENDING') {
    throw errors.jobBusy(`Job ${id} is still being created; retry when creationStatus is COMPLETE`);
  }
  if (type === 'files' && status === 'FAILED') {
    const failed = projects.flatMap((p) => p.document).find((d) => d.import_error_message);
    throw errors.jobNotCreated(
      id,
      failed ? { name: failed.name, error: failed.import_error_message! } : undefined,
    );
  }
  // The answer is read inside the transaction: once it commits, the task may start at once, and a read after
  // the commit that failed (a lost connection) would answer 503 for an export that did start — and a client
  // retrying on 503, as it should, would then be told 409 "being exported" for its own export.
  const started = await db.transaction(async (tx) => {
    if (!(await repo.startExport(tx, id, type))) {
      throw errors.jobBusy(`Job ${id} is being exported; retry when isProcessing is 0`);
    }
    await insertTask(tx, {
      organizationId: row.organization_id,
      type: 'job_export',
      params: { jobId: id, type } satisfies JobExportTaskParams,
    });
    return requireJob(tx, principal, id);
  });
  deps.tasks.wake();
  return publicJob(started, projects);
}

/** GET /v2/jobs/{jobId}/download: the zip the last export prepared, streamed. */
export async function downloadExport(db: Db, principal: Principal, id: number): Promise<Attachment> {
  const row = await requireJob(db, principal, id);
  if (row.export_state === 'running') {
    throw errors.jobBusy(`Job ${id} is being exported; retry when isProcessing is 0`);
  }
  if (row.export_task_id === null) {
    throw errors.notFound(`An export of job ${id} (GET /v2/jobs/${id}/export?type=files first)`);
  }
  return {
    body: Readable.from(readTaskFile(db.background(), row.export_task_id)),
    contentType: 'application/zip',
    fileName: `${row.name.replace(/[^\w.-]+/g, '_') || 'job'}.zip`,
  };
}
