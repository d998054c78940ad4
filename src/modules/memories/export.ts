// TMX export: the memory's entries page by page through the streaming TMX writer, with their contexts.
import { Readable } from 'node:stream';
import { writeTmx } from '../../formats/tmx/tmx-writer.ts';
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
    for (const row of rows) {
      yield {
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
    if (rows.length < limit) return;
    afterId = rows[rows.length - 1].id;
  }
}

/** A memory as a TMX 1.4b file, streamed (a job's export holds its pairs' memories this way). */
export function memoryTmx(db: Db, memory: repo.MemoryRow): Attachment {
  const body = Readable.from(
    paced(
      writeTmx(entries(db.background(), memory.id), {
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

/** GET /v2/memories/export: the memory as a TMX 1.4b file, streamed. */
export async function exportTmx(db: Db, principal: Principal, id: number): Promise<Attachment> {
  return memoryTmx(db, await requireMemory(db, principal, id));
}
