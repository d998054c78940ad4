// Memories: CRUD, the fuzzy query and concordance, and the best-match lookup pre-translation runs.
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import {
  type Candidate,
  compareMatches,
  MAX_QUERY_LENGTH,
  type Match,
  publicMatch,
  type RankedMatch,
  rankCandidates,
  ranked,
} from '../../matching/ranking.ts';
import { EXACT_SCORE, MIN_SCORE } from '../../matching/score-bands.ts';
import { nextTurn, PageSizer } from '../../pacing.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { type LastTask, lastTasksOfMemories, shownState } from '../../tasks/queue.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import { requireLocale } from '../../text/locales.ts';
import { targetTagProblem } from '../../text/tag-check.ts';
import type { Languages } from '../languages/service.ts';
import { emailsOfUsers } from '../users/service.ts';
import { contextHash, type EntryContext } from './entry-identity.ts';
import type { IndexCache } from './index-cache.ts';
import * as repo from './repository.ts';

/** Longest query and segment source accepted (docs/API.md). */
export const MAX_TEXT_LENGTH = 5000;

export interface MemoryDeps {
  db: Db;
  languages: Languages;
  indexes: IndexCache;
}

/**
 * The projects working on a memory, which cannot be deleted while any does. The projects module answers it:
 * projects sit above memories (a project is made on one), so app.ts hands it over rather than this importing it.
 */
export type ProjectsUsingMemory = (
  db: Queryable,
  memoryId: number,
) => Promise<{ id: number; name: string }[]>;

/**
 * What goes with a deleted memory outside its tables: the lexicon learned from its pairs, which the terms
 * module holds. Terms sit above memories, so app.ts hands it over rather than this importing it.
 */
export type MemoryDeleted = (memoryId: number) => void;

/** The memory's last import task, if it has had one. */
async function lastImport(db: Queryable, memoryId: number): Promise<LastTask | undefined> {
  return (await lastTasksOfMemories(db, 'memory_import', [memoryId])).get(memoryId);
}

/** The Memory resource of each row, with the state of its imports. */
async function publicMemories(db: Queryable, rows: readonly repo.MemoryRow[]) {
  const imports = await lastTasksOfMemories(
    db,
    'memory_import',
    rows.map((r) => r.id),
  );
  return rows.map((row) => publicMemory(row, imports.get(row.id)));
}

/** The Memory resource of the organization's memory of this id (which exists). */
async function memoryAnswer(db: Queryable, principal: Principal, id: number) {
  return (await publicMemories(db, [(await repo.findMemory(db, id, principal.organizationId))!]))[0];
}

// Lilt's memories say is_processing null until something was imported, then true while an import runs and
// false after; the last import's outcome is an extension (a refused or failed import is visible here).
function publicMemory(row: repo.MemoryRow, last: LastTask | undefined) {
  const resources = JSON.parse(row.resources) as string[];
  return {
    id: row.id,
    name: row.name,
    srclang: row.srclang,
    trglang: row.trglang,
    srclocale: row.srclocale,
    trglocale: row.trglocale,
    is_processing: last ? last.active : null,
    version: row.version,
    num_segments: row.num_segments,
    resources: resources.length > 0 ? resources : null,
    multiple_translations: row.multiple_translations === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_import: last
      ? {
          task_id: last.task.id,
          state: shownState(last.task.state),
          error: last.task.error,
          error_code: last.task.error_code,
        }
      : null,
  };
}

export async function requireMemory(db: Queryable, principal: Principal, id: number) {
  const memory = await repo.findMemory(db, id, principal.organizationId);
  if (!memory) throw errors.notFound('Memory', id);
  return memory;
}

function requireName(name: string | undefined): string {
  const trimmed = name?.trim();
  if (!trimmed) throw errors.missingParameter('name');
  return trimmed;
}

/** A translation whose inline tags are the source's, properly nested (else a 400 naming the tag). */
export function requireTagsOfSource(source: string, target: string | null): void {
  if (target === null) return;
  const problem = targetTagProblem(source, target);
  if (problem) throw errors.badParameter(`Parameter "target": ${problem}`);
}

