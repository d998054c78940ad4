// Find and replace in a document (POST /v2/documents/replace) and its undo, bounded in time and memory:
// - every text is replaced under the longest target a segment may hold, and the result of one that would
//   pass it is never built: the replace is refused with a 400 naming those segments;
// - the answer lists the first MAX_LISTED changes and skipped segments, with their counts;
// - the document is read, replaced and staged a page at a time (the event loop gets turns between, and
//   regular expressions run on the replace pool's threads, replace-pool.ts);
// - the staged changes are applied in one transaction, a slice of statements at a time with a turn of the
//   event loop between, so that readers see the document before or after the whole batch, never half of it;
// - a change that would break its segment's tags (as PUT /v2/segments checks them) is skipped and reported,
//   as is a segment edited by someone else between the read and the write: their edit wins.
import { errors } from '../../errors.ts';
import { BULK } from '../../events/event-bus.ts';
import type { Principal } from '../../http/principal.ts';
import { Breather, nextTurn } from '../../pacing.ts';
import type { Queryable } from '../../store/db.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import { targetTagProblem } from '../../text/tag-check.ts';
import { requireStageOf } from './assignments.ts';
import { isImporting, isPretranslating } from './document-states.ts';
import { compilePattern, compileReplacer, type ReplaceSpec } from './find-replace.ts';
import type { ReplaceJob, ReplacePool } from './replace-pool.ts';
import * as repo from './repository.ts';
import * as segments from './segment-repository.ts';
import { type DocumentDeps, requireDocument, retryAfter } from './service.ts';

export interface ReplaceDeps extends DocumentDeps {
  replaces: ReplacePool;
}

/** Longest target a replace may write (as PUT /v2/segments allows). */
export const MAX_TARGET_LENGTH = 20_000;
/** Changes, and skipped segments, listed in an answer; the counts say how many there are in all. */
export const MAX_LISTED = 200;
/**
 * Characters of before and after texts an answer lists at most: 200 changes of 20,000-character targets
 * would make an answer of 16 MB.
 */
const MAX_LISTED_CHARS = 1_000_000;
/** Segments named in the refusal of a replace that makes targets too long. */
const NAMED_TOO_LONG = 10;
/** Segments read, replaced and staged at a time. */
const PAGE = 1000;
/** Staged changes applied (or undone) per statement of the final transaction. */
const APPLY_SLICE = 500;

export interface ReplaceInput {
  id: number;
  find: string;
  replace: string;
  regex?: boolean;
  case_sensitive?: boolean;
  field?: 'source' | 'target';
  statuses?: string[];
  dry_run?: boolean;
}

interface Listed {
  segment_id: number;
  position: number;
  before: string;
  after: string;
}

interface Skipped {
  segment_id: number;
  position: number | null;
  reason: string;
}

/** Refuses a change to the document's segments while an import or a pre-translation may overwrite them. */
async function requireEditable(db: Queryable, doc: repo.DocumentRow) {
  if (isImporting(doc) || isPretranslating(doc)) {
    const what = isImporting(doc) ? 'imported' : 'pre-translated';
    throw errors.documentBusy(
      `Document ${doc.id} is being ${what}; retry when it is done`,
      await retryAfter(db, doc),
    );
  }
}

/** Tells the document's subscribers which segments changed (more than BULK: they reload). */
async function publishBatch(deps: ReplaceDeps, principal: Principal, doc: repo.DocumentRow, batchId: number) {
  const rows = await segments.batchSegments(deps.db, batchId, BULK + 1);
  await deps.events.segmentsChanged(
    { organization_id: principal.organizationId, project_id: doc.project_id, document_id: doc.id },
    rows.map((row) => ({
      document_id: doc.id,
      segment_id: row.id,
      target: row.target,
      status: row.status,
      updated_at: row.updated_at,
      user: principal.username,
    })),
  );
}

/** Plain text is replaced on this thread, with turns of the event loop between texts when it held it long. */
async function replaceHere(replace: (t: string) => string | null, texts: string[], breather: Breather) {
  const afters: (string | null)[] = [];
  for (const text of texts) {
    await breather.breathe();
    afters.push(replace(text));
  }
  return afters;
}

/**
 * POST /v2/documents/replace: every match in the text runs of the chosen field (tags are never touched), in
 * segments of the chosen statuses. A dry run lists the changes; otherwise they are applied as one batch,
 * which POST /v2/documents/replace/undo can take back. Sources are the original file's text: searching them
 * is allowed as a dry run (a preview of where the text occurs), replacing in them is refused. Statuses are
 * kept: a confirmed segment stays confirmed (its pair is written to the memory when it is next confirmed).
 */
