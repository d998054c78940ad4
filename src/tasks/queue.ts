// The task queue: rows in the tasks table, claimed by one worker at a time under a renewable lease.
// Every statement on the tasks table lives here; modules change task rows only through these functions.
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../store/db.ts';
import { nowSeconds } from '../store/db.ts';
import { isDead, isLive } from '../store/instances.ts';
import { deleteTaskFile } from './task-files.ts';

export const TASK_STATES = Object.freeze({
  /** Being uploaded: not claimable until the request that creates it has stored its whole file. */
  uploading: 'uploading',
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
} as const);
export type TaskState = (typeof TASK_STATES)[keyof typeof TASK_STATES];

/** A task's state as its clients see it: one whose file is still being uploaded waits like any queued task. */
export function shownState(state: TaskState): Exclude<TaskState, 'uploading'> {
  return state === TASK_STATES.uploading ? TASK_STATES.queued : state;
}

/** The tasks table's type column (src/tasks/task-type.ts: what each one is). */
export type TaskTypeName =
  | 'memory_import'
  | 'memory_trim_edges'
  | 'document_import'
  | 'pretranslate'
  | 'export'
  | 'job_export'
  | 'file_translation';

/** A task's lease: a worker that does not renew it for this long is presumed dead and its task runs again. */
export const DEFAULT_LEASE_SECONDS = 60;
/** A task failing this many times (process deaths included) is failed for good instead of retried. */
export const MAX_ATTEMPTS = 5;

export interface TaskRow {
  id: number;
  organization_id: number;
  type: TaskTypeName;
  state: TaskState;
  memory_id: number | null;
  document_id: number | null;
  params: string;
  progress_done: number;
  progress_total: number;
  result: string | null;
  error: string | null;
  /** A stable code for why it failed (UNSUPPORTED_FILE_TYPE, MALFORMED_FILE…), beside the message. */
  error_code: string | null;
  attempts: number;
  worker_id: string | null;
  lease_until: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export async function insertTask(
  db: Queryable,
  task: {
    organizationId: number;
    type: TaskTypeName;
    state?: TaskState;
    memoryId?: number | null;
    documentId?: number | null;
    params?: unknown;
    /** The instance storing an uploading task's file: if it dies, the half-stored upload is discarded. */
    workerId?: string;
  },
): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO tasks (organization_id, type, state, memory_id, document_id, params, worker_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      task.organizationId,
      task.type,
      task.state ?? TASK_STATES.queued,
      task.memoryId ?? null,
      task.documentId ?? null,
      JSON.stringify(task.params ?? {}),
      task.workerId ?? null,
      nowSeconds(),
    ],
  );
  return row!.id;
}

/**
 * Records a task that fails before it can run (its input is refused as it arrives), so that a client that
 * polls it, as Lilt's clients poll an import, reads why.
 */
export async function insertFailedTask(
  db: Queryable,
  task: { organizationId: number; type: TaskTypeName; memoryId?: number | null; params?: unknown },
  failure: { message: string; code: string },
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO tasks (organization_id, type, state, memory_id, params, error, error_code, created_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      task.organizationId,
      task.type,
      TASK_STATES.failed,
      task.memoryId ?? null,
      JSON.stringify(task.params ?? {}),
      failure.message,
      failure.code,
      now,
      now,
    ],
  );
  return row!.id;
}

/**
 * Makes a task whose input has been stored whole claimable: uploading → queued. Its progress total becomes
 * the input's size, so that progress is counted in bytes of it read.
 */
export async function markUploaded(db: Queryable, taskId: number, bytes: number): Promise<void> {
  await db.run(
    'UPDATE tasks SET state = ?, worker_id = NULL, progress_total = ? WHERE id = ? AND state = ?',
    [TASK_STATES.queued, bytes, taskId, TASK_STATES.uploading],
  );
}

/** Removes a task that never became claimable (its upload failed); its file goes with it. */
export async function deleteUploadingTask(db: Queryable, taskId: number): Promise<void> {
  await deleteTaskFile(db, taskId);
  await db.run('DELETE FROM tasks WHERE id = ? AND state = ?', [taskId, TASK_STATES.uploading]);
}

/** Discards uploads whose instance died while storing them (the task and its partial file). */
export async function deleteDeadUploads(db: Queryable, liveCutoff: number): Promise<number> {
  const dead = `state = ? AND (worker_id IS NULL OR NOT ${isLive('tasks.worker_id')})`;
  const uploads = await db.all<{ id: number }>(`SELECT id FROM tasks WHERE ${dead}`, [
    TASK_STATES.uploading,
    liveCutoff,
  ]);
  for (const upload of uploads) await deleteTaskFile(db, upload.id);
  const { changes } = await db.run(`DELETE FROM tasks WHERE ${dead}`, [TASK_STATES.uploading, liveCutoff]);
  return changes;
}

