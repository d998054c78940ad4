// The memory_import task: parses the stored memory file (TMX, XLIFF, TSV) in a worker thread and inserts its
// units as they come, all in one transaction — so a file that fails part-way changes nothing (all or
// nothing), and a re-run after a crash starts from the file again.
//
// Inserting while the parse runs, rather than parsing into a staging table and applying that afterwards,
// overlaps the two (the parse has a thread of its own) and writes each unit once: ten million units took
// 273 s from upload to commit that way (≈ 120 s parse, then ≈ 145 s apply), 149 s this way. The transaction
// (on the embedded store, its write lock) is held for the whole parse: ≈ 138 s there, where the apply held
// it ≈ 145 s.
import { type Static, Type } from 'typebox';
import { FileLimitError, FormatError, TaskFailure } from '../../errors.ts';
import type { TmxReadStats } from '../../formats/tmx/tmx-reader.ts';
import { nextTurn } from '../../pacing.ts';
import type { Queryable } from '../../store/db.ts';
import { finishedWithFiles, type TaskRow } from '../../tasks/queue.ts';
import { deleteTaskFile, readTaskFile } from '../../tasks/task-files.ts';
import { attemptGoesOn, type TaskContext, taskType } from '../../tasks/task-type.ts';
import type { IndexCache } from './index-cache.ts';
import { memoryFileFormat, parseMemoryFileInThread } from './memory-file-thread.ts';
import * as repo from './repository.ts';

/** What an import task is queued with: the uploaded file's name, and who uploaded it. */
export const MemoryImportTaskParams = Type.Object({ name: Type.String(), createdBy: Type.String() });
export type MemoryImportTaskParams = Static<typeof MemoryImportTaskParams>;

export function memoryImportTask(indexes: IndexCache, limits: { maxDecompressedBytes: number }) {
  return taskType({
    name: 'memory_import',
    params: MemoryImportTaskParams,
    async run(task, params, ctx) {
      try {
        await runImport(task, params, ctx, limits.maxDecompressedBytes);
      } catch (err) {
        // Whatever the failure, the uploaded file goes — after the transaction that rolled back, never
        // inside it. Not when the task goes on (attemptGoesOn): the next attempt reads it.
        if (!attemptGoesOn(err, ctx.signal)) await deleteTaskFile(ctx.db, task.id);
        throw err;
      }
      // The entries go into the memory's index (and its saved file) right after, not at the next query.
      const memoryId = task.memory_id!;
      indexes
        .refreshAndSave(memoryId)
        .catch((err) => ctx.log.warn({ err, memoryId }, 'index catch-up failed'));
    },
    giveUp: (db, task) => deleteTaskFile(db, task.id),
  });
}

/** A language tag as the reader keeps it (lower case) written as BCP 47 writes it: `en-us` → `en-US`. */
function languageTag(lang: string): string {
  return lang.replace(/-([a-z]{2})(?=-|$)/, (_, region: string) => `-${region.toUpperCase()}`);
}

/**
 * Why units of a memory file were skipped, in words (null when none were): those without a variant in the
 * memory's source or target language, with the languages they have — a file of another pair says so —
 * and those empty once trimmed.
 */
