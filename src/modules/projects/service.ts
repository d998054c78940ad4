// Projects: a name and a memory (whose language pair they take); documents belong to them.
import { errors } from '../../errors.ts';
import type { Db } from '../../store/db.ts';
import { deleteDocument, documentsOfProjects } from '../documents/repository.ts';
import { publicDocument } from '../documents/service.ts';
import { findMemory } from '../memories/repository.ts';
import type { Principal } from '../users/service.ts';
import * as repo from './repository.ts';

async function withDocuments(db: Db, rows: repo.ProjectRow[]) {
  const docs = await documentsOfProjects(
    db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    memory_id: Number(row.memory_id),
    srclang: row.srclang,
    trglang: row.trglang,
    srclocale: row.srclocale,
    trglocale: row.trglocale,
    state: row.state,
    due_date: row.due_date === null ? null : Number(row.due_date),
    archived: Number(row.archived) === 1,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    document: docs.filter((d) => Number(d.project_id) === Number(row.id)).map(publicDocument),
  }));
}

async function requireProject(db: Db, principal: Principal, id: number) {
  const row = await repo.findProject(db, id, principal.organizationId);
  if (!row) throw errors.notFound('Project', id);
  return row;
}

export async function createProject(
  db: Db,
  principal: Principal,
  input: { name?: string; memory_id?: number; due_date?: number | null; metadata?: Record<string, unknown> },
) {
  const name = input.name?.trim();
  if (!name) throw errors.missingParameter('name');
  if (input.memory_id === undefined) throw errors.missingParameter('memory_id');
  const memory = await findMemory(db, input.memory_id, principal.organizationId);
  if (!memory) throw errors.notFound('Memory', input.memory_id);
  const id = await repo.insertProject(db, {
    organization_id: principal.organizationId,
    memory_id: Number(memory.id),
    name,
    srclang: memory.srclang,
    trglang: memory.trglang,
    srclocale: memory.srclocale,
    trglocale: memory.trglocale,
    due_date: input.due_date ?? null,
    metadata: JSON.stringify(input.metadata ?? {}),
  });
  return (await withDocuments(db, [(await repo.findProject(db, id, principal.organizationId))!]))[0];
}

export async function listProjects(
  db: Db,
  principal: Principal,
  filter: { ids?: number[]; srclang?: string; trglang?: string; archived?: boolean },
) {
  const rows = await repo.listProjects(db, principal.organizationId, filter);
  if (filter.ids?.length === 1 && rows.length === 0) throw errors.notFound('Project', filter.ids[0]);
  return withDocuments(db, rows);
}

export async function updateProject(
  db: Db,
  principal: Principal,
  input: {
    id: number;
    name?: string;
    state?: string;
    due_date?: number | null;
    archived?: boolean;
    metadata?: Record<string, unknown>;
  },
) {
  await requireProject(db, principal, input.id);
  await repo.updateProject(db, input.id, principal.organizationId, {
    name: input.name?.trim() || undefined,
    state: input.state as repo.ProjectState | undefined,
    due_date: input.due_date,
    archived: input.archived === undefined ? undefined : input.archived ? 1 : 0,
    metadata: input.metadata === undefined ? undefined : JSON.stringify(input.metadata),
  });
  return (await withDocuments(db, [(await repo.findProject(db, input.id, principal.organizationId))!]))[0];
}

export async function deleteProject(db: Db, principal: Principal, id: number) {
  await requireProject(db, principal, id);
  await db.transaction(async (tx) => {
    const docs = await tx.all<{ id: number }>('SELECT id FROM documents WHERE project_id = ?', [id]);
    for (const d of docs) await deleteDocument(tx, Number(d.id));
    await tx.run('DELETE FROM projects WHERE id = ?', [id]);
  });
  return { id, deleted: true };
}
