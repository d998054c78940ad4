// Memories: CRUD, entries by hand, the fuzzy query and concordance, import and export.
import { errors } from '../../errors.ts';
import type { Db } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import type { Languages } from '../languages/service.ts';
import type { Principal } from '../users/service.ts';
import type { IndexCache } from './index-cache.ts';
import * as repo from './repository.ts';

/** Longest query and segment source accepted (API.md). */
export const MAX_TEXT_LENGTH = 5000;

export interface MemoryDeps {
  db: Db;
  languages: Languages;
  indexes: IndexCache;
}

export function publicMemory(row: repo.MemoryRow) {
  return {
    id: Number(row.id),
    name: row.name,
    srclang: row.srclang,
    trglang: row.trglang,
    srclocale: row.srclocale,
    trglocale: row.trglocale,
    is_processing: Number(row.is_processing) === 1,
    version: Number(row.version),
    num_segments: Number(row.num_segments),
    resources: JSON.parse(row.resources) as string[],
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

export function publicEntry(row: repo.EntryRow, memory: { srclang: string; trglang: string }) {
  return {
    id: Number(row.id),
    document_id: null,
    memory_id: Number(row.memory_id),
    source: row.source,
    target: row.target,
    srclang: memory.srclang,
    trglang: memory.trglang,
    is_confirmed: true,
    is_reviewed: false,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

export async function requireMemory(db: Db, principal: Principal, id: number) {
  const memory = await repo.findMemory(db, id, principal.organizationId);
  if (!memory) throw errors.notFound('Memory', id);
  return memory;
}

function requireName(name: string | undefined): string {
  const trimmed = name?.trim();
  if (!trimmed) throw errors.missingParameter('name');
  return trimmed;
}

export async function createMemory(
  deps: MemoryDeps,
  principal: Principal,
  input: { name?: string; srclang: string; trglang: string; srclocale?: string; trglocale?: string },
) {
  const name = requireName(input.name);
  const srclang = deps.languages.require('srclang', input.srclang);
  const trglang = deps.languages.require('trglang', input.trglang);
  if (srclang === trglang) throw errors.badParameter('Parameters "srclang" and "trglang" must differ');
  const id = await repo.insertMemory(deps.db, {
    organizationId: principal.organizationId,
    name,
    srclang,
    trglang,
    srclocale: input.srclocale ?? null,
    trglocale: input.trglocale ?? null,
  });
  return publicMemory((await repo.findMemory(deps.db, id, principal.organizationId))!);
}

export async function listMemories(deps: MemoryDeps, principal: Principal, id?: number) {
  if (id !== undefined) return [publicMemory(await requireMemory(deps.db, principal, id))];
  return (await repo.listMemories(deps.db, principal.organizationId)).map(publicMemory);
}

export async function renameMemory(
  deps: MemoryDeps,
  principal: Principal,
  id: number,
  name: string | undefined,
) {
  const trimmed = requireName(name);
  if (!(await repo.renameMemory(deps.db, id, principal.organizationId, trimmed)))
    throw errors.notFound('Memory', id);
  return publicMemory((await repo.findMemory(deps.db, id, principal.organizationId))!);
}

export async function deleteMemory(deps: MemoryDeps, principal: Principal, id: number) {
  const deleted = await deps.db.transaction((tx) => repo.deleteMemory(tx, id, principal.organizationId));
  if (!deleted) throw errors.notFound('Memory', id);
  deps.indexes.drop(id);
  return { id, deleted: true };
}

/** A required text parameter of at most MAX_TEXT_LENGTH characters. */
export function requireText(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw errors.missingParameter(name);
  if (value.length > MAX_TEXT_LENGTH) {
    throw errors.badParameter(`Parameter "${name}" is longer than ${MAX_TEXT_LENGTH} characters`);
  }
  return value;
}

/** Adds an entry by hand; an identical pair already stored is answered as is (stored once). */
export async function addEntry(
  deps: MemoryDeps,
  principal: Principal,
  input: { memory_id: number; source?: string; target?: string },
) {
  const memory = await requireMemory(deps.db, principal, input.memory_id);
  const source = requireText('source', input.source);
  const target = requireText('target', input.target);
  const hash = repo.pairHash(source, target);
  const row = await deps.db.transaction(async (tx) => {
    const existing = await repo.findEntryByPair(tx, memory.id, hash);
    if (existing) return existing;
    const version = await repo.bumpVersion(tx, memory.id, 1);
    const now = nowSeconds();
    return (await tx.get<repo.EntryRow>(
      `INSERT INTO memory_entries (memory_id, source, target, pair_hash, resource_name, created_by, rev, created_at, updated_at)
       VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?) RETURNING *`,
      [memory.id, source, target, hash, principal.username, version, now, now],
    ))!;
  });
  return publicEntry(row, memory);
}

export async function getEntry(deps: MemoryDeps, principal: Principal, id: number) {
  const row = await repo.findEntry(deps.db, id, principal.organizationId);
  if (!row) throw errors.notFound('Segment', id);
  return publicEntry(row, row);
}

/** Changes an entry's target (and source); merging into an identical stored pair is refused. */
export async function updateEntry(
  deps: MemoryDeps,
  principal: Principal,
  input: { id: number; target?: string; source?: string },
) {
  const current = await repo.findEntry(deps.db, input.id, principal.organizationId);
  if (!current) throw errors.notFound('Segment', input.id);
  const source = input.source === undefined ? current.source : requireText('source', input.source);
  const target = requireText('target', input.target);
  const hash = repo.pairHash(source, target);
  const row = await deps.db.transaction(async (tx) => {
    const clash = await repo.findEntryByPair(tx, current.memory_id, hash);
    if (clash && Number(clash.id) !== Number(current.id)) {
      throw errors.conflict(`Memory ${current.memory_id} already holds this pair as segment ${clash.id}`);
    }
    const version = await repo.bumpVersion(tx, current.memory_id, 0);
    return (await tx.get<repo.EntryRow>(
      `UPDATE memory_entries SET source = ?, target = ?, pair_hash = ?, rev = ?, updated_at = ?
       WHERE id = ? RETURNING *`,
      [source, target, hash, version, nowSeconds(), current.id],
    ))!;
  });
  return publicEntry(row, current);
}

export async function deleteEntry(deps: MemoryDeps, principal: Principal, id: number, memoryId?: number) {
  const current = await repo.findEntry(deps.db, id, principal.organizationId);
  if (!current || (memoryId !== undefined && Number(current.memory_id) !== memoryId)) {
    throw errors.notFound('Segment', id);
  }
  await deps.db.transaction(async (tx) => {
    const version = await repo.bumpVersion(tx, current.memory_id, -1);
    await tx.run('DELETE FROM memory_entries WHERE id = ?', [id]);
    await tx.run('INSERT INTO memory_deletions (memory_id, entry_id, rev) VALUES (?, ?, ?)', [
      current.memory_id,
      id,
      version,
    ]);
  });
}

export interface QueryInput {
  id: number;
  query?: string;
  n?: number;
  min_score?: number;
}

/** The stored rows of index hits, in hit order; an entry deleted since the index read is left out. */
async function rowsOf<T extends { id: number }>(deps: MemoryDeps, hits: readonly T[]) {
  const rows = new Map(
    (
      await repo.entriesByIds(
        deps.db,
        hits.map((h) => h.id),
      )
    ).map((r) => [Number(r.id), r]),
  );
  return hits.filter((h) => rows.has(h.id)).map((hit) => ({ hit, row: rows.get(hit.id)! }));
}

function entryMetadata(row: repo.EntryRow) {
  return {
    segment_id: Number(row.id),
    resource_name: row.resource_name,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    created_by: row.created_by,
  };
}

/** The fuzzy lookup of MATCHING.md: best first, at most n, nothing under the threshold. */
export async function queryMemory(deps: MemoryDeps, principal: Principal, input: QueryInput) {
  const memory = await requireMemory(deps.db, principal, input.id);
  const query = requireText('query', input.query);
  const index = await deps.indexes.get(Number(memory.id), Number(memory.version));
  const matches = index.search(query, { threshold: input.min_score ?? 75, n: input.n ?? 10 });
  return (await rowsOf(deps, matches)).map(({ hit, row }) => ({
    source: row.source,
    target: row.target,
    score: hit.score,
    metadata: { ...entryMetadata(row), match_type: hit.matchType, penalties: hit.penalties },
  }));
}

export interface ConcordanceInput {
  id: number;
  query?: string;
  side?: 'source' | 'target';
  n?: number;
}

/** Entries whose source (or target) holds the query's words or text, with offsets to highlight. */
export async function concordance(deps: MemoryDeps, principal: Principal, input: ConcordanceInput) {
  const memory = await requireMemory(deps.db, principal, input.id);
  const query = requireText('query', input.query);
  const side = input.side ?? 'source';
  const index = await deps.indexes.concordance(Number(memory.id), side, Number(memory.version));
  return (await rowsOf(deps, index.search(query, input.n ?? 10))).map(({ hit, row }) => ({
    source: row.source,
    target: row.target,
    side,
    offsets: hit.offsets,
    metadata: entryMetadata(row),
  }));
}
