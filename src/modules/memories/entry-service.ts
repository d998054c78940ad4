// Memory entries one at a time: added, changed and deleted by hand (/v2/segments), and the pairs that
// confirmed document segments write back into their project's memory. Every write stores source and target
// without edge whitespace, and every answer gives them so (entries stored before may hold it).
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Queryable } from '../../store/db.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import {
  contextHash,
  contextOf,
  type EntryContext,
  pairHash,
  storedContext,
  storedText,
} from './entry-identity.ts';
import * as repo from './repository.ts';
import { type MemoryDeps, requireMemory, requireTagsOfSource, requireText } from './service.ts';

export function publicEntry(row: repo.EntryRow, memory: { srclang: string; trglang: string }) {
  return {
    id: row.id,
    document_id: null,
    memory_id: row.memory_id,
    source: withoutEdges(row.source),
    target: withoutEdges(row.target),
    srclang: memory.srclang,
    trglang: memory.trglang,
    is_confirmed: true,
    is_reviewed: false,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
    updated_by: row.updated_by,
  };
}

/**
 * Stores a pair once per memory and context (an identical one already stored is answered as it is), without
 * edge whitespace, bumping the version. With a context, and unless the memory allows several translations
 * per source, the pair replaces what the memory holds for its source in that context (docs/MATCHING.md
 * §2.7): the newest such entry takes the new target — its earlier text kept as a version of it — and older
 * duplicates (stored before this rule) go, logged as deletions. Without a context (an entry added by hand
 * through Lilt's API) it is added, as Lilt adds it.
 */
async function storePair(
  tx: Queryable,
  memoryId: number,
  pair: { source: string; target: string; context?: EntryContext | null },
  createdBy: string,
) {
  const source = storedText(pair.source);
  const target = storedText(pair.target);
  const context = storedContext(pair.context);
  const where = contextHash(source, context);
  const hash = pairHash(source, target, where);
  if (where !== '' && !(await allowsMultiple(tx, memoryId))) {
    const replaced = await replaceInContext(tx, memoryId, { source, target, hash, where }, createdBy);
    if (replaced) return replaced;
  } else {
    const existing = await repo.findEntryByPair(tx, memoryId, hash);
    if (existing) return existing;
  }
  const rev = await repo.bumpVersion(tx, memoryId, 1);
  return repo.insertEntry(tx, {
    memoryId,
    source,
    target,
    pairHash: hash,
    createdBy,
    rev,
    context,
    contextHash: where,
  });
}

/**
 * Whether the memory keeps several translations per source. Takes the memory's row lock first (which the
 * version bump of every write takes anyway): two confirmations of one source racing on PostgreSQL then see
 * each other's entry rather than both adding one.
 */
async function allowsMultiple(db: Queryable, memoryId: number): Promise<boolean> {
  await repo.lockMemory(db, memoryId);
  const memory = await repo.memoryById(db, memoryId);
  if (!memory) throw errors.notFound('Memory', memoryId);
  return memory.multiple_translations === 1;
}

/**
 * The entry of this source in this context, holding `target` now: the newest one stored there, its target
 * replaced (the earlier one kept as a version) unless it is already this one; the others stored there
 * deleted. Undefined when the memory holds nothing in that context.
 */
async function replaceInContext(
  tx: Queryable,
  memoryId: number,
  pair: { source: string; target: string; hash: string; where: string },
  by: string,
): Promise<repo.EntryRow | undefined> {
  const stored = await repo.entriesInContexts(tx, memoryId, [pair.where]);
  if (stored.length === 0) return undefined;
  stored.sort((a, b) => b.updated_at - a.updated_at || b.id - a.id);
  const [newest, ...older] = stored;
  if (older.length === 0 && newest.pair_hash === pair.hash) return newest;
  const rev = await repo.bumpVersion(tx, memoryId, -older.length);
  for (const entry of older) await repo.deleteEntry(tx, memoryId, entry.id, rev);
  if (newest.pair_hash === pair.hash) return newest;
  await repo.keepEntryVersion(tx, newest, by);
  return repo.updateEntry(tx, newest.id, {
    source: pair.source,
    target: pair.target,
    pairHash: pair.hash,
    contextHash: pair.where,
    rev,
    updatedBy: by,
  });
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
  requireTagsOfSource(source, target);
  const row = await deps.db.transaction((tx) =>
    storePair(tx, memory.id, { source, target }, principal.username),
  );
  return publicEntry(row, memory);
}

/**
 * Writes a confirmed document segment's pair into its project's memory with the segment's context, inside
 * the caller's transaction, so that the next query finds it with 100 (and there, a context match).
 */
export async function recordConfirmedPair(
  tx: Queryable,
  memoryId: number,
  pair: { source: string; target: string; context: EntryContext; username: string },
): Promise<void> {
  await storePair(tx, memoryId, pair, pair.username);
}

/** The entry with this id, or undefined when it is none of the caller's. */
export async function findEntry(deps: Pick<MemoryDeps, 'db'>, principal: Principal, id: number) {
  const row = await repo.findEntry(deps.db, id, principal.organizationId);
  return row ? publicEntry(row, row) : undefined;
}

