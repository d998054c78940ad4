// SQL for document segments and their history: read in pages, replaced by an import, filled by
// pre-translation, edited one at a time, changed and undone in batches by find and replace, filled from a
// confirmed repetition and put back, each change kept as a version. The one owner of document_segments,
// segment_versions, replace_batches, replace_changes, pretranslate_staging and propagated_segments.
import { nextTurn, PageSizer } from '../../pacing.ts';
import {
  deleteInSlices,
  deleteStaged,
  nowSeconds,
  type Queryable,
  type SqlParam,
  type Transaction,
} from '../../store/db.ts';
import { SEGMENT_STATUSES, type SegmentStatus } from './document-states.ts';
import { repetitionHash } from './repetition-hash.ts';

export interface SegmentRow {
  id: number;
  document_id: number;
  position: number;
  unit_index: number;
  lead: string;
  trail: string;
  source: string;
  target: string | null;
  status: SegmentStatus;
  match_score: number | null;
  /** 1 when match_score came from a context (101 %) match. */
  context_match: number;
  is_confirmed: number;
  is_reviewed: number;
  context: string | null;
  notes: string | null;
  /** JSON list of the placeables pre-translation repaired in the match's target, or null. */
  repairs: string | null;
  /** The machine translation engine whose translation the target is (pre-translation), or null. */
  mt_provider?: string | null;
  /** Changes of its target or status so far (its last version in segment_versions). */
  version: number;
  /** The hash of its repetition key (repetition-hash.ts); null until filled for rows older than it. */
  source_hash: string | null;
  /** 1 when a project manager locked it: nobody edits it until it is unlocked. */
  locked: number;
  created_at: number;
  updated_at: number;
}

/** A segment as the import task plans it, before it has an id. */
export type NewSegment = Omit<
  SegmentRow,
  | 'id'
  | 'document_id'
  | 'position'
  | 'match_score'
  | 'context_match'
  | 'repairs'
  | 'mt_provider'
  | 'version'
  | 'source_hash'
  | 'locked'
  | 'created_at'
  | 'updated_at'
>;

export async function segmentsPage(db: Queryable, documentId: number, afterPosition: number, limit: number) {
  return db.all<SegmentRow>(
    'SELECT * FROM document_segments WHERE document_id = ? AND position > ? ORDER BY position LIMIT ?',
    [documentId, afterPosition, limit],
  );
}

/** A page of a document's segments' statuses and sources, by position: what counting words by status reads. */
export async function statusSourcePage(
  db: Queryable,
  documentId: number,
  afterPosition: number,
  limit: number,
) {
  return db.all<{ position: number; status: SegmentStatus; source: string }>(
    'SELECT position, status, source FROM document_segments WHERE document_id = ? AND position > ? ORDER BY position LIMIT ?',
    [documentId, afterPosition, limit],
  );
}

/**
 * Every segment of the document in order, a page at a time (keyset pagination on position): pages of at
 * most `size` rows, smaller where reading them is slow, so that no page's statement holds the event loop.
 */
export async function* segmentPages(
  db: Queryable,
  documentId: number,
  size = 5000,
): AsyncGenerator<SegmentRow[]> {
  const pages = new PageSizer(Math.min(size, 500), Math.min(size, 50), size);
  for (let after = -1; ; ) {
    const started = performance.now();
    const limit = pages.size;
    const rows = await segmentsPage(db, documentId, after, limit);
    pages.took(performance.now() - started, rows.length);
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    after = rows[rows.length - 1].position;
  }
}

/** Segments inserted per statement batch. */
const INSERT_SLICE = 1000;

const SEGMENT_COLUMNS = [
  'id',
  'document_id',
  'position',
  'unit_index',
  'lead',
  'trail',
  'source',
  'target',
  'status',
  'is_confirmed',
  'is_reviewed',
  'context',
  'notes',
  'created_at',
  'updated_at',
  'version',
  'source_hash',
] as const;

const VERSION_COLUMNS = [
  'document_id',
  'segment_id',
  'version',
  'target',
  'status',
  'username',
  'origin',
  'created_at',
] as const;

/**
 * Deletes the document's segments with their versions and replace batches (the document goes next, in the
 * caller's transaction).
 */
export async function deleteSegmentsOfDocument(db: Queryable, documentId: number) {
  await deleteInSlices(db, {
    table: 'propagated_segments',
    key: 'segment_id',
    where: 'document_id = ?',
    params: [documentId],
  });
  await deleteInSlices(db, {
    table: 'segment_versions',
    key: 'id',
    where: 'document_id = ?',
    params: [documentId],
  });
  await db.run(
    'DELETE FROM replace_changes WHERE batch_id IN (SELECT id FROM replace_batches WHERE document_id = ?)',
    [documentId],
  );
  await db.run('DELETE FROM replace_batches WHERE document_id = ?', [documentId]);
  await deleteInSlices(db, {
    table: 'document_segments',
    key: 'id',
    where: 'document_id = ?',
    params: [documentId],
  });
}

/**
 * Replaces the document's segments with these, in order (the import task; re-runnable). A target that came
 * with the file (XLIFF, PO) is the segment's version 1, origin `import`, by who uploaded it: an edit of it can
 * be undone by restoring that version.
 */
