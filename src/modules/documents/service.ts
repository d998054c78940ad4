// Documents: upload, the Document resource, pre-translation requests; the views of documents and their
// segments that projects and segments answer with.
import { errors } from '../../errors.ts';
import { filterForName, SUPPORTED_EXTENSIONS } from '../../formats/registry.ts';
import type { Principal } from '../../http/principal.ts';
import { nextTurn } from '../../pacing.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import { activeTaskOf, insertTask, replaceQueuedParams } from '../../tasks/queue.ts';
import type { TaskNotifier } from '../../tasks/task-worker.ts';
import { requireFileName } from '../../text/file-names.ts';
import { checkSegment } from '../../text/qa/qa-checks.ts';
import type { EventBus } from '../events/event-bus.ts';
import {
  IMPORT,
  IMPORT_STATES,
  isExporting,
  isImporting,
  isPretranslating,
  PRETRANSLATION,
  SEGMENT_STATUSES,
  type SegmentStatus,
} from './document-states.ts';
import { compileReplacer, replaceAll } from './find-replace.ts';
import * as repo from './repository.ts';
import * as segments from './segment-repository.ts';
import type { DocumentImportParams, PretranslateOptions } from './task-params.ts';

export interface DocumentDeps {
  db: Db;
  events: EventBus;
  tasks: TaskNotifier;
  maxUploadBytes: number;
  /** This server process, named as the holder of uploads being stored and exports being streamed. */
  instanceId: string;
}

export function publicDocument(row: repo.DocumentRow) {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    srclang: row.srclang,
    trglang: row.trglang,
    import_in_progress: isImporting(row),
    import_succeeded: row.import_state === IMPORT_STATES.succeeded,
    import_error_message: row.import_error,
    export_in_progress: isExporting(row),
    export_succeeded: row.export_succeeded === 1,
    export_error_message: row.export_error,
    is_pretranslating: isPretranslating(row),
    status: { pretranslation: row.pretranslate_state },
    is_review_complete: row.is_review_complete === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    num_segments: row.num_segments,
    num_confirmed: row.num_confirmed,
    num_reviewed: row.num_reviewed,
    num_words: row.num_words,
    format: row.format,
  };
}

export function publicSegment(row: repo.SegmentRow, doc: { srclang: string; trglang: string }) {
  return {
    id: row.id,
    document_id: row.document_id,
    memory_id: null,
    source: row.source,
    target: row.target,
    srclang: doc.srclang,
    trglang: doc.trglang,
    is_confirmed: row.is_confirmed === 1,
    is_reviewed: row.is_reviewed === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status: row.status,
    match_score: row.match_score,
    position: row.position,
    context: row.context,
    repairs:
      row.repairs === null ? null : (JSON.parse(row.repairs) as { from: string; to: string; kind: string }[]),
  };
}

export async function requireDocument(db: Queryable, principal: Principal, id: number) {
  const doc = await repo.findDocument(db, id, principal.organizationId);
  if (!doc) throw errors.notFound('Document', id);
  return doc;
}

export interface DocumentUpload {
  name: string;
  project_id: number;
  pretranslate?: 'TM' | boolean;
  auto_accept?: boolean;
  case_sensitive?: boolean;
}

/** POST /v2/documents/files: stores the original and queues its parsing, atomically. */
export async function uploadDocument(
  deps: DocumentDeps,
  principal: Principal,
  upload: DocumentUpload,
  file: AsyncIterable<Buffer>,
) {
  const { db } = deps;
  const name = requireFileName(upload.name);
  const filter = filterForName(name);
  if (!filter) throw errors.unsupportedMediaType(name, SUPPORTED_EXTENSIONS);
  const params: DocumentImportParams = {
    pretranslate: upload.pretranslate === 'TM' || upload.pretranslate === true,
    auto_accept: upload.auto_accept ?? false,
    case_sensitive: upload.case_sensitive ?? false,
    attribute_to_creator: false,
    username: principal.username,
  };
  const project = await repo.findProject(db, upload.project_id, principal.organizationId);
  if (!project) throw errors.notFound('Project', upload.project_id);

  const documentId = await repo.insertDocument(db, {
    organizationId: principal.organizationId,
    projectId: project.id,
    name,
    format: filter.name,
    srclang: project.srclang,
    trglang: project.trglang,
    owner: deps.instanceId,
  });
  try {
    const size = await repo.storeOriginal(db, documentId, file, deps.maxUploadBytes);
    await db.transaction(async (tx) => {
      await repo.moveImport(tx, documentId, IMPORT.stored, { size_bytes: size, owner: null });
      await insertTask(tx, {
        organizationId: principal.organizationId,
        type: 'document_import',
        documentId,
        params,
      });
    });
  } catch (err) {
    await db.transaction((tx) => repo.deleteDocument(tx, documentId));
    throw err;
  }
  deps.tasks.wake();
  return publicDocument((await repo.documentById(db, documentId))!);
}

