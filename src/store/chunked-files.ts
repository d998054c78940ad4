// Files kept in the database in 1 MiB chunks (task inputs, document originals): any instance can read them,
// and neither writing nor reading ever holds more than one chunk in memory.
import { errors } from '../errors.ts';
import type { Queryable } from './db.ts';

export const CHUNK_BYTES = 1024 * 1024;

/** The tables that hold chunked files, each keyed by its owner's id column. */
export type ChunkTable =
  | { table: 'task_files'; owner: 'task_id' }
  | { table: 'source_file_chunks'; owner: 'file_id' }
  | { table: 'document_files'; owner: 'document_id' }
  | { table: 'file_translation_chunks'; owner: 'translation_id' };

/** Stores a stream as the owner's file; throws 413 PAYLOAD_TOO_LARGE past `limit` bytes. Answers the size. */
export async function writeChunks(
  db: Queryable,
  where: ChunkTable,
  ownerId: number,
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  limit: number,
): Promise<number> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let total = 0;
  const flush = async () => {
    // An empty file still gets one (empty) chunk, so that it reads back as a file.
    if (pendingBytes === 0 && seq > 0) return;
    const data = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await db.run(`INSERT INTO ${where.table} (${where.owner}, seq, data) VALUES (?, ?, ?)`, [
      ownerId,
      seq++,
      data,
    ]);
  };
  for await (const piece of input) {
    let chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    total += chunk.length;
    if (total > limit) throw errors.payloadTooLarge(limit);
    // Cut to CHUNK_BYTES whatever pieces the input arrives in (a body handed over whole is one piece):
    // a reader's progress and memory go a chunk at a time.
    while (chunk.length > 0) {
      const part = chunk.subarray(0, CHUNK_BYTES - pendingBytes);
      pending.push(part);
      pendingBytes += part.length;
      chunk = chunk.subarray(part.length);
      if (pendingBytes === CHUNK_BYTES) await flush();
    }
  }
  await flush();
  return total;
}

/** The owner's file, chunk by chunk. */
export async function* readChunks(db: Queryable, where: ChunkTable, ownerId: number): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const row = await db.get<{ data: Buffer | Uint8Array }>(
      `SELECT data FROM ${where.table} WHERE ${where.owner} = ? AND seq = ?`,
      [ownerId, seq],
    );
    if (!row) return;
    yield Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data);
  }
}

/**
 * Deletes the owner's file a chunk per statement: as one statement, deleting the 1.7 GB file of a
 * ten-million-unit import held the embedded store's only thread for 35 s, and eight chunks per statement
 * still took 600–770 ms each right after that import's commit (SQLite reads every overflow page of a blob
 * to free it), while requests waited 4 s in all. Inside a transaction it stays all or nothing.
 */
export async function deleteChunks(db: Queryable, where: ChunkTable, ownerId: number): Promise<void> {
  const last = await db.get<{ seq: number | null }>(
    `SELECT MAX(seq) AS seq FROM ${where.table} WHERE ${where.owner} = ?`,
    [ownerId],
  );
  const max = last?.seq === null || last?.seq === undefined ? -1 : Number(last.seq);
  for (let seq = 0; seq <= max; seq++) {
    await db.run(`DELETE FROM ${where.table} WHERE ${where.owner} = ? AND seq = ?`, [ownerId, seq]);
  }
}