export async function replaceSegments(
  tx: Transaction,
  documentId: number,
  segments: readonly NewSegment[],
  importedBy: string | null,
) {
  await deleteInSlices(tx, {
    table: 'propagated_segments',
    key: 'segment_id',
    where: 'document_id = ?',
    params: [documentId],
  });
  for (const table of ['segment_versions', 'document_segments']) {
    await deleteInSlices(tx, { table, key: 'id', where: 'document_id = ?', params: [documentId] });
  }
  const ids = await tx.allocateIds(segments.length);
  const now = nowSeconds();
  // A slice at a time: the rows of a large document are never all built in one go.
  for (let from = 0; from < segments.length; from += INSERT_SLICE) {
    const rows: SqlParam[][] = segments
      .slice(from, from + INSERT_SLICE)
      .map((s, j) => [
        ids[from + j],
        documentId,
        from + j,
        s.unit_index,
        s.lead,
        s.trail,
        s.source,
        s.target,
        s.status,
        s.is_confirmed,
        s.is_reviewed,
        s.context,
        s.notes,
        now,
        now,
        s.target === null ? 0 : 1,
        repetitionHash(s.source),
      ]);
    await tx.insertMany('document_segments', SEGMENT_COLUMNS, rows);
    const versions: SqlParam[][] = segments
      .slice(from, from + INSERT_SLICE)
      .flatMap((s, j) =>
        s.target === null
          ? []
          : [[documentId, ids[from + j], 1, s.target, s.status, importedBy, 'import', now]],
      );
    if (versions.length > 0) await tx.insertMany('segment_versions', VERSION_COLUMNS, versions);
  }
}

// ---- Pre-translation: matches staged while they are looked up, then applied at once.

/** A memory match for one segment, as pre-translation found it. */
export interface StagedMatch {
  segmentId: number;
  target: string;
  score: number;
  /** The match was stored in the segment's context (a 101 % match). */
  contextMatch: boolean;
  confirm: boolean;
  /** The placeables put in place of the match's, as JSON (null when none were). */
  repairs: string | null;
  /** Not a memory match but this engine's machine translation (never confirmed; its score is 0). */
  mtProvider?: string | null;
}

export async function clearPretranslation(db: Queryable, taskId: number) {
  await deleteStaged(db, 'pretranslate_staging', taskId);
}

export async function stageMatches(
  db: Queryable,
  taskId: number,
  firstSeq: number,
  matches: readonly StagedMatch[],
) {
  await db.insertMany(
    'pretranslate_staging',
    ['task_id', 'seq', 'segment_id', 'target', 'score', 'context_match', 'confirm', 'repairs', 'mt_provider'],
    matches.map((m, i) => [
      taskId,
      firstSeq + i,
      m.segmentId,
      m.target,
      m.score,
      m.contextMatch ? 1 : 0,
      m.confirm ? 1 : 0,
      m.repairs,
      m.mtProvider ?? null,
    ]),
  );
}

/**
 * Writes staged matches [from, to) into their segments, except segments confirmed meanwhile (a translator's
 * work is never overwritten); answers how many segments changed, and how many of them were confirmed.
 */
export async function applyStagedMatches(
  db: Queryable,
  taskId: number,
  range: { from: number; to: number },
  username: string | null = null,
): Promise<{ translated: number; confirmed: number }> {
  const now = nowSeconds();
  let translated = 0;
  let confirmed = 0;
  for (const confirm of [1, 0]) {
    const status = confirm ? SEGMENT_STATUSES.confirmed : SEGMENT_STATUSES.pretranslated;
    const staged =
      'pretranslate_staging s WHERE s.task_id = ? AND s.seq >= ? AND s.seq < ? AND s.confirm = ?';
    const params = [taskId, range.from, range.to, confirm];
    // The version each segment is about to become, recorded first: the same rows as the UPDATE below.
    await db.run(
      `INSERT INTO segment_versions (document_id, segment_id, version, target, status, username, origin, created_at)
       SELECT d.document_id, d.id, d.version + 1, s.target, ?, ?,
         CASE WHEN s.mt_provider IS NULL THEN 'pretranslate' ELSE 'mt' END,
         CASE WHEN d.updated_at >= ? THEN d.updated_at + 1 ELSE ? END
       FROM ${staged.replace(' WHERE ', ' JOIN document_segments d ON d.id = s.segment_id WHERE ')} AND d.is_confirmed = 0
         AND d.locked = 0`,
      [status, username, now, now, ...params],
    );
    const { changes } = await db.run(
      `UPDATE document_segments SET target = s.target,
         match_score = CASE WHEN s.mt_provider IS NULL THEN s.score ELSE NULL END,
         context_match = s.context_match, repairs = s.repairs, mt_provider = s.mt_provider, is_confirmed = s.confirm, status = ?, version = version + 1,
         updated_at = CASE WHEN updated_at >= ? THEN updated_at + 1 ELSE ? END
       FROM ${staged}
         AND document_segments.id = s.segment_id AND document_segments.is_confirmed = 0
         AND document_segments.locked = 0`,
      [status, now, now, ...params],
    );
    translated += changes;
    if (confirm) confirmed += changes;
  }
  return { translated, confirmed };
}

// ---- The editor's pages.

export interface SegmentFilter {
  statuses?: readonly SegmentStatus[];
  /** Text the source or the target contains, in any case. */
  text?: string;
  /** Only repetitions: segments whose source occurs more than once in this project's documents. */
  repeatedIn?: number;
  /** Only these segments (those with unresolved comments). */
  ids?: readonly number[];
}

