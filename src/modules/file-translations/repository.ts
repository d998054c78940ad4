// SQL for Lilt's Instant Translate: file translations and the chunks of their translated files.
import { type ChunkTable, deleteChunks, readChunks, writeChunks } from '../../store/chunked-files.ts';
import type { Queryable, SqlParam } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';

export const TRANSLATION_STATUSES = Object.freeze({
  inProgress: 'InProgress',
  ready: 'ReadyForDownload',
  failed: 'Failed',
} as const);
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[keyof typeof TRANSLATION_STATUSES];

export interface FileTranslationRow {
  id: number;
  organization_id: number;
  file_id: number;
  memory_id: number;
  with_tm: number;
  status: TranslationStatus;
  error_msg: string | null;
  result_name: string | null;
  media_type: string | null;
  segments: number;
  tm_segments: number;
  mt_segments: number;
  source_segments: number;
  mt_provider: string | null;
  created_at: number;
  updated_at: number;
}

const RESULT_CHUNKS: ChunkTable = { table: 'file_translation_chunks', owner: 'translation_id' };

export async function insertTranslation(
  db: Queryable,
  t: { organizationId: number; fileId: number; memoryId: number; withTm: boolean },
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO file_translations (organization_id, file_id, memory_id, with_tm, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [t.organizationId, t.fileId, t.memoryId, t.withTm ? 1 : 0, TRANSLATION_STATUSES.inProgress, now, now],
  );
  return Number(row!.id);
}

export async function translationById(db: Queryable, id: number) {
  return db.get<FileTranslationRow>('SELECT * FROM file_translations WHERE id = ?', [id]);
}

/** The organization's translations: of these ids, in this status, created in [fromTime, toTime). */
export async function listTranslations(
  db: Queryable,
  organizationId: number,
  filter: { ids?: readonly number[]; status?: string; fromTime?: number; toTime?: number },
) {
  const where = ['organization_id = ?'];
  const params: SqlParam[] = [organizationId];
  if (filter.ids) {
    where.push(`id IN (${filter.ids.map(() => '?').join(', ')})`);
    params.push(...filter.ids);
  }
  if (filter.status !== undefined) {
    where.push('status = ?');
    params.push(filter.status);
  }
  if (filter.fromTime !== undefined) {
    where.push('created_at >= ?');
    params.push(filter.fromTime);
  }
  if (filter.toTime !== undefined) {
    where.push('created_at < ?');
    params.push(filter.toTime);
  }
  return db.all<FileTranslationRow>(
    `SELECT * FROM file_translations WHERE ${where.join(' AND ')} ORDER BY id`,
    params,
  );
}

/** The translation failed, saying why; a translation already finished is left as it is. */
export async function markFailed(db: Queryable, id: number, errorMsg: string) {
  await db.run(
    'UPDATE file_translations SET status = ?, error_msg = ?, updated_at = ? WHERE id = ? AND status = ?',
    [TRANSLATION_STATUSES.failed, errorMsg, nowSeconds(), id, TRANSLATION_STATUSES.inProgress],
  );
}

/** Stores the translated file (replacing what an earlier attempt left) and makes it downloadable. */
export async function storeResult(
  db: Queryable,
  id: number,
  result: {
    bytes: Buffer;
    name: string;
    mediaType: string;
    segments: number;
    tmSegments: number;
    mtSegments: number;
    sourceSegments: number;
    mtProvider: string | null;
  },
  limit: number,
) {
  await deleteChunks(db, RESULT_CHUNKS, id);
  await writeChunks(db, RESULT_CHUNKS, id, [result.bytes], limit);
  await db.run(
    `UPDATE file_translations SET status = ?, error_msg = NULL, result_name = ?, media_type = ?, segments = ?,
       tm_segments = ?, mt_segments = ?, source_segments = ?, mt_provider = ?, updated_at = ? WHERE id = ?`,
    [
      TRANSLATION_STATUSES.ready,
      result.name,
      result.mediaType,
      result.segments,
      result.tmSegments,
      result.mtSegments,
      result.sourceSegments,
      result.mtProvider,
      nowSeconds(),
      id,
    ],
  );
}

export function readResult(db: Queryable, id: number): AsyncGenerator<Buffer> {
  return readChunks(db, RESULT_CHUNKS, id);
}
