// SQL for projects: the one owner of the projects table.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

import type { Segmentation } from '../../text/segmentation-modes.ts';
import type { ProjectState } from './project-states.ts';

export interface ProjectRow {
  id: number;
  organization_id: number;
  memory_id: number;
  name: string;
  srclang: string;
  trglang: string;
  srclocale: string | null;
  trglocale: string | null;
  state: ProjectState;
  due_date: number | null;
  archived: number;
  metadata: string;
  /** The Lilt Job the project belongs to (one project per language pair), or null. */
  job_id: number | null;
  /** 1 when confirming a segment fills its unconfirmed repetitions in the project (the default). */
  propagate_repetitions: number;
  /** How its documents are segmented (text/segmentation-modes.ts). */
  segmentation: Segmentation;
  /** Its own segmentation rules (SRX as JSON, text/srx.ts), or null for the built-in ones. */
  segmentation_rules: string | null;
  /** Its workflow template (workflow-templates.ts). */
  workflow_template_id: number;
  created_at: number;
  updated_at: number;
}

export async function insertProject(
  db: Queryable,
  p: Omit<ProjectRow, 'id' | 'created_at' | 'updated_at' | 'state' | 'archived' | 'segmentation_rules'>,
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO projects (organization_id, memory_id, name, srclang, trglang, srclocale, trglocale, due_date, metadata,
       job_id, propagate_repetitions, segmentation, workflow_template_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      p.organization_id,
      p.memory_id,
      p.name,
      p.srclang,
      p.trglang,
      p.srclocale,
      p.trglocale,
      p.due_date,
      p.metadata,
      p.job_id,
      p.propagate_repetitions,
      p.segmentation,
      p.workflow_template_id,
      now,
      now,
    ],
  );
  return row!.id;
}

export async function findProjectById(db: Queryable, id: number) {
  return db.get<ProjectRow>('SELECT * FROM projects WHERE id = ?', [id]);
}

export async function findProject(db: Queryable, id: number, organizationId: number) {
  return db.get<ProjectRow>('SELECT * FROM projects WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
}

/** The memory of a project (a project keeps the memory it was created on). */
export async function memoryOfProject(db: Queryable, id: number): Promise<number | undefined> {
  return (await db.get<{ memory_id: number }>('SELECT memory_id FROM projects WHERE id = ?', [id]))
    ?.memory_id;
}

/** Whether confirming a segment of the project fills its repetitions. */
export async function propagatesRepetitions(db: Queryable, id: number): Promise<boolean> {
  const row = await db.get<{ propagate_repetitions: number }>(
    'SELECT propagate_repetitions FROM projects WHERE id = ?',
    [id],
  );
  return Number(row?.propagate_repetitions ?? 0) === 1;
}

/** The projects working on a memory. */
export async function projectsUsingMemory(db: Queryable, memoryId: number) {
  return db.all<{ id: number; name: string }>(
    'SELECT id, name FROM projects WHERE memory_id = ? ORDER BY id',
    [memoryId],
  );
}

export async function listProjects(
  db: Queryable,
  organizationId: number,
  filter: { ids?: number[]; srclang?: string; trglang?: string; archived?: boolean },
) {
  const where = ['organization_id = ?'];
  const params: (string | number)[] = [organizationId];
  if (filter.ids) {
    where.push(`id IN (${filter.ids.map(() => '?').join(', ')})`);
    params.push(...filter.ids);
  }
  if (filter.srclang) {
    where.push('srclang = ?');
    params.push(filter.srclang);
  }
  if (filter.trglang) {
    where.push('trglang = ?');
    params.push(filter.trglang);
  }
  if (filter.archived !== undefined) {
    where.push('archived = ?');
    params.push(filter.archived ? 1 : 0);
  }
  return db.all<ProjectRow>(`SELECT * FROM projects WHERE ${where.join(' AND ')} ORDER BY id`, params);
}

export async function updateProject(
  db: Queryable,
  id: number,
  organizationId: number,
  changes: Partial<
    Pick<
      ProjectRow,
      | 'name'
      | 'state'
      | 'due_date'
      | 'archived'
      | 'metadata'
      | 'memory_id'
      | 'propagate_repetitions'
      | 'segmentation'
      | 'segmentation_rules'
      | 'workflow_template_id'
    >
  >,
) {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?'];
  const { changes: n } = await db.run(
    `UPDATE projects SET ${sets.join(', ')} WHERE id = ? AND organization_id = ?`,
    [...entries.map(([, v]) => v as string | number | null), nowSeconds(), id, organizationId],
  );
  return n > 0;
}

export async function deleteProject(db: Queryable, id: number) {
  await db.run('DELETE FROM projects WHERE id = ?', [id]);
}

/** The projects of a Lilt Job, in order. */
export async function projectsOfJob(db: Queryable, jobId: number) {
  return db.all<ProjectRow>('SELECT * FROM projects WHERE job_id = ? ORDER BY id', [jobId]);
}

/** Sets fields of every project of a job (archiving, delivering). */
export async function updateProjectsOfJob(
  db: Queryable,
  jobId: number,
  changes: Partial<Pick<ProjectRow, 'state' | 'archived'>>,
) {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?'];
  await db.run(`UPDATE projects SET ${sets.join(', ')} WHERE job_id = ?`, [
    ...entries.map(([, v]) => v as string | number),
    nowSeconds(),
    jobId,
  ]);
}