function filterSql(documentId: number, filter: SegmentFilter): { where: string; params: SqlParam[] } {
  const clauses = ['document_id = ?'];
  const params: SqlParam[] = [documentId];
  if (filter.statuses?.length) {
    clauses.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
    params.push(...filter.statuses);
  }
  if (filter.text) {
    const pattern = `%${filter.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    clauses.push("(LOWER(source) LIKE ? ESCAPE '\\' OR LOWER(COALESCE(target, '')) LIKE ? ESCAPE '\\')");
    params.push(pattern, pattern);
  }
  if (filter.ids !== undefined) {
    if (filter.ids.length === 0) clauses.push('1 = 0');
    else {
      clauses.push(`id IN (${filter.ids.map(() => '?').join(', ')})`);
      params.push(...filter.ids);
    }
  }
  if (filter.repeatedIn !== undefined) {
    clauses.push(`source_hash IN (${REPEATED_HASHES})`);
    params.push(documentId, filter.repeatedIn, documentId);
  }
  return { where: clauses.join(' AND '), params };
}

/** A page of the document's segments matching the filter, in order, and how many match in all. */
export async function filteredSegments(
  db: Queryable,
  documentId: number,
  filter: SegmentFilter,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: SegmentRow[] }> {
  const { where, params } = filterSql(documentId, filter);
  const total = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM document_segments WHERE ${where}`,
    params,
  );
  const rows = await db.all<SegmentRow>(
    `SELECT * FROM document_segments WHERE ${where} ORDER BY position LIMIT ? OFFSET ?`,
    [...params, page.limit, page.offset],
  );
  return { total: total?.n ?? 0, rows };
}

/** How many of the document's segments there are of each status. */
export async function statusCounts(db: Queryable, documentId: number): Promise<Map<SegmentStatus, number>> {
  const rows = await db.all<{ status: SegmentStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM document_segments WHERE document_id = ? GROUP BY status',
    [documentId],
  );
  return new Map(rows.map((r) => [r.status, r.n]));
}

// ---- Find and replace: a batch of changes staged in replace_changes, applied at once, undone at once.

/** updated_at of a changed segment: now, or a second after its last change (it only ever grows). */
const NEXT_UPDATED_AT = 'CASE WHEN updated_at >= ? THEN updated_at + 1 ELSE ? END';

export interface ReplaceChange {
  segmentId: number;
  before: string;
  after: string;
  /** The segment's version when it was read: the replace applies only while it is still that. */
  version: number;
}

/** A replace's batch, staged (not applied) until markReplaceApplied. */
export async function insertReplaceBatch(db: Queryable, documentId: number, username: string) {
  const row = await db.get<{ id: number }>(
    'INSERT INTO replace_batches (document_id, username, created_at) VALUES (?, ?, ?) RETURNING id',
    [documentId, username, nowSeconds()],
  );
  return row!.id;
}

export async function stageReplaceChanges(db: Queryable, batchId: number, changes: readonly ReplaceChange[]) {
  await db.insertMany(
    'replace_changes',
    ['batch_id', 'segment_id', 'before_target', 'after_target', 'after_version'],
    changes.map((c) => [batchId, c.segmentId, c.before, c.after, c.version + 1]),
  );
}

/** A staged batch and its changes removed (the replace failed or was refused). */
export async function discardReplaceBatch(db: Queryable, batchId: number) {
  await deleteInSlices(db, {
    table: 'replace_changes',
    key: 'segment_id',
    // Never the changes of an applied batch: undo needs them.
    where:
      'batch_id = ? AND batch_id IN (SELECT id FROM replace_batches WHERE id = ? AND applied_at IS NULL)',
    params: [batchId, batchId],
  });
  await db.run('DELETE FROM replace_batches WHERE id = ? AND applied_at IS NULL', [batchId]);
}

/** The staged batches of the document left by a process that stopped while staging (an hour old or more). */
export async function staleReplaceBatches(db: Queryable, documentId: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    'SELECT id FROM replace_batches WHERE document_id = ? AND applied_at IS NULL AND created_at < ?',
    [documentId, nowSeconds() - 3600],
  );
  return rows.map((r) => r.id);
}

/**
 * The last segment id of the batch's next slice of at most `size` changes after segment `after`, or null
 * when none is left: applying and undoing go a slice at a time, in segment id order.
 */
export async function replaceSliceEnd(
  db: Queryable,
  batchId: number,
  after: number,
  size: number,
): Promise<number | null> {
  const row = await db.get<{ last: number | null }>(
    `SELECT MAX(segment_id) AS last FROM (SELECT segment_id FROM replace_changes
       WHERE batch_id = ? AND segment_id > ? ORDER BY segment_id LIMIT ?) slice`,
    [batchId, after, size],
  );
  return row?.last ?? null;
}

/** Segment ids (after, upTo] of a batch: one slice. */
export interface IdRange {
  after: number;
  upTo: number;
}

/**
 * Writes a slice of the batch's changes into their segments, each recorded as a version. A segment no
 * longer at the version it was read at (edited meanwhile) is left as it is and its change dropped from the
 * batch: answered in `raced` with its position (null when it was deleted).
 */
