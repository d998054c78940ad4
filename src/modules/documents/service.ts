// Documents: upload, the Document resource, segments (edit and confirm into the memory), pre-translation requests.
import type { FastifyRequest } from 'fastify';
import { errors } from '../../errors.ts';
import { filterForName, SUPPORTED_EXTENSIONS } from '../../formats/registry.ts';
import { readUpload, requireFileName, requireId } from '../../http/uploads.ts';
import { insertJob } from '../../jobs/queue.ts';
import { FileTooLargeError, writeChunks } from '../../store/chunked-files.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import * as memories from '../memories/repository.ts';
import { MAX_TEXT_LENGTH, requireText } from '../memories/service.ts';
import { findProject } from '../projects/repository.ts';
import type { Principal } from '../users/service.ts';
import * as repo from './repository.ts';

export interface PretranslateOptions {
  auto_accept: boolean;
  case_sensitive: boolean;
  attribute_to_creator: boolean;
  /** Who asked, recorded on memory entries written by confirmation. */
  username: string;
}

export function publicDocument(row: repo.DocumentRow) {
  const exporting =
    row.export_started_at !== null && Number(row.export_started_at) > nowSeconds() - repo.EXPORT_MARK_SECONDS;
  const importing = ['pending', 'running', 'uploading'].includes(row.import_state);
  return {
    id: Number(row.id),
    project_id: Number(row.project_id),
    name: row.name,
    srclang: row.srclang,
    trglang: row.trglang,
    import_in_progress: importing,
    import_succeeded: row.import_state === 'succeeded',
    import_error_message: row.import_error,
    export_in_progress: exporting,
    export_succeeded: Number(row.export_succeeded) === 1,
    export_error_message: row.export_error,
    is_pretranslating: row.pretranslate_state !== 'idle',
    status: { pretranslation: row.pretranslate_state },
    is_review_complete: Number(row.is_review_complete) === 1,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    num_segments: Number(row.num_segments),
    num_confirmed: Number(row.num_confirmed),
    format: row.format,
  };
}

export function publicSegment(row: repo.SegmentRow, doc: { srclang: string; trglang: string }) {
  return {
    id: Number(row.id),
    document_id: Number(row.document_id),
    memory_id: null,
    source: row.source,
    target: row.target,
    srclang: doc.srclang,
    trglang: doc.trglang,
    is_confirmed: Number(row.is_confirmed) === 1,
    is_reviewed: Number(row.is_reviewed) === 1,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    status: row.status,
    match_score: row.match_score === null ? null : Number(row.match_score),
    position: Number(row.position),
    context: row.context,
  };
}

export async function requireDocument(db: Queryable, principal: Principal, id: number) {
  const doc = await repo.findDocument(db, id, principal.organizationId);
  if (!doc) throw errors.notFound('Document', id);
  return doc;
}

function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw errors.badParameter(`Parameter "${name}" must be true or false`);
}

const UPLOAD_PARAMS = ['name', 'project_id', 'pretranslate', 'auto_accept', 'case_sensitive'] as const;