/** Changes an entry's target (and source); merging into an identical stored pair is refused. */
export async function updateEntry(
  deps: MemoryDeps,
  principal: Principal,
  input: { id: number; target?: string; source?: string },
) {
  const current = await repo.findEntry(deps.db, input.id, principal.organizationId);
  if (!current) throw errors.notFound('Segment', input.id);
  const source = storedText(
    input.source === undefined ? current.source : requireText('source', input.source),
  );
  const target = storedText(requireText('target', input.target));
  requireTagsOfSource(source, target);
  // The entry keeps its context; its source may change, and the source in its context with it.
  const where = contextHash(source, contextOf(current));
  const hash = pairHash(source, target, where);
  const row = await deps.db.transaction(async (tx) => {
    const clash = await repo.findEntryByPair(tx, current.memory_id, hash);
    if (clash && clash.id !== current.id) {
      throw errors.conflict(`Memory ${current.memory_id} already holds this pair as segment ${clash.id}`);
    }
    const rev = await repo.bumpVersion(tx, current.memory_id, 0);
    if (current.source !== source || current.target !== target) {
      await repo.keepEntryVersion(tx, current, principal.username);
    }
    return repo.updateEntry(tx, current.id, {
      source,
      target,
      pairHash: hash,
      contextHash: where,
      rev,
      updatedBy: principal.username,
    });
  });
  return publicEntry(row, current);
}

/** Deletes an entry (of the given memory, when named); 404 when it is none of the caller's. */
export async function deleteEntry(deps: MemoryDeps, principal: Principal, id: number, memoryId?: number) {
  const current = await repo.findEntry(deps.db, id, principal.organizationId);
  if (!current || (memoryId !== undefined && current.memory_id !== memoryId)) {
    throw errors.notFound('Segment', id);
  }
  await deps.db.transaction(async (tx) => {
    const rev = await repo.bumpVersion(tx, current.memory_id, -1);
    await repo.deleteEntry(tx, current.memory_id, id, rev);
  });
}

/** PUT /v2/memories/segment: one entry of a named memory changed (as PUT /v2/segments does by id alone). */
export async function updateMemoryEntry(
  deps: MemoryDeps,
  principal: Principal,
  input: { id: number; segment_id: number; source?: string; target?: string },
) {
  await requireMemory(deps.db, principal, input.id);
  const current = await repo.findEntry(deps.db, input.segment_id, principal.organizationId);
  if (!current || current.memory_id !== input.id) throw errors.notFound('Segment', input.segment_id);
  return updateEntry(deps, principal, { id: input.segment_id, source: input.source, target: input.target });
}

/** DELETE /v2/memories/segment: one entry of a named memory. */
export async function deleteMemoryEntry(
  deps: MemoryDeps,
  principal: Principal,
  memoryId: number,
  entryId: number,
) {
  await requireMemory(deps.db, principal, memoryId);
  await deleteEntry(deps, principal, entryId, memoryId);
  return { success: true };
}

/** GET /v2/memories/entries: a page of a memory's entries, in the order they were added, filtered by text. */
export async function browseEntries(
  deps: Pick<MemoryDeps, 'db'>,
  principal: Principal,
  query: { id: number; offset?: number; limit?: number; q?: string },
) {
  await requireMemory(deps.db, principal, query.id);
  const { total, rows } = await repo.browseEntries(deps.db, query.id, {
    // Entries are stored in NFC: so is the text searched for.
    text: query.q?.trim().normalize('NFC') || undefined,
    offset: query.offset ?? 0,
    limit: query.limit ?? 50,
  });
  return {
    total,
    entries: rows.map((row) => ({
      id: row.id,
      source: withoutEdges(row.source),
      target: withoutEdges(row.target),
      created_at: row.created_at,
      updated_at: row.updated_at,
      created_by: row.created_by,
      updated_by: row.updated_by,
      earlier_versions: Number(row.earlier_versions),
    })),
  };
}

/**
 * GET /v2/memories/entries/history: an entry's versions, newest first — as it is, then what each correction
 * replaced, with who wrote it and when. Another organization's memory or entry is a 404.
 */
export async function entryHistory(
  deps: Pick<MemoryDeps, 'db'>,
  principal: Principal,
  query: { id: number; segment_id: number },
) {
  await requireMemory(deps.db, principal, query.id);
  const current = await repo.findEntry(deps.db, query.segment_id, principal.organizationId);
  if (!current || current.memory_id !== query.id) throw errors.notFound('Segment', query.segment_id);
  const earlier = await repo.entryVersions(deps.db, current.id);
  return {
    memory_id: current.memory_id,
    segment_id: current.id,
    versions: [
      {
        source: withoutEdges(current.source),
        target: withoutEdges(current.target),
        user: current.updated_by,
        created_at: current.updated_at,
        current: true,
        replaced_by: null,
        replaced_at: null,
      },
      ...earlier.map((v) => ({
        source: withoutEdges(v.source),
        target: withoutEdges(v.target),
        user: v.written_by,
        created_at: v.written_at,
        current: false,
        replaced_by: v.replaced_by,
        replaced_at: v.replaced_at,
      })),
    ],
  };
}