/**
 * Puts running tasks of instances known to be dead back in the queue at once, rather than after their lease
 * (a worker id that names no instance, e.g. a tool's, is left to the lease).
 */
export async function requeueTasksOfDeadInstances(db: Queryable, liveCutoff: number): Promise<number> {
  const { changes } = await db.run(
    `UPDATE tasks SET state = ?, worker_id = NULL, lease_until = NULL
     WHERE state = ? AND ${isDead('tasks.worker_id')}`,
    [TASK_STATES.queued, TASK_STATES.running, liveCutoff],
  );
  return changes;
}

/**
 * Gives a document's task of this type that is still queued (not started) new parameters; answers whether
 * there was one. A second request for work not yet begun replaces the first's options.
 */
export async function replaceQueuedParams(
  db: Queryable,
  documentId: number,
  type: TaskTypeName,
  params: unknown,
): Promise<boolean> {
  const { changes } = await db.run(
    'UPDATE tasks SET params = ? WHERE document_id = ? AND type = ? AND state = ?',
    [JSON.stringify(params), documentId, type, TASK_STATES.queued],
  );
  return changes > 0;
}

/** The document's task of this type that is queued or running, if any (the newest). */
export async function activeTaskOf(
  db: Queryable,
  documentId: number,
  type: TaskTypeName,
): Promise<TaskRow | undefined> {
  return db.get<TaskRow>(
    'SELECT * FROM tasks WHERE document_id = ? AND type = ? AND state IN (?, ?, ?) ORDER BY id DESC LIMIT 1',
    [documentId, type, TASK_STATES.uploading, TASK_STATES.queued, TASK_STATES.running],
  );
}

/** A memory's last task of a type, and whether one of that type is under way (uploading, queued or running). */
export interface LastTask {
  task: Pick<TaskRow, 'id' | 'state' | 'error' | 'error_code'>;
  active: boolean;
}

/** The last task of this type of each of these memories that has had one. */
export async function lastTasksOfMemories(
  db: Queryable,
  type: TaskTypeName,
  memoryIds: readonly number[],
): Promise<Map<number, LastTask>> {
  if (memoryIds.length === 0) return new Map();
  const rows = await db.all<
    Pick<TaskRow, 'id' | 'memory_id' | 'state' | 'error' | 'error_code'> & { active: number }
  >(
    `SELECT t.id, t.memory_id, t.state, t.error, t.error_code,
       CASE WHEN EXISTS (SELECT 1 FROM tasks a WHERE a.memory_id = t.memory_id AND a.type = t.type AND a.state IN (?, ?, ?))
         THEN 1 ELSE 0 END AS active
     FROM tasks t
     WHERE t.id IN (SELECT MAX(id) FROM tasks WHERE type = ? AND memory_id IN (${memoryIds.map(() => '?').join(', ')})
       GROUP BY memory_id)`,
    [TASK_STATES.uploading, TASK_STATES.queued, TASK_STATES.running, type, ...memoryIds],
  );
  return new Map(rows.map(({ memory_id, active, ...task }) => [memory_id!, { task, active: active === 1 }]));
}

/** Tasks of these documents under way, or ended at `since` or later, in id order (live events follow them). */
export async function tasksOfDocuments(db: Queryable, documentIds: readonly number[], since: number) {
  if (documentIds.length === 0) return [];
  type DocumentTask = Pick<TaskRow, 'id' | 'type' | 'state' | 'progress_done' | 'progress_total'> & {
    document_id: number;
  };
  return db.all<DocumentTask>(
    `SELECT id, document_id, type, state, progress_done, progress_total FROM tasks WHERE document_id IN (${documentIds.map(() => '?').join(', ')})
       AND (state IN (?, ?, ?) OR finished_at >= ?) ORDER BY id`,
    [...documentIds, TASK_STATES.uploading, TASK_STATES.queued, TASK_STATES.running, since],
  );
}

/**
 * Finished tasks of this type whose input file is still stored: a task deletes it after its transaction
 * commits, and an instance that died in between left it (the instances' sweep discards it).
 */
