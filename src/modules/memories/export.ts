// TMX export: the memory's entries page by page through the streaming TMX writer, with their contexts; or
// the section of it a sync window selects (Lilt's from_time, to_time and when).
import { Readable } from 'node:stream';
import { errors } from '../../errors.ts';
import { type TmxEntry, writeTmx } from '../../formats/tmx/tmx-writer.ts';
import type { Attachment } from '../../http/attachments.ts';
import type { Principal } from '../../http/principal.ts';
import { PageSizer, paced } from '../../pacing.ts';
import type { Db } from '../../store/db.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import { contextOf } from './entry-identity.ts';
import * as repo from './repository.ts';
import { requireMemory } from './service.ts';

const TOOL_VERSION = '0.1.0';

async function* entries(db: Db, memoryId: number) {
  // Pages sized by time (pacing.ts); the writer's work is paced by paced() below.
  const pages = new PageSizer(500);
  for (let afterId = 0; ; ) {
    const started = performance.now();
    const limit = pages.size;
    const rows = await repo.entriesPage(db, memoryId, afterId, limit);
    pages.took(performance.now() - started, rows.length);
    for (const row of rows) yield tmxEntry(row);
    if (rows.length < limit) return;
    afterId = rows[rows.length - 1].id;
  }
}

/** Which entries a sync selects: those created, updated or deleted in [from, to). */
export interface SyncWindow {
  when: 'created' | 'updated' | 'deleted';
  from: number;
  to: number;
}

/** The entries of a window, pages keyed by (time, id) over the window's index. */
async function* entriesInWindow(db: Db, memoryId: number, window: SyncWindow): AsyncGenerator<TmxEntry> {
  const pages = new PageSizer(500);
  for (let after: repo.TimeCursor = { time: -1, id: 0 }; ; ) {
    const started = performance.now();
    const limit = pages.size;
    if (window.when === 'deleted') {
      const rows = await repo.deletionsInWindow(db, memoryId, window, after, limit);
      pages.took(performance.now() - started, rows.length);
      for (const row of rows) {
        // A deleted entry's tuid is the id it had, its changedate the time it was deleted.
        yield { ...tmxEntry({ ...row, id: row.entry_id, resource_name: null }), updatedAt: row.deleted_at };
      }
      if (rows.length < limit) return;
      const last = rows[rows.length - 1];
      after = { time: last.deleted_at, id: last.entry_id };
    } else {
      const field = window.when === 'created' ? 'created_at' : 'updated_at';
      const rows = await repo.entriesInWindow(db, memoryId, { ...window, field }, after, limit);
      pages.took(performance.now() - started, rows.length);
      for (const row of rows) yield tmxEntry(row);
      if (rows.length < limit) return;
      const last = rows[rows.length - 1];
      after = { time: last[field], id: last.id };
    }
  }
}

type Exported = Pick<
  repo.EntryRow,
  | 'id'
  | 'source'
  | 'target'
  | 'created_at'
  | 'updated_at'
  | 'created_by'
  | 'resource_name'
  | 'context_key'
  | 'context_prev'
  | 'context_next'
  | 'context_hash'
>;

function tmxEntry(row: Exported): TmxEntry {
  return {
    id: row.id,
    source: withoutEdges(row.source),
    target: withoutEdges(row.target),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by ?? undefined,
    resourceName: row.resource_name ?? undefined,
    context: contextOf(row) ?? undefined,
  };
}

/**
 * A memory as a TMX 1.4b file, streamed (a job's export holds its pairs' memories this way); with a window,
 * only the entries it selects.
 */
export function memoryTmx(db: Db, memory: repo.MemoryRow, window?: SyncWindow): Attachment {
  const background = db.background();
  const selected = window ? entriesInWindow(background, memory.id, window) : entries(background, memory.id);
  const body = Readable.from(
    paced(
      writeTmx(selected, {
        srclang: memory.srclocale ?? memory.srclang,
        trglang: memory.trglocale ?? memory.trglang,
        creationTool: 'Tessera',
        creationToolVersion: TOOL_VERSION,
      }),
    ),
  );
  return {
    body,
    contentType: 'application/x-tmx+xml; charset=utf-8',
    fileName: `${memory.name.replace(/[^\w.-]+/g, '_') || 'memory'}.tmx`,
  };
}

/** The TMX of a memory of any organization (callers that hold a project on it hold the right to it). */
export async function memoryTmxById(db: Db, memoryId: number): Promise<Attachment | null> {
  const memory = await repo.memoryById(db, memoryId);
  return memory ? memoryTmx(db, memory) : null;
}

/**
 * GET /v2/memories/export and /sync: the memory as a TMX 1.4b file, streamed — or, given `from_time`,
 * `to_time` or `when`, the entries created, updated or deleted in [from_time, to_time).
 */
export async function exportTmx(
  db: Db,
  principal: Principal,
  query: { id: number; from_time?: number; to_time?: number; when?: string },
): Promise<Attachment> {
  const memory = await requireMemory(db, principal, query.id);
  return memoryTmx(db, memory, syncWindow(query));
}

/**
 * The window a sync asks for, or none for the whole memory. With a time but no `when`, the window applies to
 * the time each entry was last written (created or updated), the section a client polling for changes wants.
 */
export function syncWindow(query: {
  from_time?: number;
  to_time?: number;
  when?: string;
}): SyncWindow | undefined {
  if (query.from_time === undefined && query.to_time === undefined && query.when === undefined)
    return undefined;
  const from = query.from_time ?? 0;
  const to = query.to_time ?? Number.MAX_SAFE_INTEGER;
  if (to < from) throw errors.badParameter('Parameter "to_time" must not be before "from_time"');
  const when = (query.when?.toLowerCase() ?? 'updated') as SyncWindow['when'];
  return { when, from, to };
}
