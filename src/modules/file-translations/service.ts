// Lilt's Instant Translate: uploaded files (POST /v2/files) translated whole in the background with a
// memory's matches and machine translation (translate-task.ts), watched, and downloaded in their format.
import { Readable } from 'node:stream';
import { errors } from '../../errors.ts';
import type { Attachment } from '../../http/attachments.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db } from '../../store/db.ts';
import { insertTask } from '../../tasks/queue.ts';
import { targetTag } from '../../text/file-names.ts';
import { requireFile } from '../files/service.ts';
import { requireMemory } from '../memories/service.ts';
import { languageTag } from '../mt/service.ts';
import * as repo from './repository.ts';
import type { FileTranslationTaskParams } from './translate-task.ts';

export interface FileTranslationDeps {
  db: Db;
}

/** At most this many files per request (Lilt's clients send a handful). */
const MAX_FILES = 100;

export function publicTranslation(row: repo.FileTranslationRow) {
  return {
    id: row.id,
    fileId: row.file_id,
    status: row.status,
    createdAt: row.created_at,
    ...(row.status === repo.TRANSLATION_STATUSES.failed ? { errorMsg: row.error_msg ?? 'Failed' } : {}),
    memoryId: row.memory_id,
    withTM: row.with_tm === 1,
    segments: row.segments,
    tmSegments: row.tm_segments,
    mtSegments: row.mt_segments,
    sourceSegments: row.source_segments,
  };
}

/** A comma-separated list of ids (`1,2`, `1, 2`), each a positive integer, or a 400 naming the parameter. */
export function idList(name: string, value: string, max = MAX_FILES): number[] {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^[1-9]\d{0,15}$/.test(p))) {
    throw errors.badParameter(`Parameter "${name}" must be ids separated by commas, e.g. 583,584`);
  }
  const ids = [...new Set(parts.map(Number))];
  if (ids.length > max) throw errors.badParameter(`Parameter "${name}" names more than ${max} ids`);
  return ids;
}

export interface TranslateFilesInput {
  fileId: string;
  memoryId: number;
  withTM?: boolean;
  configId?: number;
  externalModelId?: number;
}

/** POST /v2/translate/file: one translation per file, each a task; answers them InProgress. */
export async function translateFiles(
  deps: FileTranslationDeps,
  principal: Principal,
  input: TranslateFilesInput,
) {
  const { db } = deps;
  if (input.configId !== undefined) {
    throw errors.badParameter('Parameter "configId" is not supported: files are read by their format filter');
  }
  if (input.externalModelId !== undefined) {
    throw errors.badParameter(
      'Parameter "externalModelId" is not supported: the organization’s machine translation engines translate',
    );
  }
  const fileIds = idList('fileId', input.fileId);
  const memory = await requireMemory(db, principal, input.memoryId);
  const files: { id: number; name: string }[] = [];
  for (const id of fileIds) files.push(await requireFile(db, principal, id));
  const withTm = input.withTM ?? true;
  const ids = await db.transaction(async (tx) => {
    const created: number[] = [];
    for (const file of files) {
      const id = await repo.insertTranslation(tx, {
        organizationId: principal.organizationId,
        fileId: file.id,
        memoryId: memory.id,
        withTm,
      });
      await insertTask(tx, {
        organizationId: principal.organizationId,
        type: 'file_translation',
        params: {
          translation_id: id,
          file_name: file.name,
          memory_id: memory.id,
          srclang: memory.srclang,
          trglang: memory.trglang,
          source_tag: languageTag(memory.srclang, memory.srclocale),
          target_tag: targetTag(memory.trglang, memory.trglocale),
          with_tm: withTm,
        } satisfies FileTranslationTaskParams,
      });
      created.push(id);
    }
    return created;
  });
  const rows = await repo.listTranslations(db, principal.organizationId, { ids });
  return rows.map(publicTranslation);
}

/**
 * A time parameter as whole seconds (a fraction rounds up: `created_at >= 10.5` is `>= 11`). The query's
 * schema bounds it, but a number spelled `Infinity` or `1e309` reaches here as Infinity: refused by name.
 */
function unixSeconds(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > 99_999_999_999) {
    throw errors.badParameter(`Parameter "${name}" must be a time in seconds since the Unix epoch`);
  }
  return Math.ceil(value);
}

export interface MonitorInput {
  translationIds?: string;
  status?: 'InProgress' | 'ReadyForDownload' | 'Completed' | 'Failed';
  fromTime?: number;
  toTime?: number;
}

/**
 * GET /v2/translate/file: the organization's translations by ids, status and time, oldest first. As Lilt
 * says, at least one filter is given; an id that is not the organization's translation is a 404.
 */
export async function monitorTranslations(
  deps: FileTranslationDeps,
  principal: Principal,
  input: MonitorInput,
) {
  const { translationIds, status, fromTime, toTime } = input;
  if (
    translationIds === undefined &&
    status === undefined &&
    fromTime === undefined &&
    toTime === undefined
  ) {
    throw errors.badParameter(
      'Give at least one of the parameters "translationIds", "status", "fromTime" and "toTime"',
    );
  }
  // Lilt's `Completed`: Tessera writes the file as it finishes translating, so none is ever in that state.
  const shown = status === 'Completed' ? undefined : status;
  const from = fromTime === undefined ? undefined : unixSeconds('fromTime', fromTime);
  const to = toTime === undefined ? undefined : unixSeconds('toTime', toTime);
  if (translationIds === undefined) {
    if (status === 'Completed') return [];
    const rows = await repo.listTranslations(deps.db, principal.organizationId, {
      status: shown,
      fromTime: from,
      toTime: to,
    });
    return rows.map(publicTranslation);
  }
  // Every id asked for must be the organization's translation (else a 404); the other filters then narrow.
  const ids = idList('translationIds', translationIds);
  const rows = await repo.listTranslations(deps.db, principal.organizationId, { ids });
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw errors.notFound('Translation', missing);
  return rows
    .filter(
      (r) =>
        status !== 'Completed' &&
        (shown === undefined || r.status === shown) &&
        (from === undefined || r.created_at >= from) &&
        (to === undefined || r.created_at < to),
    )
    .map(publicTranslation);
}

/** GET /v2/translate/files: the translated file in its original format, once ReadyForDownload. */
export async function downloadTranslation(
  deps: FileTranslationDeps,
  principal: Principal,
  id: number,
): Promise<Attachment> {
  const [row] = await repo.listTranslations(deps.db, principal.organizationId, { ids: [id] });
  if (!row) throw errors.notFound('Translation', id);
  if (row.status !== repo.TRANSLATION_STATUSES.ready) {
    throw errors.translationNotReady(id, row.status, row.error_msg);
  }
  return {
    body: Readable.from(repo.readResult(deps.db.background(), id)),
    contentType: row.media_type ?? 'application/octet-stream',
    fileName: row.result_name ?? `translation-${id}`,
  };
}
