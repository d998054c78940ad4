// Documents: upload, the Document resource, pre-translation requests; the views of documents that projects,
// jobs and live events answer with (their segments: segment-service.ts).
import { errors } from '../../errors.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { filterForName, SUPPORTED_EXTENSIONS } from '../../formats/registry.ts';
import type { Principal } from '../../http/principal.ts';
import { countWords } from '../../matching/word-count.ts';
import { nextTurn } from '../../pacing.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import { activeTaskOf, insertTask, replaceQueuedParams } from '../../tasks/queue.ts';
import type { TaskNotifier } from '../../tasks/task-worker.ts';
import type { Glossary } from '../../terminology/glossary.ts';
import {
  checkTermConsistency,
  checkTerms,
  type SegmentTermUses,
  termUses,
} from '../../terminology/term-qa.ts';
import { requireFileName } from '../../text/file-names.ts';
import { plainText } from '../../text/inline-tags.ts';
import { checkSegment, QA_CODES, QA_SEVERITY, type QaIssue } from '../../text/qa/qa-checks.ts';
import type { SrxRules } from '../../text/srx.ts';
import { usersByIds } from '../users/service.ts';
import * as assignments from './assignment-repository.ts';
import { canSeeDocument, documentAccess, visibleDocumentIds } from './assignments.ts';
import { glossaryOfDocument, type MemoryOfProject } from './document-glossary.ts';
import {
  IMPORT,
  IMPORT_STATES,
  isExporting,
  isImporting,
  isPretranslating,
  PRETRANSLATION,
  SEGMENT_STATUSES,
  type SegmentStatus,
  type Stage,
} from './document-states.ts';
import { extractDocument, ThreadDeadlineError } from './document-thread.ts';
import { currentExportVerdicts } from './export-verdicts.ts';
import type { DocumentImportTaskParams } from './import-task.ts';
import {
  type MtAvailability,
  mtUnavailable,
  PRETRANSLATE_MODES,
  planModes,
  readMode,
} from './pretranslate-modes.ts';
import { type PretranslateTaskParams, withNeighbours } from './pretranslate-task.ts';
import type { ProjectsOfDocuments } from './projects-of-documents.ts';
import { ensureRepetitionKeys, type RepetitionMark, repetitionMarks } from './repetitions.ts';
import * as repo from './repository.ts';
import { AUTO_ACCEPT_SCOPES, type AutoAcceptScope } from './schemas.ts';
import { contextKey } from './segment-plan.ts';
import * as segments from './segment-repository.ts';

export interface DocumentDeps {
  db: Db;
  events: EventBus;
  tasks: TaskNotifier;
  projects: ProjectsOfDocuments;
  maxUploadBytes: number;
  /** This server process, named as the holder of uploads being stored and exports being streamed. */
  instanceId: string;
  /** Whether machine translation can run (pre-translation modes `mt` and `tm+mt`). */
  mt?: MtAvailability;
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
    stage: row.stage as Stage,
  };
}

/** Documents as answered with who is assigned to them (translator_email, reviewer_email, assignees). */
export async function withAssignees<T extends { id: number }>(
  db: Queryable,
  organizationId: number,
  docs: T[],
) {
  const rows = await assignments.assignmentsOf(
    db,
    docs.map((d) => d.id),
  );
  const users = new Map(
    (await usersByIds(db, organizationId, [...new Set(rows.map((r) => Number(r.user_id)))])).map((u) => [
      u.id,
      u,
    ]),
  );
  return docs.map((doc) => {
    const assignees = rows
      .filter((r) => Number(r.document_id) === doc.id && users.has(Number(r.user_id)))
      .map((r) => {
        const user = users.get(Number(r.user_id))!;
        return {
          stage: r.stage as Stage,
          user_id: user.id,
          username: user.username,
          email: user.email,
          due_date: r.due_at === null ? null : Number(r.due_at),
        };
      });
    const named = (stage: string) => {
      const a = assignees.find((x) => x.stage === stage);
      return a ? (a.email ?? a.username) : null;
    };
    return { ...doc, translator_email: named('translate'), reviewer_email: named('review'), assignees };
  });
}

/**
 * A document segment as the API answers it; with its repetition mark when the caller read it
 * (repetitions.ts), which answers that the editor reads carry.
 */
