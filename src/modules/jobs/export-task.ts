// The job_export task: the zip a job's download answers — a folder per target language holding that pair's
// files in their original format with the translations merged in (type files), or that pair's memory as TMX
// (type memory). The zip is written as this task's file beside the previous export, which it replaces only
// once it is whole: a failed or interrupted export leaves the last good one downloadable.
import type { Readable } from 'node:stream';
import { type Static, Type } from 'typebox';
import yazl from 'yazl';
import { AppError, FormatError, TaskFailure } from '../../errors.ts';
import type { Db } from '../../store/db.ts';
import type { TaskRow } from '../../tasks/queue.ts';
import { deleteTaskFile, storeTaskFile } from '../../tasks/task-files.ts';
import { attemptGoesOn, type TaskContext, taskType } from '../../tasks/task-type.ts';
import { mergedOriginal } from '../documents/export.ts';
import { documentRow } from '../documents/service.ts';
import { memoryTmxById } from '../memories/export.ts';
import { projectsOfJob } from '../projects/service.ts';
import * as repo from './repository.ts';

/** The job to export, and what of it: its files translated, or its memories as TMX. */
export const JobExportTaskParams = Type.Object({
  jobId: Type.Integer(),
  type: Type.Union([Type.Literal('files'), Type.Literal('memory')]),
});
export type JobExportTaskParams = Static<typeof JobExportTaskParams>;

/**
 * Entry names come from user-given names: never a path, never a name the zip already holds as a file system
 * would compare it — without case (Windows, macOS) and without Unicode normalization (macOS: Café.txt sent
 * composed from Windows and decomposed from a Mac are one file there, and an unzip writes one over the other).
 */
function entryName(taken: Set<string>, dir: string, name: string): string {
  const safe = name.replace(/[/\\]/g, '_').replace(/^\.+/, '_') || 'file';
  const dot = safe.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
  const folded = (entry: string) => entry.normalize('NFC').toLowerCase();
  let candidate = `${dir}/${safe}`;
  for (let n = 2; taken.has(folded(candidate)); n++) candidate = `${dir}/${stem} (${n})${ext}`;
  taken.add(folded(candidate));
  return candidate;
}

export const jobExportTask = taskType({
  name: 'job_export',
  params: JobExportTaskParams,
  async run(task, params, ctx) {
    try {
      await runExport(task, ctx, params);
    } catch (err) {
      // The task runs again (attemptGoesOn) and rewrites its file.
      if (attemptGoesOn(err, ctx.signal)) throw err;
      await discardExport(ctx.db, task.id, params.jobId, failureMessage(err));
      throw err;
    }
  },
  // Given up: the partial zip goes; the job shows why, when the params say which job it is.
  async giveUp(db, task, params, reason) {
    if (params) await discardExport(db, task.id, params.jobId, reason);
    else await deleteTaskFile(db, task.id);
  },
});

function failureMessage(err: unknown): string {
  return err instanceof TaskFailure || err instanceof FormatError || err instanceof AppError
    ? err.message
    : 'Internal error while exporting the job';
}

/** An export that will not finish: its partial zip goes, and the job shows why (isProcessing -2). */
async function discardExport(db: Db, taskId: number, jobId: number, message: string): Promise<void> {
  await deleteTaskFile(db, taskId);
  await repo.failExport(db, jobId, message);
}

async function runExport(task: TaskRow, ctx: TaskContext, params: JobExportTaskParams) {
  const { db } = ctx;
  if (!(await repo.jobById(db, params.jobId)))
    throw new TaskFailure(`Job ${params.jobId} no longer exists`, 'NOT_FOUND');
  const projects = await projectsOfJob(db, params.jobId);
  // A re-run after a crash starts from nothing.
  await deleteTaskFile(db, task.id);

  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  // A stream added to the zip (a memory's TMX) that fails is the zip's error: it ends the stored output.
  zip.on('error', (err: Error) => output.destroy(err));
  const stored = storeTaskFile(db, task.id, output, Number.MAX_SAFE_INTEGER);
  // Whatever happens while entries are added, the store's promise is observed (no unhandled rejection).
  stored.catch(() => {});
  const total =
    params.type === 'files' ? projects.reduce((n, p) => n + p.document.length, 0) : projects.length;
  let done = 0;
  try {
    const dirs = new Set<string>();
    for (const project of projects) {
      if (ctx.signal.aborted) throw new Error('interrupted');
      // A folder per target language, with its region when the pair names one (Lilt's locales are regions:
      // "DE" → de-DE); two pairs into one language apart.
      const locale = project.trglocale;
      const tag = !locale ? project.trglang : locale.includes('-') ? locale : `${project.trglang}-${locale}`;
      let dir = tag.replace(/[^\w-]/g, '_');
      if (dirs.has(dir.toLowerCase())) dir = `${dir}_${project.id}`;
      dirs.add(dir.toLowerCase());
      zip.addEmptyDirectory(dir);
      const taken = new Set<string>();
      if (params.type === 'memory') {
        const tmx = await memoryTmxById(db, project.memory_id);
        if (!tmx) throw new TaskFailure(`The memory of project ${project.id} no longer exists`, 'NOT_FOUND');
        zip.addReadStream(tmx.body as NodeJS.ReadableStream, entryName(taken, dir, tmx.fileName));
        await ctx.progress(++done, total);
        continue;
      }
      for (const { id } of project.document) {
        const doc = await documentRow(db, id);
        if (!doc)
          throw new TaskFailure(`Document ${id} of project ${project.id} no longer exists`, 'NOT_FOUND');
        const name = entryName(taken, dir, doc.name);
        let merged: Awaited<ReturnType<typeof mergedOriginal>>;
        try {
          merged = await mergedOriginal(db, doc);
        } catch (err) {
          // Say which file of the delivery could not be written.
          if (err instanceof FormatError) throw new TaskFailure(`${name}: ${err.message}`, 'MALFORMED_FILE');
          if (err instanceof AppError && err.code === 'EXPORT_BLOCKED')
            throw new TaskFailure(`${name}: ${err.message}`, err.code);
          throw err;
        }
        zip.addBuffer(merged.body, name);
        await ctx.progress(++done, total);
      }
    }
    zip.end();
  } catch (err) {
    output.destroy(err as Error);
    throw err;
  }
  const bytes = await stored;

  await db.transaction(async (tx) => {
    if (!(await repo.finishExport(tx, params.jobId, task.id))) {
      throw new TaskFailure(`Job ${params.jobId} was deleted while it was being exported`, 'NOT_FOUND');
    }
    await ctx.complete(tx, { files: done, bytes });
  });
}