/** A required text parameter of at most MAX_TEXT_LENGTH characters. */
export function requireText(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw errors.missingParameter(name);
  if (value.length > MAX_TEXT_LENGTH) {
    throw errors.badParameter(`Parameter "${name}" is longer than ${MAX_TEXT_LENGTH} characters`);
  }
  return value;
}

export async function createMemory(
  deps: MemoryDeps,
  principal: Principal,
  input: {
    name?: string;
    srclang: string;
    trglang: string;
    srclocale?: string;
    trglocale?: string;
    multiple_translations?: boolean;
  },
) {
  const name = requireName(input.name);
  const srclang = deps.languages.require('srclang', input.srclang);
  const trglang = deps.languages.require('trglang', input.trglang);
  const id = await repo.insertMemory(deps.db, {
    organizationId: principal.organizationId,
    name,
    srclang,
    trglang,
    srclocale: requireLocale('srclocale', input.srclocale),
    trglocale: requireLocale('trglocale', input.trglocale),
    multipleTranslations: input.multiple_translations ?? false,
  });
  return memoryAnswer(deps.db, principal, id);
}

export async function listMemories(deps: MemoryDeps, principal: Principal, id?: number) {
  if (id !== undefined) return publicMemories(deps.db, [await requireMemory(deps.db, principal, id)]);
  return publicMemories(deps.db, await repo.listMemories(deps.db, principal.organizationId));
}

/**
 * PUT /v2/memories: renames a memory (Lilt), and sets whether a source may have several translations in one
 * context (extension); at least one of the two is given.
 */
export async function updateMemory(
  deps: MemoryDeps,
  principal: Principal,
  input: { id: number; name?: string; multiple_translations?: boolean },
) {
  const { id } = input;
  if (input.name === undefined && input.multiple_translations !== undefined) {
    if (
      !(await repo.setMultipleTranslations(
        deps.db,
        id,
        principal.organizationId,
        input.multiple_translations,
      ))
    )
      throw errors.notFound('Memory', id);
    return memoryAnswer(deps.db, principal, id);
  }
  const trimmed = requireName(input.name);
  await deps.db.transaction(async (tx) => {
    if (!(await repo.renameMemory(tx, id, principal.organizationId, trimmed)))
      throw errors.notFound('Memory', id);
    if (input.multiple_translations !== undefined)
      await repo.setMultipleTranslations(tx, id, principal.organizationId, input.multiple_translations);
  });
  return memoryAnswer(deps.db, principal, id);
}

/**
 * Deletes a memory and its entries: refused while an import into it runs (its task would fail half-way) and
 * while projects use it (their documents confirm into it).
 */
export async function deleteMemory(
  deps: MemoryDeps & { projectsUsing: ProjectsUsingMemory; memoryDeleted?: MemoryDeleted },
  principal: Principal,
  id: number,
) {
  const { db } = deps;
  await db
    .transaction(async (tx) => {
      await requireMemory(tx, principal, id);
      await repo.lockMemory(tx, id);
      if ((await lastImport(tx, id))?.active) throw errors.memoryBusy(id, 5);
      const projects = await deps.projectsUsing(tx, id);
      if (projects.length > 0) throw errors.memoryInUse(id, projects);
      await repo.deleteMemory(tx, id, principal.organizationId);
    })
    .catch(async (err: unknown) => {
      // A project created on it meanwhile (PostgreSQL; SQLite's writer lock serialises): the reference wins.
      if (db.isForeignKeyViolation(err)) throw errors.memoryInUse(id, await deps.projectsUsing(db, id));
      throw err;
    });
  deps.indexes.drop(id);
  deps.memoryDeleted?.(id);
  return { id, deleted: true };
}

/** A document segment as a memory query compares contexts with it: its source and where it stands. */
export interface SegmentInContext {
  source: string;
  context: EntryContext;
}

