// POST /v2/memories/import: stores the upload under a task no worker can claim yet, then makes it claimable
// in one statement once the whole file is in (so a half-stored file is never parsed).
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db } from '../../store/db.ts';
import {
  deleteUploadingTask,
  insertFailedTask,
  insertTask,
  markUploaded,
  TASK_STATES,
} from '../../tasks/queue.ts';
import { storeTaskFile } from '../../tasks/task-files.ts';
import type { TaskNotifier } from '../../tasks/task-worker.ts';
import { requireFileName } from '../../text/file-names.ts';
import type { MemoryImportTaskParams } from './import-task.ts';
import { MEMORY_FILE_TYPES, memoryFileFormat } from './memory-file-thread.ts';
import { requireMemory } from './service.ts';
import type { TermFiles } from './term-files.ts';

export const MEMORY_IMPORT_EXTENSIONS = Object.keys(MEMORY_FILE_TYPES);

export interface ImportDeps {
  db: Db;
  tasks: TaskNotifier;
  maxUploadBytes: number;
  /** This server process, named as the holder of the upload while it is stored. */
  instanceId: string;
  /** The terms module's import, for termbase files (term-files.ts). */
  termFiles?: TermFiles;
}

export async function startImport(
  deps: ImportDeps,
  principal: Principal,
  upload: { memory_id: number; name: string; has_header_row?: boolean },
  file: AsyncIterable<Buffer>,
) {
  const { db } = deps;
  const name = requireFileName(upload.name);
  const memory = await requireMemory(db, principal, upload.memory_id);
  if (deps.termFiles?.isTermFile(name, upload.has_header_row)) {
    // A termbase is read and stored within the request, all or nothing: there is no task to poll (0).
    await deps.termFiles.importTermFile(principal, { ...upload, name }, file);
    return { id: memory.id, isProcessing: 0 as const, job_id: 0, task_id: 0 };
  }
  if (!memoryFileFormat(name)) {
    return refuseImport(principal, memory.id, name, file, deps);
  }
  const taskId = await insertTask(db, {
    organizationId: principal.organizationId,
    type: 'memory_import',
    state: TASK_STATES.uploading,
    memoryId: memory.id,
    params: { name, createdBy: principal.username } satisfies MemoryImportTaskParams,
    workerId: deps.instanceId,
  });
  let bytes: number;
  try {
    bytes = await storeTaskFile(db, taskId, file, deps.maxUploadBytes);
  } catch (err) {
    await deleteUploadingTask(db, taskId);
    throw err;
  }
  await markUploaded(db, taskId, bytes);
  deps.tasks.wake();
  // job_id is the name Lilt's clients read; task_id says what it is here (GET /v2/tasks?id=).
  return { id: memory.id, isProcessing: 1 as const, job_id: taskId, task_id: taskId };
}

/**
 * A file that is not a memory format is answered as Lilt answers it — accepted, processing — and its task
 * has failed already with UNSUPPORTED_FILE_TYPE naming the supported types: a Lilt client sees Lilt's shape
 * and a person polling the task (or reading the memory's last_import) sees why. The memory is unchanged;
 * the body is read to its end (under the upload limit) and dropped.
 */
async function refuseImport(
  principal: Principal,
  memoryId: number,
  name: string,
  file: AsyncIterable<Buffer>,
  deps: ImportDeps,
) {
  let bytes = 0;
  for await (const chunk of file) {
    bytes += chunk.length;
    if (bytes > deps.maxUploadBytes) throw errors.payloadTooLarge(deps.maxUploadBytes);
  }
  const refused = errors.unsupportedMediaType(name, MEMORY_IMPORT_EXTENSIONS);
  const taskId = await insertFailedTask(
    deps.db,
    {
      organizationId: principal.organizationId,
      type: 'memory_import',
      memoryId,
      params: { name, createdBy: principal.username } satisfies MemoryImportTaskParams,
    },
    { message: refused.message, code: refused.code },
  );
  return { id: memoryId, isProcessing: 1 as const, job_id: taskId, task_id: taskId };
}
