// SQL for projects.
import type { Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export const PROJECT_STATES = ['backlog', 'inProgress', 'inReview', 'inQA', 'done'] as const;
export type ProjectState = (typeof PROJECT_STATES)[number];

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
  created_at: number;
  updated_at: number;
}

export async function insertProject(
  db: Queryable,
  p: Omit<ProjectRow, 'id' | 'created_at' | 'updated_at' | 'state' | 'archived'>,
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO projects (organization_id, memory_id, name, srclang, trglang, srclocale, trglocale, due_date, metadata,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
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
      now,
      now,
    ],
  );
  return Number(row!.id);
}

export async function findProject(db: Queryable, id: number, organizationId: number) {
  return db.get<ProjectRow>('SELECT * FROM projects WHERE id = ? AND organization_id = ?', [
    id,
    organizationId,
  ]);
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
  changes: Partial<Pick<ProjectRow, 'name' | 'state' | 'due_date' | 'archived' | 'metadata'>>,
) {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?'];
  const { changes: n } = await db.run(
    `UPDATE projects SET ${sets.join(', ')} WHERE id = ? AND organization_id = ?`,
    [...entries.map(([, v]) => v as string | number | null), nowSeconds(), id, organizationId],
  );
  return n > 0;
}