export async function applyReplaceSlice(
  db: Queryable,
  batchId: number,
  range: IdRange,
  username: string,
): Promise<{ applied: number; raced: { segment_id: number; position: number | null }[] }> {
  const now = nowSeconds();
  const written = await db.all<{ id: number }>(
    `UPDATE document_segments SET target = c.after_target, version = version + 1,
       updated_at = ${NEXT_UPDATED_AT}
     FROM replace_changes c
     WHERE c.batch_id = ? AND c.segment_id > ? AND c.segment_id <= ?
       AND document_segments.id = c.segment_id AND document_segments.version = c.after_version - 1
     RETURNING document_segments.id`,
    [now, now, batchId, range.after, range.upTo],
  );
  const done = new Set(written.map((r) => r.id));
  const staged = await db.all<{ segment_id: number; position: number | null }>(
    `SELECT c.segment_id, s.position FROM replace_changes c LEFT JOIN document_segments s ON s.id = c.segment_id
     WHERE c.batch_id = ? AND c.segment_id > ? AND c.segment_id <= ?`,
    [batchId, range.after, range.upTo],
  );
  const raced = staged.filter((r) => !done.has(r.segment_id));
  if (raced.length > 0) {
    await db.run(
      `DELETE FROM replace_changes WHERE batch_id = ? AND segment_id IN (${raced.map(() => '?').join(', ')})`,
      [batchId, ...raced.map((r) => r.segment_id)],
    );
  }
  await recordBatchVersions(db, batchId, range, 'replace', username);
  return { applied: written.length, raced };
}

export async function markReplaceApplied(db: Queryable, batchId: number) {
  await db.run('UPDATE replace_batches SET applied_at = ? WHERE id = ?', [nowSeconds(), batchId]);
}

async function recordBatchVersions(
  db: Queryable,
  batchId: number,
  range: IdRange,
  origin: string,
  username: string,
) {
  await db.run(
    `INSERT INTO segment_versions (document_id, segment_id, version, target, status, username, origin, created_at)
     SELECT s.document_id, s.id, s.version, s.target, s.status, ?, ?, s.updated_at
     FROM replace_changes c JOIN document_segments s ON s.id = c.segment_id
     WHERE c.batch_id = ? AND c.segment_id > ? AND c.segment_id <= ?`,
    [username, origin, batchId, range.after, range.upTo],
  );
}

/** An applied batch of the document (a staged one is not yet anyone's to undo). */
export async function findReplaceBatch(db: Queryable, batchId: number, documentId: number) {
  return db.get<{ id: number; undone_at: number | null }>(
    'SELECT id, undone_at FROM replace_batches WHERE id = ? AND document_id = ? AND applied_at IS NOT NULL',
    [batchId, documentId],
  );
}

/** How many of a slice of the batch's segments were changed since the replace (or deleted). */
export async function changedInSlice(
  db: Queryable,
  batchId: number,
  range: IdRange,
): Promise<{ total: number; changed: number }> {
  const row = await db.get<{ total: number; kept: number }>(
    `SELECT COUNT(*) AS total, COUNT(s.id) AS kept FROM replace_changes c
     LEFT JOIN document_segments s ON s.id = c.segment_id AND s.version = c.after_version
     WHERE c.batch_id = ? AND c.segment_id > ? AND c.segment_id <= ?`,
    [batchId, range.after, range.upTo],
  );
  const total = Number(row?.total ?? 0);
  return { total, changed: total - Number(row?.kept ?? 0) };
}

/** Puts a slice of the batch's segments back as they were before it, each as a new version; answers how many. */
export async function undoReplaceSlice(
  db: Queryable,
  batchId: number,
  range: IdRange,
  username: string,
): Promise<number> {
  const now = nowSeconds();
  const { changes } = await db.run(
    `UPDATE document_segments SET target = c.before_target, version = version + 1,
       updated_at = ${NEXT_UPDATED_AT}
     FROM replace_changes c
     WHERE c.batch_id = ? AND c.segment_id > ? AND c.segment_id <= ?
       AND document_segments.id = c.segment_id AND document_segments.version = c.after_version`,
    [now, now, batchId, range.after, range.upTo],
  );
  await recordBatchVersions(db, batchId, range, 'restore', username);
  return changes;
}

export async function markReplaceUndone(db: Queryable, batchId: number) {
  await db.run('UPDATE replace_batches SET undone_at = ? WHERE id = ?', [nowSeconds(), batchId]);
}

/**
 * `limit` of the batch's segments as they are now (for the events of a replace or its undo), in id order:
 * the batch's own index answers without sorting a large batch (whose event says "reload" anyway).
 */
export async function batchSegments(db: Queryable, batchId: number, limit: number) {
  return db.all<Pick<SegmentRow, 'id' | 'document_id' | 'target' | 'status' | 'updated_at'>>(
    `SELECT s.id, s.document_id, s.target, s.status, s.updated_at FROM replace_changes c
     JOIN document_segments s ON s.id = c.segment_id WHERE c.batch_id = ? ORDER BY c.segment_id LIMIT ?`,
    [batchId, limit],
  );
}

// ---- One segment: found, edited, appended, deleted (PUT, POST and DELETE /v2/segments).

export type DocumentSegmentRow = SegmentRow & {
  srclang: string;
  trglang: string;
  project_id: number;
  format: string;
};

/** A document segment of the organization, with its document's language pair, project and format. */
export async function findSegment(db: Queryable, id: number, organizationId: number) {
  return db.get<DocumentSegmentRow>(
    `SELECT s.*, d.srclang, d.trglang, d.project_id, d.format FROM document_segments s
     JOIN documents d ON d.id = s.document_id
     WHERE s.id = ? AND d.organization_id = ?`,
    [id, organizationId],
  );
}

