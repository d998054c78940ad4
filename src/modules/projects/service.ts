// Projects: a name and a memory (whose language pair they take); documents belong to them.
import { errors, FormatError } from '../../errors.ts';
import { readSrx, writeSrx } from '../../formats/srx/srx-file.ts';
import type { Attachment } from '../../http/attachments.ts';
import { isLinguist, type Principal } from '../../http/principal.ts';
import type { Db, Queryable } from '../../store/db.ts';
import type { Segmentation } from '../../text/segmentation-modes.ts';
import { builtInSrx, type SrxRules } from '../../text/srx.ts';
import {
  deleteDocumentsOfProject,
  documentsOfProjects,
  trySegmentationRules,
  wordsByStatus,
} from '../documents/service.ts';
import type { Languages } from '../languages/service.ts';
import { requireMemory } from '../memories/service.ts';
import type { ProjectState } from './project-states.ts';
import * as repo from './repository.ts';
import { DEFAULT_WORKFLOW_TEMPLATE, workflowTemplate } from './workflow-templates.ts';

export interface ProjectDeps {
  db: Db;
  languages: Languages;
  /** How long a project's own segmentation rules may run over the probe text they are tried on. */
  regexTimeoutMs: number;
}

async function withDocuments(db: Db, rows: repo.ProjectRow[], principal?: Principal) {
  const docs = await documentsOfProjects(
    db,
    rows.map((r) => r.id),
    principal,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    memory_id: row.memory_id,
    srclang: row.srclang,
    trglang: row.trglang,
    srclocale: row.srclocale,
    trglocale: row.trglocale,
    state: row.state,
    due_date: row.due_date,
    archived: row.archived === 1,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    job_id: row.job_id,
    propagate_repetitions: Number(row.propagate_repetitions) === 1,
    workflow_template_id: Number(row.workflow_template_id),
    segmentation: row.segmentation,
    segmentation_rules: row.segmentation_rules === null ? ('built-in' as const) : ('project' as const),
    created_at: row.created_at,
    updated_at: row.updated_at,
    document: docs.filter((d) => d.project_id === row.id),
  }));
}

/**
 * The organization's project of this id: documents are uploaded into it, live events watch it (documents
 * get this through app.ts, see ProjectsOfDocuments).
 */
export function findProject(db: Queryable, id: number, organizationId: number) {
  return repo.findProject(db, id, organizationId);
}

/** The memory of a project: its documents are pre-translated from it and confirm into it. */
export function memoryOfProject(db: Queryable, id: number): Promise<number | undefined> {
  return repo.memoryOfProject(db, id);
}

/** Whether confirming a segment of the project fills its repetitions (segments get this from here). */
export function propagatesRepetitions(db: Queryable, id: number): Promise<boolean> {
  return repo.propagatesRepetitions(db, id);
}

/** The projects working on a memory, which cannot be deleted while any does (memories get this through app.ts). */
export function projectsUsingMemory(db: Queryable, memoryId: number) {
  return repo.projectsUsingMemory(db, memoryId);
}

/**
 * A project the principal may see: of their organization, and for a translator or reviewer one holding a
 * document assigned to them. Other modules ask through this (events), never repo.findProject.
 */
export async function projectAccess(db: Queryable, principal: Principal, id: number) {
  const row = await repo.findProject(db, id, principal.organizationId);
  if (!row) throw errors.notFound('Project', id);
  if (isLinguist(principal) && (await documentsOfProjects(db, [id], principal)).length === 0) {
    throw errors.notFound('Project', id);
  }
  return row;
}

const requireProject = projectAccess;

/** A workflow template id given as a parameter, checked (undefined stays undefined). */
function requireTemplate(id: number | undefined): number | undefined {
  if (id !== undefined && !workflowTemplate(id)) {
    throw errors.badParameter(
      `Parameter "workflow_template_id": no template ${id}; GET /v2/workflows/templates lists them`,
    );
  }
  return id;
}

/** The workflow template of a project (the workflows module reads it from here). */
export async function templateOfProject(db: Queryable, id: number) {
  const row = await repo.findProjectById(db, id);
  return workflowTemplate(Number(row?.workflow_template_id)) ?? workflowTemplate(DEFAULT_WORKFLOW_TEMPLATE)!;
}

async function answer(db: Db, principal: Principal, id: number) {
  return (
    await withDocuments(db, [(await repo.findProject(db, id, principal.organizationId))!], principal)
  )[0];
}

