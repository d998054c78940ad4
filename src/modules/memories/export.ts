// TMX export: the memory's entries page by page through the streaming TMX writer.
import { Readable } from 'node:stream';
import { writeTmx } from '../../formats/tmx/tmx-writer.ts';
import type { Db } from '../../store/db.ts';
import * as repo from './repository.ts';

const PAGE = 2000;
const TOOL_VERSION = '0.1.0';

async function* entries(db: Db, memoryId: number) {
  for (let afterId = 0; ; ) {
    const rows = await repo.entriesPage(db, memoryId, afterId, PAGE);
    for (const row of rows) {
      yield {
        id: Number(row.id),
        source: row.source,
        target: row.target,
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
        createdBy: row.created_by ?? undefined,
        resourceName: row.resource_name ?? undefined,
      };
    }
    if (rows.length < PAGE) return;
    afterId = Number(rows[rows.length - 1].id);
  }
}

export function exportTmx(db: Db, memory: repo.MemoryRow): Readable {
  return Readable.from(
    writeTmx(entries(db, Number(memory.id)), {
      srclang: memory.srclocale ?? memory.srclang,
      trglang: memory.trglocale ?? memory.trglang,
      creationTool: 'Tessera',
      creationToolVersion: TOOL_VERSION,
    }),
  );
}