export async function getDocument(db: Db, principal: Principal, id: number, withSegments: boolean) {
  const doc = await requireDocument(db, principal, id);
  const answer: ReturnType<typeof publicDocument> & { segments?: ReturnType<typeof publicSegment>[] } =
    publicDocument(doc);
  if (withSegments) {
    answer.segments = [];
    for await (const rows of segments.segmentPages(db, id)) {
      for (const row of rows) answer.segments.push(publicSegment(row, doc));
    }
  }
  return answer;
}

/** GET /v2/documents/segments: a page of the segments matching a filter, the total, and counts by status. */
export async function segmentsPage(
  db: Db,
  principal: Principal,
  query: { id: number; offset?: number; limit?: number; status?: string; q?: string },
) {
  const doc = await requireDocument(db, principal, query.id);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 100;
  const filter = {
    statuses: query.status?.split(',') as SegmentStatus[] | undefined,
    text: query.q?.trim() || undefined,
  };
  const { total, rows } = await segments.filteredSegments(db, doc.id, filter, { offset, limit });
  const byStatus = await segments.statusCounts(db, doc.id);
  const counts = Object.fromEntries(
    Object.values(SEGMENT_STATUSES).map((status) => [status, byStatus.get(status) ?? 0]),
  ) as Record<SegmentStatus, number>;
  return { total, offset, limit, counts, segments: rows.map((row) => publicSegment(row, doc)) };
}

/** Longest target a replace may write (as PUT /v2/segments allows). */
const MAX_TARGET_LENGTH = 20_000;

/** How long QA holds the event loop before it gives requests a turn (a large document is CPU work). */
const QA_SLICE_MS = 8;

