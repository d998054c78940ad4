// A job's input file, stored in the database so that any instance's worker can read it as a stream.

import { type ChunkTable, deleteChunks, readChunks, writeChunks } from '../store/chunked-files.ts';
import type { Queryable } from '../store/db.ts';

const JOB_FILES: ChunkTable = { table: 'job_files', owner: 'job_id' };

export function storeJobFile(
  db: Queryable,
  jobId: number,
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  limit: number,
): Promise<number> {
  return writeChunks(db, JOB_FILES, jobId, input, limit);
}

export function readJobFile(db: Queryable, jobId: number): AsyncGenerator<Buffer> {
  return readChunks(db, JOB_FILES, jobId);
}

export function deleteJobFile(db: Queryable, jobId: number): Promise<void> {
  return deleteChunks(db, JOB_FILES, jobId);
}