/** POST /v2/documents/files: stores the original and queues its parsing, atomically. */
export async function uploadDocument(
  db: Db,
  principal: Principal,
  request: FastifyRequest,
  maxBytes: number,
) {
  const upload = await readUpload(request, UPLOAD_PARAMS, maxBytes);
  const name = requireFileName(upload.params.name);
  const projectId = requireId('project_id', upload.params.project_id);
  const filter = filterForName(name);
  if (!filter) throw errors.unsupportedMediaType(name, SUPPORTED_EXTENSIONS);
  const pretranslate = upload.params.pretranslate;
  if (pretranslate !== undefined && pretranslate !== '' && !/^(tm|true|false)$/i.test(pretranslate)) {
    throw errors.badParameter('Parameter "pretranslate" must be "TM"');
  }
  const options = {
    pretranslate: /^(tm|true)$/i.test(pretranslate ?? ''),
    auto_accept: flag('auto_accept', upload.params.auto_accept),
    case_sensitive: flag('case_sensitive', upload.params.case_sensitive),
    attribute_to_creator: false,
    username: principal.username,
  };
  const project = await findProject(db, projectId, principal.organizationId);
  if (!project) throw errors.notFound('Project', projectId);

  const documentId = await repo.insertDocument(db, {
    organizationId: principal.organizationId,
    projectId,
    name,
    format: filter.name,
    srclang: project.srclang,
    trglang: project.trglang,
  });
  try {
    const size = await writeChunks(db, repo.DOCUMENT_FILES, documentId, upload.body, maxBytes);
    if (upload.truncated()) throw new FileTooLargeError(maxBytes);
    await db.transaction(async (tx) => {
      await tx.run("UPDATE documents SET import_state = 'pending', size_bytes = ? WHERE id = ?", [
        size,
        documentId,
      ]);
      await insertJob(tx, {
        organizationId: principal.organizationId,
        type: 'document_import',
        documentId,
        params: options,
      });
    });
  } catch (err) {
    await db.transaction((tx) => repo.deleteDocument(tx, documentId));
    if (err instanceof FileTooLargeError) throw errors.payloadTooLarge(maxBytes);
    throw err;
  }
  return publicDocument((await repo.documentById(db, documentId))!);
}

export async function getDocument(db: Db, principal: Principal, id: number, withSegments: boolean) {
  const doc = await requireDocument(db, principal, id);
  const answer: ReturnType<typeof publicDocument> & { segments?: ReturnType<typeof publicSegment>[] } =
    publicDocument(doc);
  if (withSegments) {
    answer.segments = [];
    for (let after = -1; ; ) {
      const rows = await repo.segmentsPage(db, id, after, 5000);
      for (const row of rows) answer.segments.push(publicSegment(row, doc));
      if (rows.length < 5000) break;
      after = Number(rows[rows.length - 1].position);
    }
  }
  return answer;
}

export async function renameDocument(db: Db, principal: Principal, id: number, name: string) {
  await requireDocument(db, principal, id);
  const fileName = requireFileName(name);
  await db.run('UPDATE documents SET name = ?, updated_at = ? WHERE id = ?', [fileName, nowSeconds(), id]);
  return publicDocument((await repo.documentById(db, id))!);
}

export async function deleteDocument(db: Db, principal: Principal, id: number) {
  await requireDocument(db, principal, id);
  await db.transaction((tx) => repo.deleteDocument(tx, id));
  return { id, deleted: true };
}

/** POST /v2/documents/pretranslate: marks each document pending and queues its job, in one transaction. */
export async function requestPretranslation(
  db: Db,
  principal: Principal,
  ids: readonly number[],
  options: Omit<PretranslateOptions, 'username'>,
) {
  if (ids.length === 0) throw errors.missingParameter('id');
  const docs: repo.DocumentRow[] = [];
  for (const id of ids) docs.push(await requireDocument(db, principal, id));
  for (const doc of docs) {
    if (doc.import_state !== 'succeeded') {
      throw errors.documentBusy(
        `Document ${doc.id} has not been imported; retry when import_succeeded is true`,
        5,
      );
    }
  }
  await db.transaction(async (tx) => {
    for (const doc of docs) {
      const { changes } = await tx.run(
        "UPDATE documents SET pretranslate_state = 'pending', updated_at = ? WHERE id = ? AND pretranslate_state = 'idle'",
        [nowSeconds(), doc.id],
      );
      // Already pending or running: that job will do it.
      if (changes === 0) continue;
      await insertJob(tx, {
        organizationId: principal.organizationId,
        type: 'pretranslate',
        documentId: Number(doc.id),
        params: { ...options, username: principal.username },
      });
    }
  });
  const documents = [];
  for (const doc of docs) documents.push(publicDocument((await repo.documentById(db, Number(doc.id)))!));
  return { id: [...ids], is_pretranslating: true, documents };
}

/** Writes a confirmed pair into the project's memory (stored once), bumping its version. */
export async function writeToMemory(
  tx: Queryable,
  memoryId: number,
  source: string,
  target: string,
  username: string,
) {
  const hash = memories.pairHash(source, target);
  if (await memories.findEntryByPair(tx, memoryId, hash)) return;
  const version = await memories.bumpVersion(tx, memoryId, 1);
  const now = nowSeconds();
  await tx.run(
    `INSERT INTO memory_entries (memory_id, source, target, pair_hash, resource_name, created_by, rev, created_at, updated_at)
     VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)`,
    [memoryId, source, target, hash, username, version, now, now],
  );
}

