// The document_import task: the original through its format filter → units → sentence segments, stored in
// one transaction together with the task's success (re-runnable after a crash).
import { FormatError } from '../../errors.ts';
import { filterByFormat } from '../../formats/registry.ts';
import { nowSeconds } from '../../store/db.ts';
import { insertTask } from '../../tasks/queue.ts';
import type { TaskHandler } from '../../tasks/task-worker.ts';
import { TaskFailure } from '../../tasks/task-worker.ts';
import { IMPORT, PRETRANSLATION } from './document-states.ts';
import { type Extracted, extractDocument } from './document-thread.ts';
import * as repo from './repository.ts';
import * as segments from './segment-repository.ts';
import type { DocumentImportParams, PretranslateOptions } from './task-params.ts';

export const documentImportTask: TaskHandler = async (task, ctx) => {
  const { db } = ctx;
  const doc = await repo.documentById(db, task.document_id!);
  if (!doc) throw new TaskFailure(`Document ${task.document_id} no longer exists`, 'NOT_FOUND');
  const params = JSON.parse(task.params) as DocumentImportParams;
  const filter = filterByFormat(doc.format);
  if (!filter) throw new TaskFailure(`No filter for format ${doc.format}`, 'UNSUPPORTED_FILE_TYPE');
  await repo.moveImport(db, doc.id, IMPORT.started);

  let extracted: Extracted;
  try {
    extracted = await extractDocument(await repo.readOriginal(db, doc.id), doc);
  } catch (err) {
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
    await segments.replaceSegments(tx, doc.id, planned);
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
          case_sensitive: params.case_sensitive,
          attribute_to_creator: false,
          username: params.username,
        } satisfies PretranslateOptions,
      });
    }
    await ctx.progress(planned.length, planned.length, tx);
    await ctx.complete(tx, { segments: planned.length, units: extracted.units });
  });
};
