// The memory_import task: parses the stored memory file (TMX, XLIFF, TSV) into a staging table, then applies it in one transaction —
// so a file that fails part-way changes nothing (all or nothing). Idempotent: a re-run after a crash
// starts from an empty staging area.
import { FormatError } from '../../errors.ts';
import type { TmxReadStats } from '../../formats/tmx/tmx-reader.ts';
import type { Queryable } from '../../store/db.ts';
import { nextTurn } from '../../store/pacing.ts';
import { LeaseLostError, type TaskRow } from '../../tasks/queue.ts';
import { deleteTaskFile, readTaskFile } from '../../tasks/task-files.ts';
import type { TaskContext, TaskHandler } from '../../tasks/task-worker.ts';
import { TaskFailure } from '../../tasks/task-worker.ts';
import * as repo from './repository.ts';
import { memoryFileFormat, parseTmxInThread } from './tmx-parse-thread.ts';

/** Staged units applied per statement of the final transaction. */
const APPLY_SLICE = 4_000;

/** What an import task is queued with. */
export interface MemoryImportParams {
  name: string;
  createdBy: string;
}

export const memoryImportTask: TaskHandler = async (task, ctx) => {
  try {
    await runImport(task, ctx);
  } catch (err) {
    // Whatever the failure, the staging rows and the uploaded file go — after the transaction that rolled
    // back, never inside it. Not when the task goes on: interrupted by shutdown (it is re-queued), or taken
    // over by another worker (which reads them).
    if (!ctx.signal.aborted && !(err instanceof LeaseLostError)) await discardImportFiles(ctx.db, task.id);
    throw err;
  }
};

/**
 * The instances' sweep of this module: the staging rows and files of finished imports, which an import
 * deletes after its commit, left by an instance that died in between. Answers how many imports it cleared.
 */
export async function discardFinishedImports(db: Queryable): Promise<number> {
  const taskIds = await repo.finishedImportsWithLeftovers(db);
  for (const taskId of taskIds) await discardImportFiles(db, taskId);
  return taskIds.length;
}

/** Removes what an import task stored: its staging rows and its file. */
export async function discardImportFiles(db: Queryable, taskId: number): Promise<void> {
  await repo.clearStaging(db, taskId);
  await deleteTaskFile(db, taskId);
}

async function runImport(task: TaskRow, ctx: TaskContext): Promise<void> {
  const { db } = ctx;
  const taskId = task.id;
  const params = JSON.parse(task.params) as MemoryImportParams;
  const memory = await repo.memoryById(db, task.memory_id!);
  if (!memory) throw new TaskFailure(`Memory ${task.memory_id} no longer exists`, 'NOT_FOUND');

  await repo.clearStaging(db, taskId);
  let staged = 0;
  // Progress is counted in bytes of the file handed to the parser, against its size (known at upload).
  let bytesRead = 0;
  async function* counted() {
    for await (const chunk of readTaskFile(db, taskId)) {
      bytesRead += chunk.length;
      yield chunk;
    }
  }
  let stats: TmxReadStats;
  try {
    stats = await parseTmxInThread(
      counted(),
      { srclang: memory.srclang, trglang: memory.trglang, format: memoryFileFormat(params.name) ?? 'tmx' },
      async (units) => {
        if (ctx.signal.aborted) throw new Error('interrupted');
        await repo.stageUnits(db, taskId, staged, units);
        staged += units.length;
        await ctx.progress(bytesRead, Math.max(task.progress_total, bytesRead));
        await nextTurn();
      },
    );
  } catch (err) {
    if (err instanceof FormatError) throw new TaskFailure(`${params.name}: ${err.message}`, 'MALFORMED_FILE');
    throw err;
  }

  await db.transaction(
    async (tx) => {
      const rev = await repo.bumpVersion(tx, memory.id, 0);
      // One transaction, applied a slice at a time: the event loop (and with it reads, task polls and
      // queries) gets a turn between slices of a large import.
      let imported = 0;
      for (let from = 0; from < staged; from += APPLY_SLICE) {
        imported += await repo.applyStaged(
          tx,
          taskId,
          { from, to: from + APPLY_SLICE },
          { memoryId: memory.id, resourceName: params.name, createdBy: params.createdBy, rev },
        );
        await nextTurn();
      }
      const resources = JSON.parse(memory.resources) as string[];
      if (!resources.includes(params.name)) resources.push(params.name);
      await repo.recordImport(tx, memory.id, imported, resources);
      await ctx.progress(bytesRead, bytesRead, tx);
      await ctx.complete(tx, { imported, skipped: stats.skipped, duplicates: staged - imported });
    },
    { bulk: true },
  );
  // The staging rows and the uploaded file are garbage once the import has committed. Deleted inside the
  // transaction, they made it 43 s longer at ten million units, and held the store's write lock as long;
  // deleted after it, the memory is ready while they go. What a crash leaves here the instances' sweep takes
  // (repo.discardFinishedImports).
  await discardImportFiles(db, taskId);
}