/**
 * The context of the organization's document segment of this id, or undefined when there is none. The
 * documents module answers it: documents sit above memories (they are pre-translated from them), so app.ts
 * hands it over rather than this importing it.
 */
export type SegmentContextOf = (
  db: Queryable,
  segmentId: number,
  organizationId: number,
) => Promise<SegmentInContext | undefined>;

/**
 * The stored rows of index hits, in hit order, each with the e-mail of the user who added it (null when that
 * user has none or is gone); an entry deleted since the index read is left out. Source and target come
 * without edge whitespace, also from entries stored before it was trimmed on the way in.
 */
async function rowsOf<T extends { id: number }>(db: Queryable, hits: readonly T[]) {
  const entries = await repo.entriesByIds(
    db,
    hits.map((h) => h.id),
  );
  const authors = [...new Set(entries.flatMap((e) => (e.created_by === null ? [] : [e.created_by])))];
  const emails = await emailsOfUsers(db, authors);
  const rows = new Map(
    entries.map((e) => [
      e.id,
      { ...e, user_email: e.created_by === null ? null : (emails.get(e.created_by) ?? null) },
    ]),
  );
  return hits
    .filter((h) => rows.has(h.id))
    .map((hit) => {
      const row = rows.get(hit.id)!;
      return { hit, row: { ...row, source: withoutEdges(row.source), target: withoutEdges(row.target) } };
    });
}

/**
 * The entries stored in each of these contexts (contextHash), as exact matches in ranking order: the
 * context (101 %) matches of the sources they were hashed from (docs/MATCHING.md §2.6).
 */
async function matchesInContexts(
  db: Queryable,
  memoryId: number,
  hashes: readonly string[],
): Promise<Map<string, Match[]>> {
  const byHash = new Map<string, RankedMatch[]>();
  for (const row of await repo.entriesInContexts(db, memoryId, hashes)) {
    const found = byHash.get(row.context_hash) ?? [];
    found.push(ranked(row.id, row.updated_at, 100, []));
    byHash.set(row.context_hash, found);
  }
  return new Map([...byHash].map(([hash, found]) => [hash, found.sort(compareMatches).map(publicMatch)]));
}

/**
 * The address Lilt's clients read as the entry's author: the e-mail of the user who added it, or — for a
 * user without one — a stable address made from the username in a domain that cannot exist (RFC 2606).
 */
export function authorEmail(username: string | null, email: string | null): string {
  if (email) return email;
  const local = (username ?? 'unknown')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  return `${local || 'user'}@users.tessera.invalid`;
}

function entryMetadata(row: repo.MatchedEntryRow & { user_email: string | null }) {
  return {
    segment_id: row.id,
    resource_name: row.resource_name,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
    updated_by: row.updated_by,
    user_email: authorEmail(row.created_by, row.user_email),
  };
}

export interface QueryInput {
  id: number;
  query?: string;
  n?: number;
  min_score?: number;
  segment_id?: number;
}

/**
 * The fuzzy lookup of docs/MATCHING.md: best first, at most n, nothing under the threshold. The query is
 * searched without its edge whitespace. With a document segment, the entries stored in that segment's
 * context are its context matches: flagged, and ranked before every other match.
 */
export async function queryMemory(
  deps: MemoryDeps & { segmentContext: SegmentContextOf },
  principal: Principal,
  input: QueryInput,
) {
  const memory = await requireMemory(deps.db, principal, input.id);
  const query = withoutEdges(requireText('query', input.query));
  const n = input.n ?? 10;
  let inContext: Match[] = [];
  if (input.segment_id !== undefined) {
    const segment = await deps.segmentContext(deps.db, input.segment_id, principal.organizationId);
    if (!segment) throw errors.notFound('Segment', input.segment_id);
    const hash = contextHash(query, segment.context);
    inContext = (await matchesInContexts(deps.db, memory.id, [hash])).get(hash) ?? [];
  }
  const index = await deps.indexes.get(memory.id, memory.version);
  const matches = index.search(query, { threshold: input.min_score ?? MIN_SCORE, n });
  const hits = [
    ...inContext.map((m) => ({ ...m, context: true })),
    ...matches.map((m) => ({ ...m, context: false })),
  ];
  const found = await rowsOf(deps.db, hits);
  const { ordered, reason, tied } = rankCandidates(
    found.map(({ hit, row }) => ({ ...candidate(hit, row.updated_at, hit.context), row })),
  );
  return ordered.slice(0, n).map(({ row, score, penalties, matchType, context }, i) => ({
    source: row.source,
    target: row.target,
    score,
    metadata: {
      ...entryMetadata(row),
      match_type: matchType,
      penalties,
      context_match: context,
      ranked_first: i === 0 && reason !== null ? { reason, of: tied } : null,
    },
  }));
}