export async function createProject(
  deps: Pick<ProjectDeps, 'db'>,
  principal: Principal,
  input: {
    name?: string;
    memory_id?: number;
    due_date?: number | null;
    metadata?: Record<string, unknown>;
    propagate_repetitions?: boolean;
    segmentation?: Segmentation;
    /** The Lilt Job it is the project of a language pair of (jobs create their projects). */
    job_id?: number;
    /** Locales of a job's language pair, when the pair names them (the memory's otherwise). */
    srclocale?: string | null;
    trglocale?: string | null;
    workflow_template_id?: number;
  },
) {
  const { db } = deps;
  const name = input.name?.trim();
  if (!name) throw errors.missingParameter('name');
  if (input.memory_id === undefined) throw errors.missingParameter('memory_id');
  const memory = await requireMemory(db, principal, input.memory_id);
  const id = await repo.insertProject(db, {
    organization_id: principal.organizationId,
    memory_id: memory.id,
    name,
    srclang: memory.srclang,
    trglang: memory.trglang,
    srclocale: input.srclocale ?? memory.srclocale,
    trglocale: input.trglocale ?? memory.trglocale,
    due_date: input.due_date ?? null,
    metadata: JSON.stringify(input.metadata ?? {}),
    job_id: input.job_id ?? null,
    propagate_repetitions: input.propagate_repetitions === false ? 0 : 1,
    segmentation: input.segmentation ?? 'auto',
    workflow_template_id: requireTemplate(input.workflow_template_id) ?? DEFAULT_WORKFLOW_TEMPLATE,
  });
  return answer(db, principal, id);
}

export async function listProjects(
  deps: Pick<ProjectDeps, 'db' | 'languages'>,
  principal: Principal,
  query: { id?: string; srclang?: string; trglang?: string; archived?: boolean },
) {
  const ids = query.id?.split(',').map(Number);
  if (ids?.some((id) => !Number.isSafeInteger(id) || id < 1)) {
    throw errors.badParameter('Parameter "id" must be positive integers, comma separated');
  }
  const rows = await repo.listProjects(deps.db, principal.organizationId, {
    ids,
    srclang: query.srclang === undefined ? undefined : deps.languages.require('srclang', query.srclang),
    trglang: query.trglang === undefined ? undefined : deps.languages.require('trglang', query.trglang),
    archived: query.archived,
  });
  let projects = await withDocuments(deps.db, rows, principal);
  // A translator or reviewer sees the projects where something is assigned to them.
  if (isLinguist(principal)) projects = projects.filter((p) => p.document.length > 0);
  if (ids?.length === 1 && projects.length === 0) throw errors.notFound('Project', ids[0]);
  return projects;
}

export async function updateProject(
  deps: ProjectDeps,
  principal: Principal,
  input: {
    id: number;
    name?: string;
    state?: ProjectState;
    due_date?: number | null;
    archived?: boolean;
    metadata?: Record<string, unknown>;
    memory_id?: number;
    propagate_repetitions?: boolean;
    segmentation?: Segmentation;
    workflow_template_id?: number;
  },
) {
  const { db } = deps;
  const project = await requireProject(db, principal, input.id);
  requireTemplate(input.workflow_template_id);
  if (input.memory_id !== undefined && input.memory_id !== project.memory_id) {
    const memory = await requireMemory(db, principal, input.memory_id);
    if (memory.srclang !== project.srclang || memory.trglang !== project.trglang) {
      throw errors.badParameter(
        `Field "memory_id": memory ${memory.id} is ${memory.srclang}→${memory.trglang}, not the project's ${project.srclang}→${project.trglang}`,
      );
    }
  }
  await repo.updateProject(db, input.id, principal.organizationId, {
    memory_id: input.memory_id,
    name: input.name?.trim() || undefined,
    state: input.state,
    due_date: input.due_date,
    archived: input.archived === undefined ? undefined : input.archived ? 1 : 0,
    metadata: input.metadata === undefined ? undefined : JSON.stringify(input.metadata),
    propagate_repetitions:
      input.propagate_repetitions === undefined ? undefined : input.propagate_repetitions ? 1 : 0,
    segmentation: input.segmentation,
    workflow_template_id: input.workflow_template_id,
  });
  return answer(db, principal, input.id);
}

// ---- The project's segmentation rules, exchanged as SRX 2.0 (GET, PUT, DELETE /v2/projects/segmentation).

/** The rules in force for the project's documents: its own, or the built-in ones written as SRX. */
function rulesOf(row: repo.ProjectRow): SrxRules {
  return row.segmentation_rules === null ? builtInSrx() : (JSON.parse(row.segmentation_rules) as SrxRules);
}

