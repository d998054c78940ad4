// SQL for Lilt's Files: source files, their chunks and their labels.
import { type ChunkTable, readChunks, writeChunks } from '../../store/chunked-files.ts';
import type { Queryable, SqlParam } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import { isLive } from '../../store/instances.ts';

export interface FileRow {
  id: number;
  organization_id: number;
  project_id: number | null;
  name: string;
  file_hash: string;
  size_bytes: number;
  detected_lang: string;
  detected_lang_confidence: number;
  category: string;
  state: 'uploading' | 'stored';
  owner: string | null;
  created_at: number;
  updated_at: number;
}

const FILE_CHUNKS: ChunkTable = { table: 'source_file_chunks', owner: 'file_id' };

export async function insertFile(
  db: Queryable,
  f: { organizationId: number; projectId: number | null; name: string; category: string; owner: string },
): Promise<number> {
  const now = nowSeconds();
  const row = await db.get<{ id: number }>(
    `INSERT INTO source_files (organization_id, project_id, name, category, state, owner, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'uploading', ?, ?, ?) RETURNING id`,
    [f.organizationId, f.projectId, f.name, f.category, f.owner, now, now],
  );
  return row!.id;
}

export function storeFileChunks(db: Queryable, fileId: number, file: AsyncIterable<Buffer>, limit: number) {
  return writeChunks(db, FILE_CHUNKS, fileId, file, limit);
}

export function readFileChunks(db: Queryable, fileId: number): AsyncGenerator<Buffer> {
  return readChunks(db, FILE_CHUNKS, fileId);
}

/** The upload is whole: the file becomes visible, with what was learnt of it. */
export async function markStored(
  db: Queryable,
  id: number,
  f: {
    fileHash: string;
    sizeBytes: number;
    detectedLang: string;
    confidence: number;
    labels: readonly string[];
  },
) {
  await db.run(
    `UPDATE source_files SET state = 'stored', owner = NULL, file_hash = ?, size_bytes = ?, detected_lang = ?,
       detected_lang_confidence = ?, updated_at = ? WHERE id = ?`,
    [f.fileHash, f.sizeBytes, f.detectedLang, f.confidence, nowSeconds(), id],
  );
  for (const label of new Set(f.labels)) await addLabel(db, id, label);
}

export async function findFile(db: Queryable, id: number, organizationId: number) {
  return db.get<FileRow>(
    "SELECT * FROM source_files WHERE id = ? AND organization_id = ? AND state = 'stored'",
    [id, organizationId],
  );
}

/** The organization's files, optionally only the given ids, and only those carrying every label given. */
export async function listFiles(
  db: Queryable,
  organizationId: number,
  filter: { ids?: readonly number[]; labels?: readonly string[] },
) {
  const where = ['organization_id = ?', "state = 'stored'"];
  const params: SqlParam[] = [organizationId];
  if (filter.ids) {
    where.push(`id IN (${filter.ids.map(() => '?').join(', ')})`);
    params.push(...filter.ids);
  }
  for (const label of filter.labels ?? []) {
    where.push(
      'EXISTS (SELECT 1 FROM source_file_labels l WHERE l.file_id = source_files.id AND l.name = ?)',
    );
    params.push(label);
  }
  return db.all<FileRow>(`SELECT * FROM source_files WHERE ${where.join(' AND ')} ORDER BY id`, params);
}

/** The labels of these files, by file id. */
export async function labelsOf(db: Queryable, fileIds: readonly number[]): Promise<Map<number, string[]>> {
  const labels = new Map<number, string[]>(fileIds.map((id) => [id, []]));
  if (fileIds.length === 0) return labels;
  const rows = await db.all<{ file_id: number; name: string }>(
    `SELECT file_id, name FROM source_file_labels WHERE file_id IN (${fileIds.map(() => '?').join(', ')})
     ORDER BY file_id, name`,
    fileIds,
  );
  for (const row of rows) labels.get(row.file_id)?.push(row.name);
  return labels;
}

export async function addLabel(db: Queryable, fileId: number, name: string) {
  await db.run(
    'INSERT INTO source_file_labels (file_id, name) VALUES (?, ?) ON CONFLICT (file_id, name) DO NOTHING',
    [fileId, name],
  );
  await db.run('UPDATE source_files SET updated_at = ? WHERE id = ?', [nowSeconds(), fileId]);
}

export async function removeLabel(db: Queryable, fileId: number, name: string) {
  await db.run('DELETE FROM source_file_labels WHERE file_id = ? AND name = ?', [fileId, name]);
  await db.run('UPDATE source_files SET updated_at = ? WHERE id = ?', [nowSeconds(), fileId]);
}

export async function deleteFile(db: Queryable, id: number) {
  await db.run('DELETE FROM source_file_labels WHERE file_id = ?', [id]);
  await db.run('DELETE FROM source_file_chunks WHERE file_id = ?', [id]);
  await db.run('DELETE FROM source_files WHERE id = ?', [id]);
}

/** Discards files whose upload was being stored by an instance that died (instances' sweep). */
export async function deleteDeadUploads(db: Queryable, liveCutoff: number): Promise<number> {
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM source_files WHERE state = 'uploading' AND (owner IS NULL OR NOT ${isLive('source_files.owner')})`,
    [liveCutoff],
  );
  for (const row of rows) await deleteFile(db, row.id);
  return rows.length;
}