/** The sources of the segments before and after a position of the document (null at either end). */
export async function neighbourSources(db: Queryable, documentId: number, position: number) {
  const source = async (sql: string) =>
    (await db.get<{ source: string }>(sql, [documentId, position]))?.source ?? null;
  return {
    prev: await source(
      'SELECT source FROM document_segments WHERE document_id = ? AND position < ? ORDER BY position DESC LIMIT 1',
    ),
    next: await source(
      'SELECT source FROM document_segments WHERE document_id = ? AND position > ? ORDER BY position LIMIT 1',
    ),
  };
}

/**
 * Changes a document segment. With `expectedUpdatedAt`, only while its updated_at is that (else answers
 * false: someone changed it meanwhile). updated_at only ever grows, by a second at least, so that every
 * change is told apart from the one before even within one second; the segment's version counts changes.
 */
export async function updateSegment(
  db: Queryable,
  id: number,
  s: {
    target: string | null;
    confirmed: boolean;
    reviewed: boolean;
    status: SegmentStatus;
    keepScore: boolean;
    /** A new version of the segment (its target or status changes). */
    newVersion: boolean;
  },
  expectedUpdatedAt?: number,
): Promise<boolean> {
  const now = nowSeconds();
  const { changes } = await db.run(
    `UPDATE document_segments SET target = ?, is_confirmed = ?, is_reviewed = ?, status = ?,
       match_score = CASE WHEN ? THEN match_score ELSE NULL END,
       context_match = CASE WHEN ? THEN context_match ELSE 0 END,
       repairs = CASE WHEN ? THEN repairs ELSE NULL END,
       mt_provider = CASE WHEN ? THEN mt_provider ELSE NULL END,
       version = version + ?,
       updated_at = CASE WHEN updated_at >= ? THEN updated_at + 1 ELSE ? END
     WHERE id = ?${expectedUpdatedAt === undefined ? '' : ' AND updated_at = ?'}`,
    [
      s.target,
      s.confirmed ? 1 : 0,
      s.reviewed ? 1 : 0,
      s.status,
      s.keepScore ? 1 : 0,
      s.keepScore ? 1 : 0,
      s.keepScore ? 1 : 0,
      s.keepScore ? 1 : 0,
      s.newVersion ? 1 : 0,
      now,
      now,
      id,
      ...(expectedUpdatedAt === undefined ? [] : [expectedUpdatedAt]),
    ],
  );
  return changes > 0;
}

/** Segments whose version rows are written per statement. */
const VERSION_SLICE = 500;

/** Keeps the current state of these segments (just changed) as their new version, said to come from `origin`. */
export async function recordVersions(
  db: Queryable,
  ids: readonly number[],
  change: { origin: string; username: string | null; qaErrors?: readonly string[] },
) {
  const qaErrors = change.qaErrors?.length ? JSON.stringify(change.qaErrors) : null;
  for (let from = 0; from < ids.length; from += VERSION_SLICE) {
    const slice = ids.slice(from, from + VERSION_SLICE);
    await db.run(
      `INSERT INTO segment_versions (document_id, segment_id, version, target, status, username, origin, created_at, qa_errors)
       SELECT document_id, id, version, target, status, ?, ?, updated_at, ? FROM document_segments
       WHERE id IN (${slice.map(() => '?').join(', ')})`,
      [change.username, change.origin, qaErrors, ...slice],
    );
  }
}

export interface VersionRow {
  version: number;
  target: string | null;
  status: string;
  username: string | null;
  origin: string;
  created_at: number;
  /** JSON list of the QA errors' messages the version confirmed its target with, or null. */
  qa_errors: string | null;
}

/** The versions of a segment, newest first. */
export async function segmentVersions(db: Queryable, segmentId: number) {
  return db.all<VersionRow>(
    `SELECT version, target, status, username, origin, created_at, qa_errors FROM segment_versions
     WHERE segment_id = ? ORDER BY version DESC, id DESC`,
    [segmentId],
  );
}

export async function findVersion(db: Queryable, segmentId: number, version: number) {
  return db.get<VersionRow>(
    'SELECT version, target, status, username, origin, created_at, qa_errors FROM segment_versions WHERE segment_id = ? AND version = ? ORDER BY id DESC',
    [segmentId, version],
  );
}

/** Deletes a segment with its versions (its document's count of segments is the caller's to lower). */
export async function deleteSegment(db: Queryable, id: number) {
  await db.run('DELETE FROM document_segments WHERE id = ?', [id]);
  await db.run('DELETE FROM segment_versions WHERE segment_id = ?', [id]);
  await db.run('DELETE FROM propagated_segments WHERE segment_id = ? OR origin_segment_id = ?', [id, id]);
}

/**
 * Appends a segment as a unit of its own after the document's last one (and after every unit of its
 * original, so that no merge mistakes it for one); answers its id. Its document's count of segments is the
 * caller's to raise.
 */