/** GET /v2/projects/segmentation: the rules in force as an SRX 2.0 file. */
export async function segmentationRules(
  deps: Pick<ProjectDeps, 'db'>,
  principal: Principal,
  id: number,
): Promise<Attachment> {
  const row = await requireProject(deps.db, principal, id);
  return {
    body: Buffer.from(writeSrx(rulesOf(row)), 'utf8'),
    contentType: 'application/xml; charset=utf-8',
    fileName: `project-${id}-segmentation.srx`,
  };
}

/**
 * PUT /v2/projects/segmentation: an SRX 2.0 file becomes the project's rules for documents imported from
 * now on. Its expressions are the user's: each is compiled, and all are tried on a probe text in a thread
 * under the regular-expression deadline, so that rules that never finish are refused here rather than met
 * by an import (where the same deadline ends them too).
 */
export async function putSegmentationRules(
  deps: ProjectDeps,
  principal: Principal,
  id: number,
  file: AsyncIterable<Buffer>,
) {
  const { db } = deps;
  const row = await requireProject(db, principal, id);
  let rules: SrxRules;
  try {
    rules = await readSrx(file);
  } catch (err) {
    // Not SRX, or not rules this server can run (XmlError and FileLimitError are FormatErrors).
    if (err instanceof FormatError) throw errors.malformedFile(`Segmentation rules: ${err.message}`);
    throw err;
  }
  await trySegmentationRules(rules, row.srclang, deps.regexTimeoutMs);
  await repo.updateProject(db, id, principal.organizationId, { segmentation_rules: JSON.stringify(rules) });
  return answer(db, principal, id);
}

/** DELETE /v2/projects/segmentation: the project goes back to the built-in rules. */
export async function deleteSegmentationRules(
  deps: Pick<ProjectDeps, 'db'>,
  principal: Principal,
  id: number,
) {
  await requireProject(deps.db, principal, id);
  await repo.updateProject(deps.db, id, principal.organizationId, { segmentation_rules: null });
  return answer(deps.db, principal, id);
}

/** The projects of a Lilt Job, as the Project resource answers them. */
export async function projectsOfJob(db: Db, jobId: number) {
  return withDocuments(db, await repo.projectsOfJob(db, jobId));
}

/** Archives (or unarchives) every project of a job. */
export function archiveProjectsOfJob(db: Queryable, jobId: number, archived: boolean) {
  return repo.updateProjectsOfJob(db, jobId, { archived: archived ? 1 : 0 });
}

/** Marks every project of a job done (delivered) or back in progress (reactivated). */
export function setProjectsOfJobDone(db: Queryable, jobId: number, done: boolean) {
  return repo.updateProjectsOfJob(db, jobId, { state: done ? 'done' : 'inProgress' });
}

/** Deletes every project of a job, with its documents, inside the caller's transaction. */
export async function deleteProjectsOfJob(tx: Queryable, jobId: number) {
  for (const project of await repo.projectsOfJob(tx, jobId)) {
    await deleteDocumentsOfProject(tx, project.id);
    await repo.deleteProject(tx, project.id);
  }
}

/**
 * GET /v2/projects/status: Lilt's status of a project — its source words, and how many are confirmed and
 * reviewed — with its words by status, whole and per document (extensions). Words as the analysis counts them.
 */
export async function projectStatus(deps: ProjectDeps, principal: Principal, id: number) {
  const { db } = deps;
  await requireProject(db, principal, id);
  const docs = (await documentsOfProjects(db, [id], principal)).sort((a, b) => a.id - b.id);
  const total = { new: 0, draft: 0, pretranslated: 0, confirmed: 0, reviewed: 0, total: 0 };
  const documents = [];
  for (const doc of docs) {
    const words = await wordsByStatus(db, doc.id);
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += words[k];
    documents.push({ id: doc.id, name: doc.name, words });
  }
  return {
    id,
    num_source_words: total.total,
    num_words_confirmed: total.confirmed + total.reviewed,
    num_words_reviewed: total.reviewed,
    time_elapsed: 0,
    time_elapsed_translation: 0,
    time_elapsed_research: 0,
    time_elapsed_review: 0,
    resources: [],
    words: total,
    documents,
  };
}

export async function deleteProject(deps: ProjectDeps, principal: Principal, id: number) {
  const { db } = deps;
  await requireProject(db, principal, id);
  await db.transaction(async (tx) => {
    await deleteDocumentsOfProject(tx, id);
    await repo.deleteProject(tx, id);
  });
  return { id, deleted: true };
}
