// A job's input file stored in the database in chunks: any instance's worker can read it back as a stream.
import type { Db, Queryable } from '../store/db.ts';

export const CHUNK_BYTES = 1024 * 1024;

export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`upload is larger than ${limit} bytes`);
    this.name = 'UploadTooLargeError';
  }
}

/**
 * Stores a stream as the job's file, 1 MiB a row, never holding more than one chunk in memory.
 * Throws UploadTooLargeError past `limit` bytes. Answers the size stored.
 */
export async function storeJobFile(
  db: Queryable,
  jobId: number,
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  limit: number,
): Promise<number> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let total = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const data = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await db.run('INSERT INTO job_files (job_id, seq, data) VALUES (?, ?, ?)', [jobId, seq++, data]);
  };
  for await (const piece of input) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    total += chunk.length;
    if (total > limit) throw new UploadTooLargeError(limit);
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= CHUNK_BYTES) await flush();
  }
  await flush();
  return total;
}

/** The job's file, chunk by chunk. */
export async function* readJobFile(db: Db, jobId: number): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const row = await db.get<{ data: Buffer | Uint8Array }>(
      'SELECT data FROM job_files WHERE job_id = ? AND seq = ?',
      [jobId, seq],
    );
    if (!row) return;
    yield Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data);
  }
}

export async function deleteJobFile(db: Queryable, jobId: number): Promise<void> {
  await db.run('DELETE FROM job_files WHERE job_id = ?', [jobId]);
}