export async function replaceInDocument(deps: ReplaceDeps, principal: Principal, input: ReplaceInput) {
  const { db } = deps;
  const doc = await requireDocument(db, principal, input.id);
  const field = input.field ?? 'target';
  const dryRun = input.dry_run ?? false;
  if (!dryRun) await requireStageOf(db, principal, doc);
  if (field === 'source' && !dryRun) {
    throw errors.badParameter(
      'Parameter "field": sources come from the original file and cannot be replaced; use dry_run to search them',
    );
  }
  const spec: ReplaceSpec = {
    find: input.find,
    replace: input.replace,
    regex: input.regex ?? false,
    caseSensitive: input.case_sensitive ?? false,
  };
  // A bad expression is refused before the document is read.
  compilePattern(spec);
  if (!dryRun) await requireEditable(db, doc);
  return deps.replaces.withSlot(principal.userId, spec.regex, async (job) => {
    const work = db.background();
    let batchId: number | null = null;
    try {
      if (!dryRun) {
        // What a process that stopped while staging left behind.
        for (const stale of await segments.staleReplaceBatches(work, doc.id)) {
          await segments.discardReplaceBatch(work, stale);
        }
      }
      const options = { field, dryRun, statuses: input.statuses };
      const found = await findChanges(work, job, doc, spec, options, async (changes) => {
        if (changes.length === 0) return;
        // Staged as they are found: the changes of a large document are never all held at once.
        batchId ??= await segments.insertReplaceBatch(work, doc.id, principal.username);
        await segments.stageReplaceChanges(work, batchId, changes);
      });
      const answer = {
        batch_id: null as number | null,
        changed: found.changed,
        changes: found.listed,
        truncated: found.changed > found.listed.length,
        skipped: found.skipped,
        skipped_count: found.skippedCount,
      };
      if (dryRun || batchId === null) return answer;
      const staged: number = batchId;
      const applied = await applyStaged(work, doc, staged, principal.username);
      const raced = new Set(applied.raced.map((r) => r.segment_id));
      await publishBatch(deps, principal, doc, staged);
      for (const r of applied.raced) {
        if (answer.skipped.length < MAX_LISTED) {
          answer.skipped.push({
            ...r,
            reason: 'the segment was changed while the replace ran; the change kept',
          });
        }
      }
      answer.batch_id = staged;
      answer.changed = applied.applied;
      answer.changes = answer.changes.filter((c) => !raced.has(c.segment_id));
      answer.truncated = answer.changed > answer.changes.length;
      answer.skipped_count += applied.raced.length;
      return answer;
    } catch (err) {
      if (batchId !== null) await segments.discardReplaceBatch(work, batchId).catch(() => {});
      throw err;
    }
  });
}

/**
 * Reads the document a page at a time and replaces in it: answers the count of changes, the first
 * MAX_LISTED of them and of the skipped segments; hands each page's changes to `stage`. Refuses the whole
 * replace (400) as soon as a page holds targets that would be too long.
 */
