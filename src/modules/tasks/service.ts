// Tasks as clients see them: a task's state, progress and outcome; counts by type and state for metrics.
import { errors } from '../../errors.ts';
import { isLinguist, type Principal } from '../../http/principal.ts';
import type { Db } from '../../store/db.ts';
import { countTasks, findTask, shownState, TASK_STATES, type TaskRow } from '../../tasks/queue.ts';
import type { LiveProgress } from '../../tasks/task-worker.ts';
import { isDocumentOf } from '../documents/service.ts';

/**
 * A task as its client sees it. `live`: the progress its handler reported in this process, which a long
 * transaction (a memory import's, on the embedded store) keeps from the row until it commits.
 */
export function publicTask(row: TaskRow, live?: { done: number; total: number }) {
  return {
    id: row.id,
    type: row.type,
    state: shownState(row.state),
    progress:
      live && row.state === TASK_STATES.running
        ? { ...live }
        : { done: row.progress_done, total: row.progress_total },
    result: row.result === null ? null : JSON.parse(row.result),
    error: row.error,
    error_code: row.error_code,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

export async function getTask(db: Db, tasks: LiveProgress, principal: Principal, id: number) {
  const row = await findTask(db, id, principal.organizationId);
  if (!row) throw errors.notFound('Task', id);
  // A translator or reviewer follows the tasks of the documents assigned to them, never a memory's.
  if (
    isLinguist(principal) &&
    (row.document_id === null || !(await isDocumentOf(db, principal, row.document_id)))
  ) {
    throw errors.notFound('Task', id);
  }
  return publicTask(row, tasks.liveProgress(row.id));
}

export function taskCounts(db: Db) {
  return countTasks(db);
}