export function publicSegment(
  row: segments.SegmentRow,
  doc: { srclang: string; trglang: string },
  repetition?: RepetitionMark,
) {
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
    context_match: row.context_match === 1,
    position: row.position,
    context: row.context,
    // Locked by a project manager: nobody changes it until it is unlocked (extension).
    ...(row.locked === undefined ? {} : { locked: Number(row.locked) === 1 }),
    repairs:
      row.repairs === null ? null : (JSON.parse(row.repairs) as { from: string; to: string; kind: string }[]),
    mt_provider: row.mt_provider ?? null,
    ...(repetition === undefined ? {} : { repetition }),
  };
}

/** A document the principal may see (assignments.ts: documentAccess), or NOT_FOUND. */
export function requireDocument(db: Queryable, principal: Principal, id: number) {
  return documentAccess(db, principal, id);
}

export interface DocumentUpload {
  name: string;
  project_id: number;
  /** A mode as Lilt's clients spell it (`TM`, `TM+MT`, `MT`), or a flag meaning TM. */
  pretranslate?: string | boolean;
  auto_accept?: boolean;
  auto_accept_scope?: AutoAcceptScope;
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
  const mode =
    typeof upload.pretranslate === 'string'
      ? readMode(upload.pretranslate)
      : upload.pretranslate
        ? PRETRANSLATE_MODES.tm
        : undefined;
  const params: DocumentImportTaskParams = {
    pretranslate: mode !== undefined,
    mode: mode ?? PRETRANSLATE_MODES.tm,
    auto_accept: upload.auto_accept ?? false,
    auto_accept_scope: upload.auto_accept_scope ?? AUTO_ACCEPT_SCOPES.exact,
    case_sensitive: upload.case_sensitive ?? false,
    attribute_to_creator: false,
    username: principal.username,
  };
  const project = await deps.projects.findProject(db, upload.project_id, principal.organizationId);
  if (!project) throw errors.notFound('Project', upload.project_id);

  // Everything the answer shows is read before the commit: once the task is queued it may start at once, and
  // a read after the commit that failed (a lost connection) would answer 503 for an upload that was stored —
  // a client retrying on 503, as it should, would then upload the file twice.
  const modes =
    mode === undefined
      ? undefined
      : planModes(mode, await mtUnavailable(deps.mt, db, principal.organizationId));

  const documentId = await repo.insertDocument(db, {
    organizationId: principal.organizationId,
    projectId: project.id,
    name,
    format: filter.name,
    srclang: project.srclang,
    trglang: project.trglang,
    owner: deps.instanceId,
  });
  let stored: repo.DocumentRow;
  try {
    const size = await repo.storeOriginal(db, documentId, file, deps.maxUploadBytes);
    stored = await db.transaction(async (tx) => {
      await repo.moveImport(tx, documentId, IMPORT.stored, { size_bytes: size, owner: null });
      await insertTask(tx, {
        organizationId: principal.organizationId,
        type: 'document_import',
        documentId,
        params,
      });
      return (await repo.documentById(tx, documentId))!;
    });
  } catch (err) {
    await db.transaction((tx) => removeDocument(tx, documentId));
    throw err;
  }
  deps.tasks.wake();
  const answer = publicDocument(stored);
  return modes === undefined ? answer : { ...answer, pretranslation_modes: modes };
}

export async function getDocument(db: Db, principal: Principal, id: number, withSegments: boolean) {
  const doc = await requireDocument(db, principal, id);
  const [answer]: (Awaited<ReturnType<typeof withAssignees<ReturnType<typeof publicDocument>>>>[number] & {
    segments?: ReturnType<typeof publicSegment>[];
  })[] = await withAssignees(db, principal.organizationId, [publicDocument(doc)]);
  if (withSegments) {
    answer.segments = [];
    await ensureRepetitionKeys(db, doc.project_id);
    for await (const rows of segments.segmentPages(db, id)) {
      const marks = await repetitionMarks(db, doc.project_id, rows);
      for (const row of rows) answer.segments.push(publicSegment(row, doc, marks.get(row.id)));
    }
  }
  return answer;
}

const PLACEHOLDER_CODES = new Set<string>([
  QA_CODES.placeholderMissing,
  QA_CODES.placeholderExtra,
  QA_CODES.placeholderChanged,
]);

/** How long QA holds the event loop before it gives requests a turn (a large document is CPU work). */
const QA_SLICE_MS = 8;

interface QaReportIssue {
  segment_id: number;
  position: number;
  code: string;
  severity: string;
  message: string;
  /** Where the export will mark this segment fuzzy or refuse the document (export-verdicts.ts). */
  export?: 'fuzzy' | 'blocked';
}

/** The longest excerpt of a segment's source in the QA report. */
const EXCERPT_CHARS = 160;

