// Lilt's Files: a source file uploaded once (to be used by jobs), kept in the store, labelled, its language
// detected from its content.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { errors } from '../../errors.ts';
import { filterForName } from '../../formats/registry.ts';
import type { Attachment } from '../../http/attachments.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { requireFileName } from '../../text/file-names.ts';
import { plainText } from '../../text/inline-tags.ts';
import { type DetectedLanguage, detectLanguage } from '../../text/language-detection.ts';
import * as repo from './repository.ts';

export interface FileDeps {
  db: Db;
  maxUploadBytes: number;
  /** This server process, named as the holder of uploads being stored. */
  instanceId: string;
}

/** The text read to detect the language of a file that no format filter reads. */
const HEAD_BYTES = 256 * 1024;
/** A file a format filter reads is read whole for detection up to this size (its text, not its markup). */
const FILTERED_DETECTION_BYTES = 2 * 1024 * 1024;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function publicFile(row: repo.FileRow, labels: readonly string[]) {
  return {
    id: row.id,
    name: row.name,
    file_hash: row.file_hash,
    detected_lang: row.detected_lang,
    detected_lang_confidence: row.detected_lang_confidence,
    category: row.category,
    labels: [...labels],
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

async function answer(db: Queryable, row: repo.FileRow) {
  return publicFile(row, (await repo.labelsOf(db, [row.id])).get(row.id) ?? []);
}

export async function requireFile(db: Queryable, principal: Principal, id: number) {
  const row = await repo.findFile(db, id, principal.organizationId);
  if (!row) throw errors.notFound('File', id);
  return row;
}

function labelList(labels: string | undefined): string[] {
  return (labels ?? '')
    .split(',')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The language of a file: from the text its format filter extracts, or from its bytes read as text. */
async function detect(
  db: Queryable,
  fileId: number,
  name: string,
  head: Buffer,
  size: number,
): Promise<DetectedLanguage> {
  const filter = filterForName(name);
  if (filter && size <= FILTERED_DETECTION_BYTES) {
    const chunks: Buffer[] = [];
    for await (const chunk of repo.readFileChunks(db, fileId)) chunks.push(chunk);
    try {
      const units = await filter.extract(Buffer.concat(chunks), { srclang: 'und', trglang: 'und' });
      return detectLanguage(units.map((u) => plainText(u.source)).join('\n'));
    } catch {
      // Not readable as its name says: its bytes may still be text.
    }
  }
  if (head.includes(0)) return { code: 'und', confidence: 0 };
  return detectLanguage(head.toString('utf8').replace(/<[^>]*>/g, ' '));
}

export interface FileUpload {
  name: string;
  file_hash?: string;
  langId?: boolean;
  project_id?: number;
  category?: 'API' | 'REFERENCE';
  labels?: string;
}

/** POST /v2/files: stores the body, hashing it (MD5 unless a hash is given) and detecting its language. */
export async function uploadFile(
  deps: FileDeps,
  principal: Principal,
  upload: FileUpload,
  file: AsyncIterable<Buffer>,
) {
  const { db } = deps;
  const name = requireFileName(upload.name);
  const id = await repo.insertFile(db, {
    organizationId: principal.organizationId,
    projectId: upload.project_id ?? null,
    name,
    category: upload.category ?? 'API',
    owner: deps.instanceId,
  });
  try {
    const md5 = createHash('md5');
    const heads: Buffer[] = [];
    let headBytes = 0;
    async function* observed() {
      for await (const chunk of file) {
        md5.update(chunk);
        if (headBytes < HEAD_BYTES) {
          heads.push(chunk.subarray(0, HEAD_BYTES - headBytes));
          headBytes += Math.min(chunk.length, HEAD_BYTES - headBytes);
        }
        yield chunk;
      }
    }
    const size = await repo.storeFileChunks(db, id, observed(), deps.maxUploadBytes);
    const language =
      upload.langId === false
        ? { code: 'zxx', confidence: 0 }
        : await detect(db, id, name, Buffer.concat(heads), size);
    await repo.markStored(db, id, {
      fileHash: upload.file_hash?.trim() || md5.digest('hex'),
      sizeBytes: size,
      detectedLang: language.code,
      confidence: language.confidence,
      labels: labelList(upload.labels),
    });
  } catch (err) {
    await db.transaction((tx) => repo.deleteFile(tx, id));
    throw err;
  }
  return answer(db, (await repo.findFile(db, id, principal.organizationId))!);
}

export async function listFiles(db: Db, principal: Principal, query: { id?: number; labels?: string }) {
  const rows = await repo.listFiles(db, principal.organizationId, {
    ids: query.id === undefined ? undefined : [query.id],
    labels: labelList(query.labels),
  });
  const labels = await repo.labelsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => publicFile(row, labels.get(row.id) ?? []));
}

export async function deleteFile(db: Db, principal: Principal, id: number) {
  await requireFile(db, principal, id);
  await db.transaction((tx) => repo.deleteFile(tx, id));
  return { id, deleted: true };
}

/** GET /v2/files/download: the bytes as uploaded, streamed. */
export async function downloadFile(db: Db, principal: Principal, id: number): Promise<Attachment> {
  const row = await requireFile(db, principal, id);
  return {
    body: Readable.from(repo.readFileChunks(db.background(), row.id)),
    contentType: 'application/octet-stream',
    fileName: row.name,
  };
}

export async function addLabel(db: Db, principal: Principal, id: number, name: string | undefined) {
  const label = name?.trim();
  if (!label) throw errors.missingParameter('name');
  await requireFile(db, principal, id);
  await repo.addLabel(db, id, label);
}

export async function removeLabel(db: Db, principal: Principal, id: number, name: string | undefined) {
  const label = name?.trim();
  if (!label) throw errors.missingParameter('name');
  await requireFile(db, principal, id);
  await repo.removeLabel(db, id, label);
}

/** The files' bytes whole (a job copies them into its documents). */
export async function* fileBytes(db: Queryable, id: number): AsyncGenerator<Buffer> {
  yield* repo.readFileChunks(db, id);
}

/** The instances' sweep of this module: uploads of instances that died. */
export const fileSweeps = [repo.deleteDeadUploads];