export function skippedWhy(
  stats: TmxReadStats & { blank?: number },
  memory: { srclang: string; trglang: string },
): string | null {
  if (stats.skipped === 0) return null;
  const count = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'unit' : 'units'}`;
  const noSource = stats.noSource ?? 0;
  const noTarget = stats.noTarget ?? 0;
  const blank = stats.blank ?? 0;
  const other = stats.skipped - noSource - noTarget - blank;
  const parts: string[] = [];
  if (noTarget > 0) parts.push(`${count(noTarget)} had no variant in ${memory.trglang}`);
  if (noSource > 0) parts.push(`${count(noSource)} had no variant in ${memory.srclang}`);
  if (blank > 0) parts.push(`${count(blank)} had an empty source or target`);
  if (other > 0) parts.push(`${count(other)} lacked a source or a target`);
  const languages = (stats.skippedLanguages ?? []).map(languageTag);
  const have = languages.length > 0 ? `; the languages they have: ${languages.join(', ')}` : '';
  return `${parts.join(', ')}${have}`;
}

/** The memory an import was for was deleted after the upload: the import fails, writing nothing. */
function memoryDeleted(memoryId: number): TaskFailure {
  return new TaskFailure(
    `Memory ${memoryId} was deleted while its import waited or ran; nothing was imported`,
    'MEMORY_DELETED',
  );
}

/**
 * The instances' sweep of this module: the files of finished imports, which an import deletes after its
 * commit, left by an instance that died in between. Answers how many imports it cleared.
 */
export async function discardFinishedImports(db: Queryable): Promise<number> {
  const taskIds = await finishedWithFiles(db, 'memory_import');
  for (const taskId of taskIds) await deleteTaskFile(db, taskId);
  return taskIds.length;
}

async function runImport(
  task: TaskRow,
  params: MemoryImportTaskParams,
  ctx: TaskContext,
  maxDecompressedBytes: number,
): Promise<void> {
  const { db } = ctx;
  const taskId = task.id;
  const memory = await repo.memoryById(db, task.memory_id!);
  if (!memory) throw memoryDeleted(task.memory_id!);

  // Progress is counted in bytes of the file handed to the parser, against its size (known at upload).
  let bytesRead = 0;
  async function* counted() {
    for await (const chunk of readTaskFile(db, taskId)) {
      bytesRead += chunk.length;
      yield chunk;
    }
  }
  const format = memoryFileFormat(params.name) ?? 'tmx';
  await db.transaction(
    async (tx) => {
      // The memory's row lock from here to the commit: a delete waits for the import, or ran first.
      if (!(await repo.lockMemory(tx, memory.id))) throw memoryDeleted(memory.id);
      const rev = await repo.bumpVersion(tx, memory.id, 0);
      const entry = { memoryId: memory.id, resourceName: params.name, createdBy: params.createdBy, rev };
      let units = 0;
      let imported = 0;
      let stats: TmxReadStats;
      try {
        stats = await parseMemoryFileInThread(
          counted(),
          { srclang: memory.srclang, trglang: memory.trglang, format, maxDecompressedBytes },
          async (batch) => {
            if (ctx.signal.aborted) throw new Error('interrupted');
            imported += await repo.insertImported(tx, batch, entry);
            units += batch.length;
            // Inside the transaction: the worker shows it to this process's readers before it commits.
            await ctx.progress(bytesRead, Math.max(task.progress_total, bytesRead), tx);
            // The event loop (reads, task polls, queries) gets a turn between batches of a large import.
            await nextTurn();
          },
        );
      } catch (err) {
        if (err instanceof FileLimitError) throw new TaskFailure(`${params.name}: ${err.message}`, err.code);
        if (err instanceof FormatError)
          throw new TaskFailure(`${params.name}: ${err.message}`, 'MALFORMED_FILE');
        throw err;
      }
      const resources = JSON.parse(memory.resources) as string[];
      if (!resources.includes(params.name)) resources.push(params.name);
      if (!(await repo.recordImport(tx, memory.id, imported, resources))) throw memoryDeleted(memory.id);
      await ctx.progress(bytesRead, bytesRead, tx);
      // Why units were skipped, when some were: a file of another language pair says so.
      const why = skippedWhy(stats, memory);
      await ctx.complete(tx, {
        imported,
        skipped: stats.skipped,
        duplicates: units - imported,
        ...(why && { skipped_why: why, skipped_languages: (stats.skippedLanguages ?? []).map(languageTag) }),
      });
    },
    { bulk: true },
  );
  // The uploaded file is garbage once the import has committed; deleted after the commit, the memory is
  // ready while it goes. What a crash leaves here the instances' sweep takes (discardFinishedImports).
  await deleteTaskFile(db, taskId);
}
