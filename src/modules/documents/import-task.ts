// The document_import task: the original through its format filter → units → segments (as the project's
// segmentation setting and rules say, units the memory holds whole kept whole), stored in one transaction
// together with the task's success (re-runnable after a crash).
import { type Static, Type } from 'typebox';
import { FormatError, isStoreUnavailable, TaskFailure } from '../../errors.ts';
import { filterByFormat } from '../../formats/registry.ts';
import { nowSeconds } from '../../store/db.ts';
import { insertTask, type TaskRow } from '../../tasks/queue.ts';
import { type TaskContext, taskType } from '../../tasks/task-type.ts';
import { unitCut } from '../../text/segmentation-modes.ts';
import type { SrxRules } from '../../text/srx.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { IMPORT, PRETRANSLATION } from './document-states.ts';
import {
  type Extracted,
  extractDocument,
  readingDeadlineMs,
  ThreadDeadlineError,
} from './document-thread.ts';
import { PretranslateTaskParams } from './pretranslate-task.ts';
import type { ProjectsOfDocuments } from './projects-of-documents.ts';
import * as repo from './repository.ts';
import * as segments from './segment-repository.ts';
import { keepUnitsTheMemoryHolds } from './tm-segmentation.ts';

/** The options of an import task: a pre-translation right after it, when the upload asked for one. */
export const DocumentImportTaskParams = Type.Object({
  ...PretranslateTaskParams.properties,
  pretranslate: Type.Boolean(),
});
export type DocumentImportTaskParams = Static<typeof DocumentImportTaskParams>;

export interface ImportDeps {
  indexes: IndexCache;
  projects: ProjectsOfDocuments;
  /** How long a project's own segmentation rules may run, plus a millisecond per KiB of the file. */
  regexTimeoutMs: number;
  /** How long the format filter may read the file, plus a millisecond per KiB of it. */
  readTimeoutMs: number;
}

export function documentImportTask(deps: ImportDeps) {
  return taskType({
    name: 'document_import',
    params: DocumentImportTaskParams,
    run: (task, params, ctx) => importDocument(deps, task, params, ctx),
    // Given up: the import failed, saying why, so that the document is no longer shown in progress.
    async giveUp(db, task, _params, reason) {
      await repo.moveImport(db, task.document_id!, IMPORT.failed, {
        import_error: `The file could not be imported: ${reason}`,
      });
    },
  });
}

async function importDocument(
  deps: ImportDeps,
  task: TaskRow,
  params: DocumentImportTaskParams,
  ctx: TaskContext,
) {
  const { db } = ctx;
  const doc = await repo.documentById(db, task.document_id!);
  if (!doc) throw new TaskFailure(`Document ${task.document_id} no longer exists`, 'NOT_FOUND');
  const filter = filterByFormat(doc.format);
  if (!filter) throw new TaskFailure(`No filter for format ${doc.format}`, 'UNSUPPORTED_FILE_TYPE');
  await repo.moveImport(db, doc.id, IMPORT.started);
  const project = await deps.projects.findProject(db, doc.project_id, doc.organization_id);
  const cut = unitCut(project?.segmentation ?? 'auto', filter.segmentation);
  const srx = project?.segmentation_rules ? (JSON.parse(project.segmentation_rules) as SrxRules) : undefined;
  const deadlineMs = readingDeadlineMs(doc.size_bytes, srx ? deps.regexTimeoutMs : deps.readTimeoutMs);

  let extracted: Extracted;
  try {
    extracted = await extractDocument(
      await repo.readOriginal(db, doc.id),
      doc,
      { by: cut.by, srx },
      deadlineMs,
    );
  } catch (err) {
    // Cut off from the store while reading the original: the next attempt reads it again.
    if (isStoreUnavailable(err)) throw err;
    if (ctx.signal.aborted) {
      await repo.moveImport(db, doc.id, IMPORT.interrupted);
      throw err;
    }
    if (err instanceof ThreadDeadlineError) {
      const message = srx
        ? `${doc.name}: the project's segmentation rules ${err.message} over this file; simplify them ` +
          '(PUT /v2/projects/segmentation) or remove them (DELETE) and import it again'
        : `${doc.name}: reading it as ${filter.name} ${err.message}, far longer than a file of its size ` +
          'takes; its markup is nested or repeated past what the reader handles in time';
      await repo.moveImport(db, doc.id, IMPORT.failed, { import_error: message, updated_at: nowSeconds() });
      throw new TaskFailure(message, srx ? 'REGEX_TIMEOUT' : 'MALFORMED_FILE');
    }
    const readable = err instanceof FormatError;
    const message = readable ? `${doc.name}: ${err.message}` : `${doc.name}: the file could not be read`;
    await repo.moveImport(db, doc.id, IMPORT.failed, { import_error: message, updated_at: nowSeconds() });
    if (!readable) throw err;
    throw new TaskFailure(message, 'MALFORMED_FILE');
  }
  let planned = extracted.segments;
  const memoryId = cut.tmDriven ? await deps.projects.memoryOfProject(db, doc.project_id) : undefined;
  if (memoryId !== undefined) {
    planned = (await keepUnitsTheMemoryHolds({ db, indexes: deps.indexes }, memoryId, doc.format, planned))
      .segments;
  }
  await ctx.progress(0, planned.length);

  await db.transaction(async (tx) => {
    await segments.replaceSegments(tx, doc.id, planned, params.username);
    await repo.moveImport(tx, doc.id, IMPORT.succeeded, {
      import_error: null,
      num_segments: planned.length,
      num_units: extracted.units,
      num_words: extracted.words,
      updated_at: nowSeconds(),
    });
    if (params.pretranslate && (await repo.movePretranslation(tx, doc.id, PRETRANSLATION.requested))) {
      await insertTask(tx, {
        organizationId: doc.organization_id,
        type: 'pretranslate',
        documentId: doc.id,
        params: {
          auto_accept: params.auto_accept,
          auto_accept_scope: params.auto_accept_scope,
          case_sensitive: params.case_sensitive,
          attribute_to_creator: false,
          mode: params.mode,
          username: params.username,
        } satisfies PretranslateTaskParams,
      });
    }
    await ctx.progress(planned.length, planned.length, tx);
    await ctx.complete(tx, { segments: planned.length, units: extracted.units });
  });
}