export async function appendSegment(
  tx: Transaction,
  documentId: number,
  s: { source: string; target: string | null; status: SegmentStatus },
): Promise<number> {
  const last = await tx.get<{ position: number | null; unit: number | null; units: number }>(
    `SELECT MAX(s.position) AS position, MAX(s.unit_index) AS unit, d.num_units AS units
     FROM documents d LEFT JOIN document_segments s ON s.document_id = d.id WHERE d.id = ? GROUP BY d.num_units`,
    [documentId],
  );
  const [id] = await tx.allocateIds(1);
  const now = nowSeconds();
  await tx.run(
    `INSERT INTO document_segments (id, document_id, position, unit_index, source, target, status, created_at, updated_at,
       source_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      documentId,
      (last?.position ?? -1) + 1,
      Math.max((last?.unit ?? -1) + 1, last?.units ?? 0),
      s.source,
      s.target,
      s.status,
      now,
      now,
      repetitionHash(s.source),
    ],
  );
  return id;
}

// ---- Repetitions: segments of one project whose sources share a repetition key (source_hash).

/** Documents of a project: the scope in which segments are repetitions of each other. */
const PROJECT_SEGMENTS =
  'document_segments s JOIN documents d ON d.id = s.document_id WHERE d.project_id = ?';

/** Up to `limit` of the project's segments whose hash is not filled yet (rows older than it). */
export async function segmentsWithoutHash(db: Queryable, projectId: number, limit: number) {
  return db.all<{ id: number; source: string }>(
    `SELECT s.id, s.source FROM ${PROJECT_SEGMENTS} AND s.source_hash IS NULL LIMIT ?`,
    [projectId, limit],
  );
}

/** Sets the hashes of these segments, in one statement; answers how many were set. */
export async function setSourceHashes(
  db: Queryable,
  rows: readonly { id: number; hash: string }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const { changes } = await db.run(
    `UPDATE document_segments SET source_hash = v.column2
     FROM (VALUES ${rows.map(() => '(CAST(? AS BIGINT), ?)').join(', ')}) AS v
     WHERE document_segments.id = v.column1`,
    rows.flatMap((r) => [r.id, r.hash]),
  );
  return changes;
}

/**
 * For each of these hashes, per document of the project holding it: how many segments have it and the
 * position of the first (the caller finds the first occurrence: the lowest document id, then position).
 */
export async function repetitionGroups(db: Queryable, projectId: number, hashes: readonly string[]) {
  if (hashes.length === 0) return [];
  return db.all<{ source_hash: string; document_id: number; first: number; n: number }>(
    `SELECT s.source_hash, s.document_id, MIN(s.position) AS first, COUNT(*) AS n FROM ${PROJECT_SEGMENTS}
       AND s.source_hash IN (${hashes.map(() => '?').join(', ')})
     GROUP BY s.source_hash, s.document_id`,
    [projectId, ...hashes],
  );
}

/**
 * SQL of the source hashes of a document that occur more than once in its project (parameters: the document,
 * the project, the document again): grouped over the document's index, the other documents looked at only for
 * a hash the document holds once. Computed once per statement, however many rows it filters.
 */
const REPEATED_HASHES = `SELECT g.source_hash FROM (SELECT source_hash, COUNT(*) AS n FROM document_segments
    WHERE document_id = ? GROUP BY source_hash) g
  WHERE g.n > 1 OR EXISTS (SELECT 1 FROM document_segments r JOIN documents rd ON rd.id = r.document_id
    WHERE rd.project_id = ? AND r.document_id <> ? AND r.source_hash = g.source_hash)`;

/** How many of the document's segments are repetitions (their source occurs more than once in the project). */
export async function repeatedCount(db: Queryable, documentId: number, projectId: number): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM document_segments WHERE document_id = ? AND source_hash IN (${REPEATED_HASHES})`,
    [documentId, documentId, projectId, documentId],
  );
  return Number(row?.n ?? 0);
}

/** A segment changed by a propagation or its undo, for the live events. */
export type PropagatedRow = Pick<SegmentRow, 'id' | 'document_id' | 'target' | 'status' | 'updated_at'>;

/** Segments filled (or put back) per statement, with a turn of the event loop between. */
const PROPAGATE_SLICE = 500;

/**
 * Fills the project's unconfirmed segments with the origin's source hash with its confirmed target, each
 * confirmed and recorded as a version of origin `propagated`; what each held before is kept under (origin, its
 * version) for an undo. 500 segments a statement with a turn of the event loop between, inside the caller's
 * transaction: 10,000 repetitions never hold the server. Answers the segments changed.
 */
export async function propagateTarget(
  tx: Queryable,
  origin: { id: number; version: number; projectId: number; sourceHash: string; target: string },
  username: string | null,
): Promise<PropagatedRow[]> {
  const candidates = await tx.all<{ id: number }>(
    // A locked repetition is left as it is (documents/assignments.ts).
    `SELECT s.id FROM ${PROJECT_SEGMENTS} AND s.source_hash = ? AND s.is_confirmed = 0 AND s.locked = 0 AND s.id <> ?
     ORDER BY s.id`,
    [origin.projectId, origin.sourceHash, origin.id],
  );
  const changed: PropagatedRow[] = [];
  for (let from = 0; from < candidates.length; from += PROPAGATE_SLICE) {
    if (from > 0) await nextTurn();
    const ids = candidates.slice(from, from + PROPAGATE_SLICE).map((c) => Number(c.id));
    const inSlice = `IN (${ids.map(() => '?').join(', ')})`;
    const now = nowSeconds();
    await tx.run(
      `INSERT INTO propagated_segments (origin_segment_id, origin_version, segment_id, document_id, before_target,
         before_status, after_version, created_at)
       SELECT ?, ?, id, document_id, target, status, version + 1, ? FROM document_segments
       WHERE id ${inSlice} AND is_confirmed = 0`,
      [origin.id, origin.version, now, ...ids],
    );
    const rows = await tx.all<PropagatedRow>(
      `UPDATE document_segments SET target = ?, is_confirmed = 1, is_reviewed = 0, status = ?, match_score = NULL,
         context_match = 0, repairs = NULL, mt_provider = NULL, version = version + 1, updated_at = ${NEXT_UPDATED_AT}
       WHERE id ${inSlice} AND is_confirmed = 0
       RETURNING id, document_id, target, status, updated_at`,
      [origin.target, SEGMENT_STATUSES.confirmed, now, now, ...ids],
    );
    await recordVersions(
      tx,
      rows.map((r) => Number(r.id)),
      { origin: 'propagated', username },
    );
    changed.push(...rows);
  }
  return changed;
}

