// TMX import: the request stores the file and queues a job; the job parses it into a staging table, then
// applies it in one transaction — so a file that fails part-way changes nothing (all or nothing).
import type { FastifyRequest } from 'fastify';
import { errors } from '../../errors.ts';
import type { TmxReadStats } from '../../formats/tmx/tmx-reader.ts';
import { readUpload, requireFileName, requireId } from '../../http/uploads.ts';
import { deleteJobFile, readJobFile, storeJobFile } from '../../jobs/job-files.ts';
import { insertJob, JOB_STATES, type JobRow } from '../../jobs/queue.ts';
import type { JobContext } from '../../jobs/worker.ts';
import { JobFailure } from '../../jobs/worker.ts';
import { FileTooLargeError } from '../../store/chunked-files.ts';
import type { Db, SqlParam } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import type { Principal } from '../users/service.ts';
import * as repo from './repository.ts';
import { requireMemory } from './service.ts';
import { parseTmxInThread } from './tmx-parse-thread.ts';

/** Staged units applied per statement of the final transaction. */
const APPLY_SLICE = 50_000;

export const MEMORY_IMPORT_EXTENSIONS = ['.tmx', '.tmx.gz'] as const;

interface ImportParams {
  name: string;
  createdBy: string;
}

/** POST /v2/memories/import: stores the upload and queues the job atomically (the job is invisible until then). */
export async function startImport(db: Db, principal: Principal, request: FastifyRequest, maxBytes: number) {
  const upload = await readUpload(request, ['memory_id', 'name'], maxBytes);
  const memoryId = requireId('memory_id', upload.params.memory_id);
  const name = requireFileName(upload.params.name);
  if (!MEMORY_IMPORT_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext))) {
    throw errors.unsupportedMediaType(name, MEMORY_IMPORT_EXTENSIONS);
  }
  const memory = await requireMemory(db, principal, memoryId);
  const params: ImportParams = { name, createdBy: principal.username };
  const jobId = await insertJob(db, {
    organizationId: principal.organizationId,
    type: 'memory_import',
    state: JOB_STATES.uploading,
    memoryId: Number(memory.id),
    params,
  });
  try {
    await storeJobFile(db, jobId, upload.body, maxBytes);
    if (upload.truncated()) throw new FileTooLargeError(maxBytes);
  } catch (err) {
    await db.run('DELETE FROM jobs WHERE id = ?', [jobId]);
    if (err instanceof FileTooLargeError) throw errors.payloadTooLarge(maxBytes);
    throw err;
  }
  await db.run('UPDATE jobs SET state = ? WHERE id = ?', [JOB_STATES.queued, jobId]);
  return { id: Number(memory.id), isProcessing: 1 as const, job_id: jobId };
}

/** The memory_import job. Idempotent: a rerun after a crash starts from an empty staging area. */
export async function runMemoryImport(job: JobRow, ctx: JobContext): Promise<void> {
  const { db } = ctx;
  const jobId = Number(job.id);
  const params = JSON.parse(job.params) as ImportParams;
  const memory = await db.get<repo.MemoryRow>('SELECT * FROM memories WHERE id = ?', [job.memory_id]);
  if (!memory) throw new JobFailure(`Memory ${job.memory_id} no longer exists`);

  await db.run('DELETE FROM import_staging WHERE job_id = ?', [jobId]);
  let seq = 0;
  let stats: TmxReadStats;
  try {
    stats = await parseTmxInThread(
      readJobFile(db, jobId),
      { srclang: memory.srclang, trglang: memory.trglang },
      async (units) => {
        if (ctx.signal.aborted) throw new Error('interrupted');
        const rows = units.map(([source, target, hash]): SqlParam[] => [jobId, seq++, source, target, hash]);
        await db.insertMany('import_staging', ['job_id', 'seq', 'source', 'target', 'pair_hash'], rows);
        await ctx.progress(seq, 0);
        // SQLite answers synchronously: let requests (job polls, queries) in between batches.
        await new Promise((resolve) => setImmediate(resolve));
      },
    );
  } catch (err) {
    await db.run('DELETE FROM import_staging WHERE job_id = ?', [jobId]);
    if ((err as Error).name === 'XmlError' || (err as Error).name === 'FormatError') {
      throw new JobFailure(`${params.name}: ${(err as Error).message}`);
    }
    throw err;
  }

  const skipped = stats.skipped;
  await db.transaction(async (tx) => {
    const version = await repo.bumpVersion(tx, Number(memory.id), 0);
    const now = nowSeconds();
    // One transaction, applied a slice at a time: the event loop (and with it reads, job polls and
    // queries) gets a turn between slices of a large import.
    let imported = 0;
    for (let from = 0; from < seq; from += APPLY_SLICE) {
      const { changes } = await tx.run(
        `INSERT INTO memory_entries (memory_id, source, target, pair_hash, resource_name, created_by, rev, created_at, updated_at)
         SELECT ?, source, target, pair_hash, ?, ?, ?, ?, ? FROM import_staging
         WHERE job_id = ? AND seq >= ? AND seq < ? ORDER BY seq
         ON CONFLICT (memory_id, pair_hash) DO NOTHING`,
        [memory.id, params.name, params.createdBy, version, now, now, jobId, from, from + APPLY_SLICE],
      );
      imported += changes;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const resources = JSON.parse(memory.resources) as string[];
    if (!resources.includes(params.name)) resources.push(params.name);
    await tx.run('UPDATE memories SET num_segments = num_segments + ?, resources = ? WHERE id = ?', [
      imported,
      JSON.stringify(resources),
      memory.id,
    ]);
    await tx.run('DELETE FROM import_staging WHERE job_id = ?', [jobId]);
    await deleteJobFile(tx, jobId);
    await tx.run('UPDATE jobs SET progress_done = ?, progress_total = ? WHERE id = ?', [seq, seq, jobId]);
    await ctx.complete(tx, { imported, skipped, duplicates: seq - imported });
  });
}