/** A match as the ranking takes it: with its entry's last change and whether it is a context match. */
function candidate(match: Match, updatedAt: number, context: boolean): Candidate {
  return { ...ranked(match.id, updatedAt, match.score, match.penalties), context };
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
  const query = withoutEdges(requireText('query', input.query));
  const side = input.side ?? 'source';
  const index = await deps.indexes.concordance(memory.id, side, memory.version);
  return (await rowsOf(deps.db, index.search(query, input.n ?? 10))).map(({ hit, row }) => ({
    source: row.source,
    target: row.target,
    side,
    offsets: hit.offsets,
    metadata: entryMetadata(row),
  }));
}

/** How long a batch of searches holds the event loop before it gives requests a turn. */
const SEARCH_SLICE_MS = 4;

/** The best match of a source, as pre-translation uses it. */
export interface BestMatch {
  /** The entry's source (whose placeables the target's correspond to) and target, without edge whitespace. */
  source: string;
  target: string;
  score: number;
  /** The entry's source is the segment's, exactly (tags and placeholders included; NFC). */
  exact: boolean;
  /** An exact match stored in the segment's context (docs/MATCHING.md §2.6). */
  contextMatch: boolean;
}

/**
 * The best match scoring MIN_SCORE or more of each source, in order (null where none), against the memory's current
 * entries. Searching is CPU work in this thread: the batch gives the event loop a turn every few
 * milliseconds, so that requests are answered while a large document is pre-translated or analysed.
 */