/** The source as the QA list shows it: its text alone, tags left out, cut at a word near 160 characters. */
function excerpt(source: string): string {
  const text = plainText(source).replace(/\s+/g, ' ').trim();
  if (text.length <= EXCERPT_CHARS) return text;
  const cut = text.lastIndexOf(' ', EXCERPT_CHARS);
  return `${text.slice(0, cut > EXCERPT_CHARS / 2 ? cut : EXCERPT_CHARS)}…`;
}

/**
 * Every segment of a document that has QA issues, with them, in document order: each target checked against
 * its source (src/text/qa), and the issues of a segment the export cannot write as it is saying what the export
 * will do (`export`), from the same decision the export takes. The QA report and the segment list's QA filter
 * read it, so that both always agree.
 */
export async function* segmentsWithIssues(
  db: Db,
  doc: repo.DocumentRow,
  glossary?: Glossary,
): AsyncGenerator<{ row: segments.SegmentRow; issues: QaReportIssue[] }> {
  const options = { srcLang: doc.srclang, trgLang: doc.trglang };
  const verdicts = new Map((await currentExportVerdicts(db.background(), doc)).map((v) => [v.segment_id, v]));
  const inconsistent = glossary ? await inconsistentTerms(db, doc, glossary) : new Map<number, QaIssue[]>();
  let slice = performance.now();
  for await (const rows of segments.segmentPages(db, doc.id)) {
    for (const row of rows) {
      if (performance.now() - slice > QA_SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
      const verdict = verdicts.get(row.id);
      const issues: QaReportIssue[] = [];
      let marked = false;
      for (const issue of checkSegment(row.source, row.target, { ...options, status: row.status })) {
        const answer: QaReportIssue = {
          segment_id: row.id,
          position: row.position,
          code: issue.code,
          severity: issue.severity,
          message: issue.message,
        };
        if (verdict && PLACEHOLDER_CODES.has(issue.code)) {
          answer.export = verdict.export;
          marked = true;
        }
        issues.push(answer);
      }
      // The termbase's checks: forbidden, deprecated and missing terms, then the document's inconsistent ones.
      const termIssues = glossary ? checkTerms(glossary, row.source, row.target) : [];
      for (const issue of [...termIssues, ...(inconsistent.get(row.id) ?? [])]) {
        issues.push({
          segment_id: row.id,
          position: row.position,
          code: issue.code,
          severity: issue.severity,
          message: issue.message,
        });
      }
      // The format found what QA's comparison did not (a plural form's arguments, say): its own words.
      if (verdict && !marked) {
        issues.push({
          segment_id: row.id,
          position: row.position,
          code: QA_CODES.placeholderChanged,
          severity: QA_SEVERITY.PLACEHOLDER_CHANGED,
          message: verdict.problem,
          export: verdict.export,
        });
      }
      if (issues.length > 0) yield { row, issues };
    }
  }
}

/**
 * TERM_INCONSISTENT by segment: a first pass over the document collects which target term each segment uses
 * for each concept of its source, since a segment departs from the document's translation of a term only
 * against all the others.
 */
async function inconsistentTerms(db: Db, doc: repo.DocumentRow, glossary: Glossary) {
  const uses: SegmentTermUses[] = [];
  let slice = performance.now();
  for await (const rows of segments.segmentPages(db, doc.id)) {
    for (const row of rows) {
      if (performance.now() - slice > QA_SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
      const found = termUses(glossary, row.source, row.target);
      if (found.length > 0) uses.push({ segmentId: row.id, uses: found });
    }
  }
  const bySegment = new Map<number, QaIssue[]>();
  for (const { segmentId, issue } of checkTermConsistency(glossary, uses)) {
    const list = bySegment.get(segmentId) ?? [];
    list.push(issue);
    bySegment.set(segmentId, list);
  }
  return bySegment;
}

/**
 * GET /v2/documents/qa: every issue of every segment, in document order, with its segment's source excerpt.
 * With `memoryOfProject`, the termbase of the project's memory is checked too (term QA).
 */
export async function qaReport(db: Db, principal: Principal, id: number, memoryOfProject?: MemoryOfProject) {
  const doc = await requireDocument(db, principal, id);
  const glossary = memoryOfProject ? await glossaryOfDocument(db, doc, memoryOfProject) : undefined;
  const issues: (QaReportIssue & { source: string })[] = [];
  const counts = { error: 0, warning: 0 };
  for await (const { row, issues: found } of segmentsWithIssues(db, doc, glossary)) {
    const source = excerpt(row.source);
    for (const issue of found) {
      counts[issue.severity === 'error' ? 'error' : 'warning']++;
      issues.push({ ...issue, source });
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
  await db.transaction((tx) => removeDocument(tx, id));
  return { id, deleted: true };
}

/** Deletes a document: its segments (with their history), then the document and its original. */
async function removeDocument(db: Queryable, id: number) {
  await segments.deleteSegmentsOfDocument(db, id);
  await repo.deleteDocument(db, id);
}

/** Every segment source of a document, in order (leverage analysis counts and matches them). */
export async function* segmentSources(db: Db, documentId: number): AsyncGenerator<string[]> {
  for await (const rows of segments.segmentPages(db, documentId)) yield rows.map((row) => row.source);
}

/**
 * Every segment of a document in order, a page at a time, each with where it stands — its key and the sources
 * around it — as pre-translation asks the memory for context (101 %) matches: the leverage analysis finds
 * them the same way.
 */
export async function* segmentsInContext(
  db: Db,
  doc: { id: number; format: string },
): AsyncGenerator<{ id: number; source: string; context: SegmentContext; mtDraft: boolean }[]> {
  for await (const rows of withNeighbours(segments.segmentPages(db, doc.id))) {
    yield rows.map(({ row, prev, next }) => ({
      id: row.id,
      source: row.source,
      context: { key: contextKey(doc.format, row.context), prev, next },
      // A machine translation pre-translated and not yet confirmed (an edit clears mt_provider): the
      // analysis's MT band.
      mtDraft: row.mt_provider != null && !row.is_confirmed,
    }));
  }
}

const STATUS_NAMES = Object.values(SEGMENT_STATUSES);

type SegmentContext = { key: string | null; prev: string | null; next: string | null };

/** Words of segments by status, as word-count.ts counts them (extension). */
export type WordsByStatus = Record<SegmentStatus, number> & { total: number };

/**
 * Words of sources already counted, by text: counting is the costly part of a count by status (about 20 µs a
 * sentence), and a document's sources rarely change between two counts, while its statuses do with every
 * confirmation. Keyed by the text itself, so that a source changed in any way (a join, a split) is counted
 * again; the oldest are dropped past the bound.
 */
const counted = new Map<string, number>();
const COUNTED_MAX = 200_000;

function wordsOf(source: string): number {
  let n = counted.get(source);
  if (n === undefined) {
    n = countWords(source);
    if (counted.size >= COUNTED_MAX) counted.delete(counted.keys().next().value as string);
    counted.set(source, n);
  }
  return n;
}

/** Rows of statuses and sources read per statement. */
const WORDS_PAGE = 5000;

/**
 * The words of a document's segments by status, counted from their sources as the analysis counts them
 * (CJK a word per character, tags and placeholders none). Read a page at a time, with a turn of the event
 * loop between pages, so that a large document's count does not hold other requests.
 */
export async function wordsByStatus(db: Db, documentId: number): Promise<WordsByStatus> {
  const words = { total: 0, ...Object.fromEntries(STATUS_NAMES.map((s) => [s, 0])) } as WordsByStatus;
  const reader = db.background();
  for (let after = -1; ; ) {
    const rows = await segments.statusSourcePage(reader, documentId, after, WORDS_PAGE);
    for (const row of rows) {
      const n = wordsOf(row.source);
      words[row.status] += n;
      words.total += n;
    }
    if (rows.length < WORDS_PAGE) return words;
    after = rows[rows.length - 1].position;
    await nextTurn();
  }
}

/** GET /v2/documents/words: a document's words by status. */
export async function documentWords(db: Db, principal: Principal, id: number) {
  const doc = await requireDocument(db, principal, id);
  return { document_id: doc.id, words: await wordsByStatus(db, doc.id) };
}

/** A document row of any organization (callers that hold its project hold the right to it). */
export function documentRow(db: Queryable, id: number) {
  return repo.documentById(db, id);
}

/** The documents of these projects, as the Project resource embeds them. */
/**
 * The documents of projects as answered, with their assignees; given a principal, only those it may see (a
 * translator or reviewer: those assigned to them).
 */
export async function documentsOfProjects(
  db: Queryable,
  projectIds: readonly number[],
  principal?: Principal,
) {
  let rows = await repo.documentsOfProjects(db, projectIds);
  if (principal) {
    const visible = await visibleDocumentIds(db, principal);
    if (visible) rows = rows.filter((r) => visible.has(r.id));
  }
  const organizationId = principal?.organizationId ?? rows[0]?.organization_id;
  if (organizationId === undefined) return [];
  return withAssignees(db, organizationId, rows.map(publicDocument));
}

/** Deletes a project's documents inside the caller's transaction (the project goes next). */
export async function deleteDocumentsOfProject(tx: Queryable, projectId: number) {
  for (const id of await repo.documentIdsOfProject(tx, projectId)) await removeDocument(tx, id);
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

/** Discards documents whose upload was being stored by an instance that died (with their partial file). */
async function deleteDeadUploads(db: Queryable, liveCutoff: number): Promise<number> {
  const ids = await repo.deadUploads(db, liveCutoff);
  for (const id of ids) await removeDocument(db, id);
  return ids.length;
}

/** The instances' sweeps of this module: uploads and export marks of instances that died. */
export const documentSweeps = [deleteDeadUploads, repo.releaseDeadExportMarks];

/** POST /v2/documents/pretranslate: marks each document pending and queues its task, in one transaction. */
export async function requestPretranslation(
  deps: Pick<DocumentDeps, 'db' | 'tasks' | 'mt'>,
  principal: Principal,
  ids: readonly number[],
  options: Omit<PretranslateTaskParams, 'username'>,
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
  // What the answer shows is read before the commit (see uploadDocument): a read after it that failed would
  // answer 503 for a pre-translation that was queued.
  const unavailable = await mtUnavailable(deps.mt, db, principal.organizationId);
  const documents = await db.transaction(async (tx) => {
    for (const doc of docs) {
      const params = { ...options, username: principal.username } satisfies PretranslateTaskParams;
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
    const read = [];
    for (const doc of docs) read.push(publicDocument((await repo.documentById(tx, doc.id))!));
    return read;
  });
  deps.tasks.wake();
  return {
    id: [...ids],
    is_pretranslating: true,
    documents,
    modes: planModes(options.mode ?? PRETRANSLATE_MODES.tm, unavailable),
  };
}

// ---- What a live events stream reads of the documents it watches.

export { documentAccess, visibleDocumentIds } from './assignments.ts';
export type { DocumentScope, ExportMarkRow } from './repository.ts';

/** Whether the organization has a visible document of this id. */
export function isDocumentOf(db: Queryable, principal: Principal, id: number): Promise<boolean> {
  return canSeeDocument(db, principal, id);
}

/** The visible documents of the scope with their export marks (an export is a mark, not a task). */
export function exportMarks(db: Queryable, scope: repo.DocumentScope) {
  return repo.exportMarks(db, scope);
}

/** Segments and confirmed segments of each visible document of the scope, in id order. */
/**
 * A segment's target and status as stored, for a live event that carried it by reference (too long to
 * travel with the event); undefined when it is not the organization's or was deleted since.
 */
export async function liveSegment(db: Queryable, organizationId: number, segmentId: number) {
  const row = await segments.findSegment(db, segmentId, organizationId);
  return row && { target: row.target, status: row.status, updated_at: row.updated_at };
}

export function segmentCounts(db: Queryable, scope: repo.DocumentScope) {
  return repo.segmentCounts(db, scope);
}

// ---- A project's own segmentation rules, tried before they are kept.

/**
 * Text the rules are tried on: prose with abbreviations, numbers and quotes, and the long runs of one kind of
 * character on which an expression that backtracks without end (`(a+)+$`, `(\s*)*x`) shows it.
 */
const PROBE_TEXT = [
  'Dr. Smith arrived at 10 a.m. on 3. October. "Is it over?" she asked. It was! See p. 5, e.g. Fig. 2.',
  'z. B. die 2. Auflage, S. 12. Der 3. Versuch gelang. M. Dupont a dit « Bonjour. » Puis il est parti.',
  '句子一。句子二！「はい。」と答えた。',
  'a'.repeat(3000),
  ' '.repeat(3000),
  '.'.repeat(3000),
  'a '.repeat(1500),
  'A. '.repeat(1000),
  '1.'.repeat(1500),
  `${'a'.repeat(64)}!`,
  `${' '.repeat(64)}x`,
  `${'ab'.repeat(64)}.`,
].join('\n\n');

/**
 * Runs the rules over the probe text in a document thread under the deadline; 400 REGEX_TIMEOUT when they
 * do not finish.
 */
export async function trySegmentationRules(rules: SrxRules, srclang: string, deadlineMs: number) {
  try {
    await extractDocument(
      Buffer.from(PROBE_TEXT, 'utf8'),
      { format: 'text', srclang, trglang: srclang },
      { srx: rules },
      deadlineMs,
    );
  } catch (err) {
    if (err instanceof ThreadDeadlineError) throw errors.segmentationTimeout(deadlineMs / 1000);
    throw err;
  }
}
