// SQL for Lilt's Jobs: the job rows. The zip of a job's last export is the file of the task that made it
// (task_files), so that a new export is written beside the old one and replaces it in one statement.
import type { Queryable, SqlParam } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import { deleteTaskFile } from '../../tasks/task-files.ts';

export type ExportState = 'idle' | 'running' | 'failed';

export interface JobRow {
  id: number;
  organization_id: number;
  name: string;
  src_lang: string;
  src_locale: string | null;
  due: number | null;
  archived: number;
  delivered_at: number | null;
  export_state: ExportState;
  export_type: string | null;
  export_error: string | null;
  export_task_id: number | null;
  leverage: string | null;
  created_at: number;
  updated_at: number;
}

export async function insertJob(
  db: Queryable,
  j: { organizationId: number; name: string; srcLang: string; srcLocale: string | null; due: number | null },
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO jobs (organization_id, name, src_lang, src_locale, due, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [j.organizationId, j.name, j.srcLang, j.srcLocale, j.due, now, now],
  );
  return row!.id;
}

export async function findJob(db: Queryable, id: number, organizationId: number) {
  return db.get<JobRow>('SELECT * FROM jobs WHERE id = ? AND organization_id = ?', [id, organizationId]);
}

export async function jobById(db: Queryable, id: number) {
  return db.get<JobRow>('SELECT * FROM jobs WHERE id = ?', [id]);
}

export async function listJobs(
  db: Queryable,
  organizationId: number,
  filter: { archived?: boolean; delivered?: boolean; offset: number; limit: number },
) {
  const where = ['organization_id = ?'];
  const params: SqlParam[] = [organizationId];
  if (filter.archived !== undefined) {
    where.push('archived = ?');
    params.push(filter.archived ? 1 : 0);
  }
  if (filter.delivered !== undefined)
    where.push(filter.delivered ? 'delivered_at IS NOT NULL' : 'delivered_at IS NULL');
  return db.all<JobRow>(`SELECT * FROM jobs WHERE ${where.join(' AND ')} ORDER BY id LIMIT ? OFFSET ?`, [
    ...params,
    filter.limit,
    filter.offset,
  ]);
}

/** Sets fields of a job (name, due, archived, delivered_at, the export's state, the last leverage). */
export async function updateJob(
  db: Queryable,
  id: number,
  changes: Partial<
    Pick<
      JobRow,
      | 'name'
      | 'due'
      | 'archived'
      | 'delivered_at'
      | 'export_state'
      | 'export_type'
      | 'export_error'
      | 'leverage'
    >
  >,
) {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?'];
  await db.run(`UPDATE jobs SET ${sets.join(', ')} WHERE id = ?`, [
    ...entries.map(([, v]) => v as SqlParam),
    nowSeconds(),
    id,
  ]);
}

/** Marks an export started unless one runs; answers whether this call started it. */
export async function startExport(db: Queryable, id: number, type: string): Promise<boolean> {
  const { changes } = await db.run(
    "UPDATE jobs SET export_state = 'running', export_type = ?, export_error = NULL, updated_at = ? WHERE id = ? AND export_state <> 'running'",
    [type, nowSeconds(), id],
  );
  return changes > 0;
}

/** The export made by this task is the job's from now on: the previous one's file goes. */
export async function finishExport(db: Queryable, id: number, taskId: number): Promise<boolean> {
  const row = await db.get<{ export_task_id: number | null }>(
    'SELECT export_task_id FROM jobs WHERE id = ?',
    [id],
  );
  if (!row) return false;
  if (row.export_task_id !== null && row.export_task_id !== taskId)
    await deleteTaskFile(db, row.export_task_id);
  await db.run(
    "UPDATE jobs SET export_state = 'idle', export_error = NULL, export_task_id = ?, updated_at = ? WHERE id = ?",
    [taskId, nowSeconds(), id],
  );
  return true;
}

/** The export under way failed: the job keeps its previous export (if any) and shows why. */
export async function failExport(db: Queryable, id: number, message: string) {
  await db.run(
    "UPDATE jobs SET export_state = 'failed', export_error = ?, updated_at = ? WHERE id = ? AND export_state = 'running'",
    [message, nowSeconds(), id],
  );
}

export async function deleteJob(db: Queryable, id: number) {
  const row = await db.get<{ export_task_id: number | null }>(
    'SELECT export_task_id FROM jobs WHERE id = ?',
    [id],
  );
  if (row?.export_task_id != null) await deleteTaskFile(db, row.export_task_id);
  await db.run('DELETE FROM jobs WHERE id = ?', [id]);
}
