// The document_import task: the original through its format filter → units → sentence segments, stored in
// one transaction together with the task's success (re-runnable after a crash).
import { type Static, Type } from 'typebox';
import { FormatError, isStoreUnavailable, TaskFailure } from '../../errors.ts';
import { filterByFormat } from '../../formats/registry.ts';
import { nowSeconds } from '../../store/db.ts';
import { insertTask, type TaskRow } from '../../tasks/queue.ts';
import { type TaskContext, taskType } from '../../tasks/task-type.ts';
import { IMPORT, PRETRANSLATION } from './document-states.ts';
import { type Extracted, extractDocument } from './document-thread.ts';
import { PretranslateTaskParams } from './pretranslate-task.ts';
import * as repo from './repository.ts';
import * as segments from './segment-repository.ts';

/** The options of an import task: a pre-translation right after it, when the upload asked for one. */
export const DocumentImportTaskParams = Type.Object({
  ...PretranslateTaskParams.properties,
  pretranslate: Type.Boolean(),
});
export type DocumentImportTaskParams = Static<typeof DocumentImportTaskParams>;

export const documentImportTask = taskType({
  name: 'document_import',
  params: DocumentImportTaskParams,
  run: importDocument,
  // Given up: the import failed, saying why, so that the document is no longer shown in progress.
  async giveUp(db, task, _params, reason) {
    await repo.moveImport(db, task.document_id!, IMPORT.failed, {
      import_error: `The file could not be imported: ${reason}`,
    });
  },
});

async function importDocument(task: TaskRow, params: DocumentImportTaskParams, ctx: TaskContext) {
  const { db } = ctx;
  const doc = await repo.documentById(db, task.document_id!);
  if (!doc) throw new TaskFailure(`Document ${task.document_id} no longer exists`, 'NOT_FOUND');
  const filter = filterByFormat(doc.format);
  if (!filter) throw new TaskFailure(`No filter for format ${doc.format}`, 'UNSUPPORTED_FILE_TYPE');
  await repo.moveImport(db, doc.id, IMPORT.started);

  let extracted: Extracted;
  try {
    extracted = await extractDocument(await repo.readOriginal(db, doc.id), doc);
  } catch (err) {
    // Cut off from the store while reading the original: the next attempt reads it again.
    if (isStoreUnavailable(err)) throw err;
    if (ctx.signal.aborted) {
      await repo.moveImport(db, doc.id, IMPORT.interrupted);
      throw err;
    }
    const readable = err instanceof FormatError;
    const message = readable ? `${doc.name}: ${err.message}` : `${doc.name}: the file could not be read`;
    await repo.moveImport(db, doc.id, IMPORT.failed, { import_error: message, updated_at: nowSeconds() });
    if (!readable) throw err;
    throw new TaskFailure(message, 'MALFORMED_FILE');
  }
  const planned = extracted.segments;
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