async function findChanges(
  db: Queryable,
  job: ReplaceJob,
  doc: repo.DocumentRow,
  spec: ReplaceSpec,
  options: { field: 'source' | 'target'; dryRun: boolean; statuses?: string[] },
  stage: (changes: segments.ReplaceChange[]) => Promise<void>,
) {
  const statuses = options.statuses?.length ? new Set(options.statuses) : null;
  const replace = spec.regex ? null : compileReplacer(spec, MAX_TARGET_LENGTH);
  const breather = new Breather();
  const listed: Listed[] = [];
  const skipped: Skipped[] = [];
  let changed = 0;
  let skippedCount = 0;
  let listedChars = 0;
  for await (const rows of segments.segmentPages(db, doc.id, PAGE)) {
    const page = rows.flatMap((row) => {
      if (statuses && !statuses.has(row.status)) return [];
      // A locked segment is changed by nobody (assignments.ts), a replace included.
      if (row.locked === 1 && !options.dryRun) return [];
      const before = options.field === 'source' ? row.source : row.target;
      return before ? [{ row, before }] : [];
    });
    if (page.length === 0) continue;
    const texts = page.map((p) => p.before);
    const afters = replace
      ? await replaceHere(replace, texts, breather)
      : await job.replaceInThread(spec, texts, MAX_TARGET_LENGTH);
    const tooLong = page.filter((_, i) => afters[i] === null).map((p) => p.row.id);
    if (tooLong.length > 0) {
      const named = tooLong.slice(0, NAMED_TOO_LONG).join(', ');
      throw errors.badParameter(
        `Parameter "replace": the ${options.field} of ${tooLong.length === 1 ? 'segment' : 'segments'} ${named}${tooLong.length > NAMED_TOO_LONG ? ' and more' : ''} would be longer than ${MAX_TARGET_LENGTH.toLocaleString('en-US')} characters; nothing was replaced`,
      );
    }
    const changes: segments.ReplaceChange[] = [];
    for (const [i, { row, before }] of page.entries()) {
      // A target replaced into is kept without edge whitespace, as every target is (the skeleton holds it).
      const after = afters[i] === before ? before : withoutEdges(afters[i]!);
      if (after === before) continue;
      await breather.breathe();
      const problem = targetTagProblem(row.source, after);
      if (problem) {
        skippedCount++;
        if (skipped.length < MAX_LISTED)
          skipped.push({ segment_id: row.id, position: row.position, reason: problem });
        continue;
      }
      changed++;
      // The first changes in document order, as many as fit: the list stops at the first that does not.
      listedChars += before.length + after.length;
      if (listed.length === changed - 1 && listed.length < MAX_LISTED && listedChars <= MAX_LISTED_CHARS) {
        listed.push({ segment_id: row.id, position: row.position, before, after });
      }
      if (!options.dryRun) changes.push({ segmentId: row.id, before, after, version: row.version });
    }
    await stage(changes);
  }
  return { changed, listed, skipped, skippedCount };
}

/** Applies a staged batch in one transaction, a slice at a time; answers what was written and what raced. */
async function applyStaged(
  db: ReturnType<ReplaceDeps['db']['background']>,
  doc: repo.DocumentRow,
  batchId: number,
  username: string,
) {
  return db.transaction(async (tx) => {
    // An import or a pre-translation may have started while the changes were staged.
    const current = await repo.documentById(tx, doc.id);
    if (current) await requireEditable(tx, current);
    let applied = 0;
    const raced: { segment_id: number; position: number | null }[] = [];
    for (let after = 0; ; ) {
      const upTo = await segments.replaceSliceEnd(tx, batchId, after, APPLY_SLICE);
      if (upTo === null) break;
      const slice = await segments.applyReplaceSlice(tx, batchId, { after, upTo }, username);
      applied += slice.applied;
      raced.push(...slice.raced);
      after = upTo;
      await nextTurn();
    }
    await segments.markReplaceApplied(tx, batchId);
    return { applied, raced };
  });
}

/** POST /v2/documents/replace/undo: the batch's segments back as they were, unless changed since (409). */
export async function undoReplace(
  deps: ReplaceDeps,
  principal: Principal,
  input: { id: number; batch_id: number },
) {
  const { db } = deps;
  const doc = await requireDocument(db, principal, input.id);
  await requireStageOf(db, principal, doc);
  await requireEditable(db, doc);
  const restored = await db.background().transaction(async (tx) => {
    const batch = await segments.findReplaceBatch(tx, input.batch_id, doc.id);
    if (!batch) throw errors.notFound('Replace batch', input.batch_id);
    if (batch.undone_at !== null) throw errors.batchConflict(`Replace batch ${batch.id} was already undone`);
    // All or nothing: first whether any segment changed since, then every segment back, a slice at a time.
    const slices: segments.IdRange[] = [];
    let total = 0;
    let changed = 0;
    for (let after = 0; ; ) {
      const upTo = await segments.replaceSliceEnd(tx, batch.id, after, APPLY_SLICE);
      if (upTo === null) break;
      const slice = await segments.changedInSlice(tx, batch.id, { after, upTo });
      total += slice.total;
      changed += slice.changed;
      slices.push({ after, upTo });
      after = upTo;
      await nextTurn();
    }
    if (changed > 0) {
      throw errors.batchConflict(
        `${changed} ${changed === 1 ? 'segment' : 'segments'} of replace batch ${batch.id} changed since; undo them one by one`,
      );
    }
    let restored = 0;
    for (const range of slices) {
      restored += await segments.undoReplaceSlice(tx, batch.id, range, principal.username);
      await nextTurn();
    }
    // A segment changed between the check and the update (another instance): all or nothing.
    if (restored !== total)
      throw errors.batchConflict(`Segments of replace batch ${batch.id} changed; retry`);
    await segments.markReplaceUndone(tx, batch.id);
    return restored;
  });
  await publishBatch(deps, principal, doc, input.batch_id);
  return { batch_id: input.batch_id, restored };
}