export async function finishedWithFiles(db: Queryable, type: TaskTypeName): Promise<number[]> {
  // From the few tasks that own a file (walked along its primary key, one index probe per owner), not from
  // every finished task: tasks are kept, and going through 100,000 of them took 22 ms of one statement at
  // every sweep (0.3 ms this way, better-sqlite3 alone).
  const rows = await db.all<{ id: number }>(
    `WITH RECURSIVE filed(id) AS (
       SELECT MIN(task_id) FROM task_files
       UNION ALL
       SELECT (SELECT MIN(task_id) FROM task_files WHERE task_id > filed.id) FROM filed WHERE filed.id IS NOT NULL)
     SELECT id FROM tasks WHERE id IN (SELECT id FROM filed)
       AND type = ? AND state IN (?, ?)`,
    [type, TASK_STATES.succeeded, TASK_STATES.failed],
  );
  return rows.map((r) => Number(r.id));
}

/** How many tasks there are of each type and state (metrics). */
export async function countTasks(
  db: Queryable,
): Promise<{ type: TaskTypeName; state: TaskState; n: number }[]> {
  return db.all('SELECT type, state, COUNT(*) AS n FROM tasks GROUP BY type, state');
}

export async function findTask(
  db: Queryable,
  id: number,
  organizationId: number,
): Promise<TaskRow | undefined> {
  return db.get<TaskRow>('SELECT * FROM tasks WHERE id = ? AND organization_id = ?', [id, organizationId]);
}

export function newWorkerId(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Claims the oldest claimable task: queued, or running with an expired lease (its worker died).
 * On PostgreSQL, FOR UPDATE SKIP LOCKED makes concurrent workers of several instances take different tasks.
 */
export async function claimTask(
  db: Db,
  workerId: string,
  leaseSeconds: number,
): Promise<TaskRow | undefined> {
  const now = nowSeconds();
  return db.transaction((tx) =>
    tx.get<TaskRow>(
      `UPDATE tasks SET state = 'running', worker_id = ?, lease_until = ?, attempts = attempts + 1,
         started_at = COALESCE(started_at, ?)
       WHERE id = (
         SELECT id FROM tasks
         WHERE state = 'queued' OR (state = 'running' AND lease_until < ?)
         ORDER BY id LIMIT 1 ${db.claimLockClause}
       )
       RETURNING *`,
      [workerId, now + leaseSeconds, now, now],
    ),
  );
}

/** Extends the lease; answers false when the task is no longer ours (another worker took it over). */
export async function renewLease(
  db: Db,
  taskId: number,
  workerId: string,
  leaseSeconds: number,
): Promise<boolean> {
  const result = await db.run(
    `UPDATE tasks SET lease_until = ? WHERE id = ? AND worker_id = ? AND state = 'running'`,
    [nowSeconds() + leaseSeconds, taskId, workerId],
  );
  return result.changes > 0;
}

export async function setProgress(db: Queryable, taskId: number, done: number, total: number): Promise<void> {
  await db.run('UPDATE tasks SET progress_done = ?, progress_total = ? WHERE id = ?', [done, total, taskId]);
}

/**
 * Marks the task succeeded inside the caller's transaction, fenced on the worker id: if the lease was lost
 * and another worker owns the task now, this throws and the caller's transaction rolls back.
 */
export async function completeTask(
  tx: Queryable,
  taskId: number,
  workerId: string,
  result: unknown,
): Promise<void> {
  const { changes } = await tx.run(
    `UPDATE tasks SET state = 'succeeded', result = ?, error = NULL, finished_at = ?, lease_until = NULL
     WHERE id = ? AND worker_id = ? AND state = 'running'`,
    [JSON.stringify(result), nowSeconds(), taskId, workerId],
  );
  if (changes === 0) throw new LeaseLostError(taskId);
}

/** Fails a running task of this worker; false when it is no longer running (it finished, or was taken over). */
export async function failTask(
  db: Queryable,
  taskId: number,
  workerId: string,
  message: string,
  code: string | null = null,
): Promise<boolean> {
  const { changes } = await db.run(
    `UPDATE tasks SET state = 'failed', error = ?, error_code = ?, finished_at = ?, lease_until = NULL
     WHERE id = ? AND worker_id = ? AND state = 'running'`,
    [message, code, nowSeconds(), taskId, workerId],
  );
  return changes > 0;
}

/** Puts a task whose attempt was interrupted (shutdown) back in the queue. */
export async function releaseTask(db: Queryable, taskId: number, workerId: string): Promise<void> {
  await db.run(
    `UPDATE tasks SET state = 'queued', worker_id = NULL, lease_until = NULL
     WHERE id = ? AND worker_id = ? AND state = 'running'`,
    [taskId, workerId],
  );
}

export class LeaseLostError extends Error {
  constructor(taskId: number) {
    super(`task ${taskId} was taken over by another worker`);
    this.name = 'LeaseLostError';
  }
}