/**
 * Puts back what the origin's confirmations propagated, in the segments not changed since (a translator's
 * later change is never undone), each as a version of origin `restore`; then forgets those propagations. In
 * slices, as propagateTarget. Answers the segments changed.
 */
export async function undoPropagations(
  tx: Queryable,
  originId: number,
  username: string | null,
): Promise<PropagatedRow[]> {
  const filled = await tx.all<{ segment_id: number }>(
    'SELECT segment_id FROM propagated_segments WHERE origin_segment_id = ? ORDER BY segment_id',
    [originId],
  );
  const ids = [...new Set(filled.map((f) => Number(f.segment_id)))];
  const changed: PropagatedRow[] = [];
  for (let from = 0; from < ids.length; from += PROPAGATE_SLICE) {
    if (from > 0) await nextTurn();
    const slice = ids.slice(from, from + PROPAGATE_SLICE);
    const now = nowSeconds();
    const rows = await tx.all<PropagatedRow>(
      `UPDATE document_segments SET target = p.before_target, status = p.before_status, is_confirmed = 0,
         is_reviewed = 0, version = version + 1, updated_at = ${NEXT_UPDATED_AT}
       FROM propagated_segments p
       WHERE p.origin_segment_id = ? AND p.segment_id IN (${slice.map(() => '?').join(', ')})
         AND document_segments.id = p.segment_id AND document_segments.version = p.after_version
       RETURNING document_segments.id, document_segments.document_id, document_segments.target,
         document_segments.status, document_segments.updated_at`,
      [now, now, originId, ...slice],
    );
    await recordVersions(
      tx,
      rows.map((r) => Number(r.id)),
      { origin: 'restore', username },
    );
    changed.push(...rows);
  }
  await tx.run('DELETE FROM propagated_segments WHERE origin_segment_id = ?', [originId]);
  return changed;
}

// ---- Joining and splitting (POST /v2/segments/join and /split): segments of one unit become one, or two.

/** The document's segment at a position, or undefined. */
export async function segmentAt(db: Queryable, documentId: number, position: number) {
  return db.get<SegmentRow>('SELECT * FROM document_segments WHERE document_id = ? AND position = ?', [
    documentId,
    position,
  ]);
}

/**
 * Moves every segment of the document after `after` by `delta` positions. Positions are unique per document
 * and checked row by row, so they go through negative values first (never taken: positions start at 0).
 */
export async function shiftPositions(db: Queryable, documentId: number, after: number, delta: number) {
  await db.run(
    'UPDATE document_segments SET position = -position - 2 WHERE document_id = ? AND position > ?',
    [documentId, after],
  );
  await db.run(
    'UPDATE document_segments SET position = -position - 2 + ? WHERE document_id = ? AND position < 0',
    [delta, documentId],
  );
}

/** A segment's place in its unit and its texts, as a join or a split leaves them. */
export interface ReshapedSegment {
  lead: string;
  trail: string;
  source: string;
  target: string | null;
  status: SegmentStatus;
}

/**
 * Rewrites a segment as a join or split leaves it: its texts, unconfirmed, without the score of the match it
 * had (its source is another now), one version more.
 */
export async function reshapeSegment(db: Queryable, id: number, s: ReshapedSegment) {
  const now = nowSeconds();
  await db.run(
    `UPDATE document_segments SET lead = ?, trail = ?, source = ?, target = ?, status = ?, is_confirmed = 0,
       is_reviewed = 0, match_score = NULL, context_match = 0, repairs = NULL, mt_provider = NULL,
       version = version + 1,
       updated_at = ${NEXT_UPDATED_AT}
     WHERE id = ?`,
    [s.lead, s.trail, s.source, s.target, s.status, now, now, id],
  );
}

