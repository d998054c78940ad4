// A task's input file, stored in the database so that any instance's worker can read it as a stream.

import { type ChunkTable, deleteChunks, readChunks, writeChunks } from '../store/chunked-files.ts';
import type { Queryable } from '../store/db.ts';

const TASK_FILES: ChunkTable = { table: 'task_files', owner: 'task_id' };

export function storeTaskFile(
  db: Queryable,
  taskId: number,
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  limit: number,
): Promise<number> {
  return writeChunks(db, TASK_FILES, taskId, input, limit);
}

export function readTaskFile(db: Queryable, taskId: number): AsyncGenerator<Buffer> {
  return readChunks(db, TASK_FILES, taskId);
}

export function deleteTaskFile(db: Queryable, taskId: number): Promise<void> {
  return deleteChunks(db, TASK_FILES, taskId);
}