/** PUT /v2/segments for a document segment; confirming writes the pair into the project's memory. */
export async function updateSegment(
  db: Db,
  principal: Principal,
  input: { id: number; target?: string; is_confirmed?: boolean; is_reviewed?: boolean },
) {
  const current = await repo.findSegment(db, input.id, principal.organizationId);
  if (!current) return undefined;
  const target = input.target ?? current.target;
  if (target !== null && target.length > MAX_TEXT_LENGTH * 4) {
    throw errors.badParameter('Parameter "target" is too long');
  }
  const confirmed =
    input.is_confirmed ?? (input.target !== undefined ? false : Number(current.is_confirmed) === 1);
  const reviewed = input.is_reviewed ?? Number(current.is_reviewed) === 1;
  if (confirmed && (target === null || target.trim() === '')) {
    throw errors.badParameter('Parameter "target" is required to confirm a segment');
  }
  const status = reviewed ? 'reviewed' : confirmed ? 'confirmed' : target ? 'draft' : 'new';
  await db.transaction(async (tx) => {
    await tx.run(
      `UPDATE document_segments SET target = ?, is_confirmed = ?, is_reviewed = ?, status = ?,
         match_score = CASE WHEN ? THEN match_score ELSE NULL END, updated_at = ? WHERE id = ?`,
      [
        target,
        confirmed ? 1 : 0,
        reviewed ? 1 : 0,
        status,
        input.target === undefined ? 1 : 0,
        nowSeconds(),
        input.id,
      ],
    );
    if (confirmed && target) {
      const project = await tx.get<{ memory_id: number }>('SELECT memory_id FROM projects WHERE id = ?', [
        current.project_id,
      ]);
      await writeToMemory(tx, Number(project!.memory_id), current.source, target, principal.username);
    }
  });
  return publicSegment((await repo.findSegment(db, input.id, principal.organizationId))!, current);
}

export async function getSegment(db: Db, principal: Principal, id: number) {
  const row = await repo.findSegment(db, id, principal.organizationId);
  return row ? publicSegment(row, row) : undefined;
}

/** Deletes a document segment; answers false when the id is not a document segment of the caller's. */
export async function deleteSegment(db: Db, principal: Principal, id: number): Promise<boolean> {
  const row = await repo.findSegment(db, id, principal.organizationId);
  if (!row) return false;
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM document_segments WHERE id = ?', [id]);
    await tx.run('UPDATE documents SET num_segments = num_segments - 1, updated_at = ? WHERE id = ?', [
      nowSeconds(),
      row.document_id,
    ]);
  });
  return true;
}

/** POST /v2/segments with document_id: appends a segment as a unit of its own at the document's end. */
export async function appendSegment(
  db: Db,
  principal: Principal,
  documentId: number,
  input: { source?: string; target?: string },
) {
  const doc = await requireDocument(db, principal, documentId);
  const source = requireText('source', input.source);
  const id = await db.transaction(async (tx) => {
    const last = await tx.get<{ position: number | null; unit: number | null }>(
      'SELECT MAX(position) AS position, MAX(unit_index) AS unit FROM document_segments WHERE document_id = ?',
      [documentId],
    );
    const [segmentId] = await repo.allocateSegmentIds(db, tx, 1);
    const now = nowSeconds();
    await tx.run(
      `INSERT INTO document_segments (id, document_id, position, unit_index, source, target, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        segmentId,
        documentId,
        Number(last?.position ?? -1) + 1,
        Number(last?.unit ?? -1) + 1,
        source,
        input.target ?? null,
        input.target ? 'draft' : 'new',
        now,
        now,
      ],
    );
    await tx.run('UPDATE documents SET num_segments = num_segments + 1, updated_at = ? WHERE id = ?', [
      now,
      documentId,
    ]);
    return segmentId;
  });
  return publicSegment((await repo.findSegment(db, id, principal.organizationId))!, doc);
}