async function searchEach(
  deps: Pick<MemoryDeps, 'db' | 'indexes'>,
  memoryId: number,
  sources: readonly string[],
  memo: SearchMemo = searchMemo(),
): Promise<(Match | null)[]> {
  const memory = await repo.memoryById(deps.db, memoryId);
  if (!memory) throw errors.notFound('Memory', memoryId);
  const index = await deps.indexes.get(memory.id, memory.version);
  if (memo.version !== memory.version) {
    memo.found.clear();
    memo.version = memory.version;
  }
  const found: (Match | null)[] = [];
  let slice = performance.now();
  for (const text of sources) {
    const source = withoutEdges(text);
    let match = memo.found.get(source);
    if (match === undefined) {
      if (performance.now() - slice > SEARCH_SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
      // A text past the query limit (a long paragraph looked up whole for TM-driven segmentation, a long
      // message pre-translated) has no match rather than ending the task that asked: the index refuses it.
      match =
        source.length > MAX_QUERY_LENGTH
          ? null
          : (index.search(source, { threshold: MIN_SCORE, n: 1 })[0] ?? null);
      memo.found.set(source, match);
    }
    found.push(match);
  }
  return found;
}

/**
 * The answers of a batch of searches by source, kept across the pages of one document (or job): one query
 * per distinct source while the memory's version stays the same.
 */
export interface SearchMemo {
  version: number;
  found: Map<string, Match | null>;
}

export function searchMemo(): SearchMemo {
  return { version: -1, found: new Map() };
}

/** The best score (MIN_SCORE to 100) of each source against the memory, null where none: leverage analysis. */
export async function bestScores(
  deps: Pick<MemoryDeps, 'db' | 'indexes'>,
  memoryId: number,
  sources: readonly string[],
  memo?: SearchMemo,
): Promise<(number | null)[]> {
  return (await searchEach(deps, memoryId, sources, memo)).map((m) => m?.score ?? null);
}

/**
 * For each segment, in order, its best score (MIN_SCORE to 100, null where none) and whether the memory holds
 * an entry in its context (a context match, which pre-translation takes first): what the leverage analysis
 * bands by, without reading the entries themselves.
 */
export async function bestScoresInContext(
  deps: Pick<MemoryDeps, 'db' | 'indexes'>,
  memoryId: number,
  segments: readonly SegmentInContext[],
  memo?: SearchMemo,
): Promise<{ score: number | null; contextMatch: boolean }[]> {
  const sources = segments.map((s) => withoutEdges(s.source));
  const searched = await searchEach(deps, memoryId, sources, memo);
  // An entry in the segment's context has the segment's source, so the search found it at 100: only those
  // segments' contexts are hashed and looked up.
  const hashes = segments.map((s, i) =>
    searched[i]?.score === EXACT_SCORE ? contextHash(sources[i], s.context) : '',
  );
  const held = await repo.heldContexts(deps.db, memoryId, hashes);
  return searched.map((match, i) =>
    held.has(hashes[i])
      ? { score: 100, contextMatch: true }
      : { score: match?.score ?? null, contextMatch: false },
  );
}

/**
 * The best match scoring MIN_SCORE or more for each segment, in order (null where none), against the
 * memory's current entries: an entry stored in the segment's context (a context match) when there is one,
 * else the best of the index. A match is exact only when its source is the segment's, character for
 * character after NFC (tags and placeholders included): never one that differs in case or whitespace.
 */
export async function bestMatches(
  deps: Pick<MemoryDeps, 'db' | 'indexes'>,
  memoryId: number,
  segments: readonly SegmentInContext[],
  memo?: SearchMemo,
): Promise<(BestMatch | null)[]> {
  const sources = segments.map((s) => withoutEdges(s.source));
  const searched = await searchEach(deps, memoryId, sources, memo);
  const hashes = segments.map((s, i) => contextHash(sources[i], s.context));
  const inContext = await matchesInContexts(deps.db, memoryId, hashes);
  const hits = searched.map((match, i) => [
    ...(inContext.get(hashes[i]) ?? []).map((m) => ({ match: m, context: true })),
    ...(match ? [{ match, context: false }] : []),
  ]);
  const entries = new Map(
    (await repo.entriesByIds(deps.db, [...new Set(hits.flat().map((h) => h.match.id))])).map((e) => [
      e.id,
      e,
    ]),
  );
  return hits.map((found, i) => {
    // The same ranking as the query's (rankCandidates): what pre-translation takes is the panel's first.
    const [best] = rankCandidates(
      found.flatMap(({ match, context }) => {
        const entry = entries.get(match.id);
        return entry ? [{ ...candidate(match, entry.updated_at, context), entry }] : [];
      }),
    ).ordered;
    if (!best) return null;
    const source = withoutEdges(best.entry.source);
    return {
      source,
      target: withoutEdges(best.entry.target),
      score: best.score,
      exact: source.normalize('NFC') === sources[i].normalize('NFC'),
      contextMatch: best.context,
    };
  });
}

/**
 * A memory's pairs in pages sized by time (pacing.ts), for work that learns from the whole memory (the
 * lexicon's word alignments): its own reading, never the match index's.
 */
export async function* memoryPairPages(
  db: Queryable,
  memoryId: number,
): AsyncGenerator<{ source: string; target: string }[]> {
  const pages = new PageSizer(2000);
  for (let afterId = 0; ; ) {
    const started = performance.now();
    const limit = pages.size;
    const rows = await repo.entriesPage(db, memoryId, afterId, limit);
    pages.took(performance.now() - started, rows.length);
    yield rows.map((r) => ({ source: r.source, target: r.target }));
    if (rows.length < limit) return;
    afterId = rows[rows.length - 1].id;
    await nextTurn();
  }
}