/** GET /v2/documents/qa: every segment checked against its source, in document order. */
export async function qaReport(db: Db, principal: Principal, id: number) {
  const doc = await requireDocument(db, principal, id);
  const options = { srcLang: doc.srclang, trgLang: doc.trglang };
  const issues: { segment_id: number; position: number; code: string; severity: string; message: string }[] =
    [];
  const counts = { error: 0, warning: 0 };
  let slice = performance.now();
  for await (const rows of segments.segmentPages(db, id)) {
    for (const row of rows) {
      if (performance.now() - slice > QA_SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
      for (const issue of checkSegment(row.source, row.target, { ...options, status: row.status })) {
        counts[issue.severity]++;
        issues.push({
          segment_id: row.id,
          position: row.position,
          code: issue.code,
          severity: issue.severity,
          message: issue.message,
        });
      }
    }
  }
  return { document_id: doc.id, counts, issues };
}

export async function renameDocument(db: Db, principal: Principal, id: number, name: string) {
  await requireDocument(db, principal, id);
  await repo.renameDocument(db, id, requireFileName(name));
  return publicDocument((await repo.documentById(db, id))!);
}

export async function deleteDocument(db: Db, principal: Principal, id: number) {
  await requireDocument(db, principal, id);
  await db.transaction((tx) => repo.deleteDocument(tx, id));
  return { id, deleted: true };
}

/** Every segment source of a document, in order (leverage analysis counts and matches them). */
export async function* segmentSources(db: Db, documentId: number): AsyncGenerator<string[]> {
  for await (const rows of segments.segmentPages(db, documentId)) yield rows.map((row) => row.source);
}

/** A document row of any organization (callers that hold its project hold the right to it). */
export function documentRow(db: Queryable, id: number) {
  return repo.documentById(db, id);
}

/** The documents of these projects, as the Project resource embeds them. */
export async function documentsOfProjects(db: Queryable, projectIds: readonly number[]) {
  return (await repo.documentsOfProjects(db, projectIds)).map(publicDocument);
}

/** Deletes a project's documents inside the caller's transaction (the project goes next). */
export function deleteDocumentsOfProject(tx: Queryable, projectId: number) {
  return repo.deleteDocumentsOfProject(tx, projectId);
}

/**
 * How long until the document is free, from the progress of the task working on it (Retry-After): an
 * estimate from its rate so far while it runs, from the document's size while it waits. Whole seconds,
 * at least 1, at most 10 minutes.
 */
export async function retryAfter(db: Queryable, doc: repo.DocumentRow): Promise<number> {
  const type = isImporting(doc) ? 'document_import' : 'pretranslate';
  const task = await activeTaskOf(db, doc.id, type);
  const now = nowSeconds();
  let seconds: number;
  if (
    task?.state === 'running' &&
    task.started_at !== null &&
    task.progress_done > 0 &&
    task.progress_total > 0
  ) {
    const rate = task.progress_done / Math.max(1, now - task.started_at);
    seconds = (task.progress_total - task.progress_done) / rate;
  } else {
    // Segments pre-translate at thousands a second (npm run bench); an export streams faster still.
    seconds = 1 + doc.num_segments / 5000;
  }
  return Math.min(600, Math.max(1, Math.ceil(seconds)));
}

/** The memory of a project: confirmed segments of its documents are written there. */
export async function memoryOfProject(db: Queryable, projectId: number): Promise<number> {
  const memoryId = await repo.memoryOfProject(db, projectId);
  if (memoryId === undefined) throw errors.notFound('Project', projectId);
  return memoryId;
}

/** The instances' sweeps of this module: uploads and export marks of instances that died. */
export const documentSweeps = [repo.deleteDeadUploads, repo.releaseDeadExportMarks];

/** Puts a document's state back after its task was given up: an import failed, a pre-translation idle. */
export function releaseAfterGiveUp(db: Db, documentId: number, type: string, reason: string) {
  return repo.releaseAfterGiveUp(db, documentId, type, reason);
}

/** POST /v2/documents/pretranslate: marks each document pending and queues its task, in one transaction. */
export async function requestPretranslation(
  deps: Pick<DocumentDeps, 'db' | 'tasks'>,
  principal: Principal,
  ids: readonly number[],
  options: Omit<PretranslateOptions, 'username'>,
) {
  const { db } = deps;
  if (ids.length === 0) throw errors.missingParameter('id');
  const docs: repo.DocumentRow[] = [];
  for (const id of ids) docs.push(await requireDocument(db, principal, id));
  for (const doc of docs) {
    if (doc.import_state !== IMPORT_STATES.succeeded) {
      throw errors.documentBusy(
        `Document ${doc.id} has not been imported; retry when import_succeeded is true`,
        await retryAfter(db, doc),
      );
    }
  }
  await db.transaction(async (tx) => {
    for (const doc of docs) {
      const params = { ...options, username: principal.username } satisfies PretranslateOptions;
      if (await repo.movePretranslation(tx, doc.id, PRETRANSLATION.requested, { updated_at: nowSeconds() })) {
        await insertTask(tx, {
          organizationId: principal.organizationId,
          type: 'pretranslate',
          documentId: doc.id,
          params,
        });
        continue;
      }
      // Already requested and not begun: this request's options replace the earlier one's.
      if (await replaceQueuedParams(tx, doc.id, 'pretranslate', params)) continue;
      // Under way: its options can no longer change; say when to ask again.
      throw errors.documentBusy(
        `Document ${doc.id} is being pre-translated; retry when status.pretranslation is idle`,
        await retryAfter(tx, doc),
      );
    }
  });
  deps.tasks.wake();
  const documents = [];
  for (const doc of docs) documents.push(publicDocument((await repo.documentById(db, doc.id))!));
  return { id: [...ids], is_pretranslating: true, documents };
}

// ---- Find and replace.

export interface ReplaceInput {
  id: number;
  find: string;
  replace: string;
  regex?: boolean;
  case_sensitive?: boolean;
  field?: 'source' | 'target';
  statuses?: string[];
  dry_run?: boolean;
}

/** Refuses a change to the document's segments while an import or a pre-translation may overwrite them. */
async function requireEditable(db: Queryable, doc: repo.DocumentRow) {
  if (isImporting(doc) || isPretranslating(doc)) {
    const what = isImporting(doc) ? 'imported' : 'pre-translated';
    throw errors.documentBusy(
      `Document ${doc.id} is being ${what}; retry when it is done`,
      await retryAfter(db, doc),
    );
  }
}

/** Tells the document's subscribers which segments changed (a bulk change makes them reload). */
async function publishSegments(
  deps: Pick<DocumentDeps, 'events'>,
  principal: Principal,
  doc: repo.DocumentRow,
  rows: readonly { id: number; target: string | null; status: string; updated_at: number }[],
) {
  await deps.events.segmentsChanged(
    { organization_id: principal.organizationId, project_id: doc.project_id, document_id: doc.id },
    rows.map((row) => ({
      document_id: doc.id,
      segment_id: row.id,
      target: row.target,
      status: row.status,
      updated_at: row.updated_at,
      user: principal.username,
    })),
  );
}

/**
 * POST /v2/documents/replace: every match in the text runs of the chosen field (tags are never touched), in
 * segments of the chosen statuses. A dry run lists the changes; otherwise they are applied in one transaction
 * as one batch, which POST /v2/documents/replace/undo can take back. Sources are the original file's text:
 * searching them is allowed as a dry run (a preview of where the text occurs), replacing in them is refused.
 * Statuses are kept: a confirmed segment stays confirmed (its pair is written to the memory when it is next
 * confirmed).
 */
export async function replaceInDocument(deps: DocumentDeps, principal: Principal, input: ReplaceInput) {
  const { db } = deps;
  const doc = await requireDocument(db, principal, input.id);
  const field = input.field ?? 'target';
  const dryRun = input.dry_run ?? false;
  if (field === 'source' && !dryRun) {
    throw errors.badParameter(
      'Parameter "field": sources come from the original file and cannot be replaced; use dry_run to search them',
    );
  }
  const spec = {
    find: input.find,
    replace: input.replace,
    regex: input.regex ?? false,
    caseSensitive: input.case_sensitive ?? false,
  };
  // A bad expression is refused before the document is read.
  compileReplacer(spec);
  const statuses = input.statuses?.length ? new Set(input.statuses) : null;
  const found: { segmentId: number; position: number; before: string; version: number }[] = [];
  for await (const rows of segments.segmentPages(db, doc.id)) {
    for (const row of rows) {
      if (statuses && !statuses.has(row.status)) continue;
      const before = field === 'source' ? row.source : row.target;
      if (before) found.push({ segmentId: row.id, position: row.position, before, version: row.version });
    }
  }
  const afters = await replaceAll(
    spec,
    found.map((f) => f.before),
  );
  const changes = found.flatMap((f, i) => (afters[i] === f.before ? [] : [{ ...f, after: afters[i] }]));
  const answer = (batchId: number | null) => ({
    batch_id: batchId,
    changed: changes.length,
    changes: changes.map((c) => ({
      segment_id: c.segmentId,
      position: c.position,
      before: c.before,
      after: c.after,
    })),
  });
  if (dryRun || changes.length === 0) return answer(null);
  await requireEditable(db, doc);
  for (const change of changes) {
    if (change.after.length > MAX_TARGET_LENGTH) {
      throw errors.badParameter(
        `Parameter "replace": the target of segment ${change.segmentId} would be too long`,
      );
    }
  }
  // Applied only to segments still at the version read above: any changed meanwhile refuses the whole batch.
  const batchId = await db.transaction(async (tx) => {
    const id = await segments.insertReplaceBatch(tx, doc.id, principal.username);
    const applied = await segments.applyReplaceBatch(tx, id, changes, principal.username);
    if (applied !== changes.length) {
      throw errors.batchConflict(`Segments of document ${doc.id} changed while replacing; retry`);
    }
    return id;
  });
  await publishSegments(deps, principal, doc, await segments.batchSegments(db, batchId));
  return answer(batchId);
}

/** POST /v2/documents/replace/undo: the batch's segments back as they were, unless changed since (409). */
export async function undoReplace(
  deps: DocumentDeps,
  principal: Principal,
  input: { id: number; batch_id: number },
) {
  const { db } = deps;
  const doc = await requireDocument(db, principal, input.id);
  await requireEditable(db, doc);
  const restored = await db.transaction(async (tx) => {
    const batch = await segments.findReplaceBatch(tx, input.batch_id, doc.id);
    if (!batch) throw errors.notFound('Replace batch', input.batch_id);
    if (batch.undone_at !== null) throw errors.batchConflict(`Replace batch ${batch.id} was already undone`);
    const { total, changed } = await segments.changedSinceBatch(tx, batch.id);
    if (changed > 0) {
      throw errors.batchConflict(
        `${changed} ${changed === 1 ? 'segment' : 'segments'} of replace batch ${batch.id} changed since; undo them one by one`,
      );
    }
    const restored = await segments.undoReplaceBatch(tx, batch.id, principal.username);
    // A segment changed between the check and the update (another instance): all or nothing.
    if (restored !== total)
      throw errors.batchConflict(`Segments of replace batch ${batch.id} changed; retry`);
    return restored;
  });
  await publishSegments(deps, principal, doc, await segments.batchSegments(db, input.batch_id));
  return { batch_id: input.batch_id, restored };
}