/** Inserts a segment of a unit at a free position (a split's second part); answers its id. */
export async function insertSegmentAt(
  tx: Transaction,
  documentId: number,
  position: number,
  s: ReshapedSegment & { unit_index: number; context: string | null; notes: string | null },
): Promise<number> {
  const [id] = await tx.allocateIds(1);
  const now = nowSeconds();
  await tx.run(
    `INSERT INTO document_segments (id, document_id, position, unit_index, lead, trail, source, target, status,
       context, notes, version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    [
      id,
      documentId,
      position,
      s.unit_index,
      s.lead,
      s.trail,
      s.source,
      s.target,
      s.status,
      s.context,
      s.notes,
      now,
      now,
    ],
  );
  return id;
}

// ---- Review: what review mode, the quality report and the progress per user read of segments and versions.

/** Ids per statement when segments are read by id. */
const IDS_SLICE = 500;

/** Segments of a document by id (those that still exist), with their number and texts. */
export async function segmentsByIds(db: Queryable, documentId: number, ids: readonly number[]) {
  const out: Pick<SegmentRow, 'id' | 'position' | 'source' | 'target' | 'status'>[] = [];
  for (let from = 0; from < ids.length; from += IDS_SLICE) {
    const slice = ids.slice(from, from + IDS_SLICE);
    out.push(
      ...(await db.all<Pick<SegmentRow, 'id' | 'position' | 'source' | 'target' | 'status'>>(
        `SELECT id, position, source, target, status FROM document_segments
         WHERE document_id = ? AND id IN (${slice.map(() => '?').join(', ')})`,
        [documentId, ...slice],
      )),
    );
  }
  return out;
}

/**
 * For each segment of the document that has one, its newest version with status confirmed: the version a
 * translator confirmed last (by hand, by propagation, or with the file), which review mode shows the current
 * target against (docs/EDITOR.md, Review mode).
 */
export function confirmedBaselines(db: Queryable, documentId: number) {
  // A confirmed version right after a reviewed one with the same target only withdrew the review: it is the
  // reviewer's, not a translator's confirmation.
  const confirmation = (alias: string) =>
    `${alias}.status = ? AND NOT EXISTS (SELECT 1 FROM segment_versions p WHERE p.segment_id = ${alias}.segment_id
       AND p.version = ${alias}.version - 1 AND p.status = ? AND p.target = ${alias}.target)`;
  const s = SEGMENT_STATUSES;
  return db.all<{
    segment_id: number;
    version: number;
    target: string | null;
    username: string | null;
    created_at: number;
  }>(
    `SELECT v.segment_id, v.version, v.target, v.username, v.created_at FROM segment_versions v
     WHERE v.document_id = ? AND ${confirmation('v')}
       AND v.id = (SELECT MAX(w.id) FROM segment_versions w WHERE w.segment_id = v.segment_id AND ${confirmation('w')})
     ORDER BY v.segment_id`,
    [documentId, s.confirmed, s.reviewed, s.confirmed, s.reviewed],
  );
}

/** A page of a document's confirmed and reviewed segments by position, with their sources. */
export function confirmedSegmentsPage(
  db: Queryable,
  documentId: number,
  afterPosition: number,
  limit: number,
) {
  return db.all<{ id: number; position: number; source: string; status: SegmentStatus }>(
    `SELECT id, position, source, status FROM document_segments
     WHERE document_id = ? AND status IN (?, ?) AND position > ? ORDER BY position LIMIT ?`,
    [documentId, SEGMENT_STATUSES.confirmed, SEGMENT_STATUSES.reviewed, afterPosition, limit],
  );
}

/** The statuses and users of these segments' versions, oldest first per segment. */
export async function versionTrails(db: Queryable, segmentIds: readonly number[]) {
  type Trail = { segment_id: number; status: SegmentStatus; target: string | null; username: string | null };
  const out: Trail[] = [];
  for (let from = 0; from < segmentIds.length; from += IDS_SLICE) {
    const slice = segmentIds.slice(from, from + IDS_SLICE);
    out.push(
      ...(await db.all<Trail>(
        `SELECT segment_id, status, target, username FROM segment_versions
         WHERE segment_id IN (${slice.map(() => '?').join(', ')}) ORDER BY segment_id, id`,
        slice,
      )),
    );
  }
  return out;
}

/**
 * Locks or unlocks segments of a document: the listed ones, or (none listed) those whose match score is at least
 * minScore (101: the context matches), or every one. Answers the ids changed.
 */
export async function setLocked(
  db: Queryable,
  documentId: number,
  select: { ids?: readonly number[]; minScore?: number },
  locked: boolean,
): Promise<number[]> {
  const where = ['document_id = ?', 'locked = ?'];
  const params: SqlParam[] = [documentId, locked ? 0 : 1];
  if (select.ids !== undefined) {
    if (select.ids.length === 0) return [];
    where.push(`id IN (${select.ids.map(() => '?').join(', ')})`);
    params.push(...select.ids);
  }
  if (select.minScore !== undefined) {
    // A context (101 %) match is stored as 100 with context_match set.
    where.push('(match_score + context_match) >= ?');
    params.push(select.minScore);
  }
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM document_segments WHERE ${where.join(' AND ')} ORDER BY position`,
    params,
  );
  const ids = rows.map((r) => Number(r.id));
  for (let i = 0; i < ids.length; i += 500) {
    const slice = ids.slice(i, i + 500);
    await db.run(
      `UPDATE document_segments SET locked = ?, updated_at = ? WHERE id IN (${slice.map(() => '?').join(', ')})`,
      [locked ? 1 : 0, nowSeconds(), ...slice],
    );
  }
  return ids;
}

/** Lilt's review unlock: reviewed segments of the organization become confirmed again. Answers the ids changed. */
export async function unreview(
  db: Queryable,
  ids: readonly number[],
  organizationId: number,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.all<{ id: number }>(
    `SELECT s.id FROM document_segments s JOIN documents d ON d.id = s.document_id
     WHERE s.id IN (${ids.map(() => '?').join(', ')}) AND d.organization_id = ? AND s.is_reviewed = 1`,
    [...ids, organizationId],
  );
  const changed = rows.map((r) => Number(r.id));
  if (changed.length === 0) return [];
  await db.run(
    `UPDATE document_segments SET is_reviewed = 0, status = ?, updated_at = ?
     WHERE id IN (${changed.map(() => '?').join(', ')})`,
    [SEGMENT_STATUSES.confirmed, nowSeconds(), ...changed],
  );
  return changed;
}
