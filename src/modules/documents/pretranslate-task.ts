// The pretranslate task: each unconfirmed segment gets its best memory match scoring MIN_SCORE or more
// (matching/score-bands.ts) — a context (101 %) match first — its placeables repaired to this segment's
// (auto-propagation). Auto-accept confirms exact matches only, or with the context scope context matches
// only. All or nothing: matches are staged while they are looked up and applied in one transaction together
// with the task's success, so a task killed part-way changes no segment, and its re-run counts what the
// final state holds.
//
// Modes (pretranslate-modes.ts): with `tm+mt`, a segment the memory has no match for gets the engine's
// machine translation; with `mt`, every open segment does and the memory is not asked. Machine translation is
// never confirmed, has no score, and is stored with its engine's name (the segment's mt_provider, its
// version's origin `mt`). A page's open segments go to the engine in one batch.
import { type Static, Type } from 'typebox';
import { isStoreUnavailable, TaskFailure } from '../../errors.ts';
import { nextTurn } from '../../pacing.ts';
import { nowSeconds } from '../../store/db.ts';
import { LeaseLostError, type TaskRow } from '../../tasks/queue.ts';
import { type TaskContext, taskType } from '../../tasks/task-type.ts';
import { raiseInitialCase } from '../../text/initial-case.ts';
import { repairTarget } from '../../text/placeables.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { type BestMatch, bestMatches, type SegmentInContext, searchMemo } from '../memories/service.ts';
import type { MtEngine } from '../mt/engine.ts';
import { PRETRANSLATION } from './document-states.ts';
import {
  type ModesReport,
  mtUnavailable,
  PRETRANSLATE_MODES,
  PretranslateModeName,
  planModes,
  readMode,
} from './pretranslate-modes.ts';
import type { ProjectsOfDocuments } from './projects-of-documents.ts';
import * as repo from './repository.ts';
import { AUTO_ACCEPT_SCOPES, AutoAcceptScope } from './schemas.ts';
import { contextKey } from './segment-plan.ts';
import * as segments from './segment-repository.ts';

// Small pages: the matching, repairing and staging of a page run between two turns of the event loop.
const PAGE = 500;
/** Staged matches applied per statement of the final transaction (the event loop gets a turn between). */
const APPLY_SLICE = 500;

/** The options of a pre-translation task. */
export const PretranslateTaskParams = Type.Object({
  auto_accept: Type.Boolean(),
  /** What auto_accept confirms; absent in tasks queued before it existed: exact. */
  auto_accept_scope: Type.Optional(AutoAcceptScope),
  /** Kept for Lilt's clients: it widens nothing. */
  case_sensitive: Type.Boolean(),
  attribute_to_creator: Type.Boolean(),
  /** The mode asked for (pretranslate-modes.ts); absent in tasks queued before it existed: tm. */
  mode: Type.Optional(PretranslateModeName),
  /** Who asked, recorded on memory entries written by confirmation. */
  username: Type.String(),
});
export type PretranslateTaskParams = Static<typeof PretranslateTaskParams>;

export function pretranslateTask(indexes: IndexCache, projects: ProjectsOfDocuments, mt?: MtEngine) {
  return taskType({
    name: 'pretranslate',
    params: PretranslateTaskParams,
    async run(task, options, ctx) {
      const doc = await repo.documentById(ctx.db, task.document_id!);
      if (!doc) throw new TaskFailure(`Document ${task.document_id} no longer exists`, 'NOT_FOUND');
      await repo.movePretranslation(ctx.db, doc.id, PRETRANSLATION.started);
      try {
        await pretranslate(task, options, ctx, doc, indexes, projects, mt);
      } catch (err) {
        if (err instanceof LeaseLostError) throw err;
        // Cut off from the store, the clean-up cannot reach it either: the next attempt starts from an
        // empty staging area and moves the document itself.
        if (isStoreUnavailable(err)) throw err;
        await segments.clearPretranslation(ctx.db, task.id);
        // Interrupted by shutdown: the task is re-queued, so the document is pending again; otherwise idle.
        await repo.movePretranslation(
          ctx.db,
          doc.id,
          ctx.signal.aborted ? PRETRANSLATION.interrupted : PRETRANSLATION.finished,
        );
        throw err;
      }
    },
    // Given up: the document is idle again (nothing was applied: matches apply in the final transaction).
    async giveUp(db, task) {
      await repo.movePretranslation(db, task.document_id!, PRETRANSLATION.finished);
    },
  });
}

/**
 * Whether auto-accept confirms a match: with the exact scope, a match whose source is the segment's exactly
 * (never one differing in case or whitespace, whatever case_sensitive says); with the context scope, only a
 * context match.
 */
function accepts(options: PretranslateTaskParams, match: BestMatch): boolean {
  if (!options.auto_accept) return false;
  return options.auto_accept_scope === AUTO_ACCEPT_SCOPES.context ? match.contextMatch : match.exact;
}

/**
 * The match to write into a segment: repaired to the segment's placeables where that can be done, and
 * starting with a capital where the segment starts as a sentence and the match's source did not.
 */
function toStaged(
  segmentId: number,
  source: string,
  match: BestMatch,
  options: PretranslateTaskParams,
  targetLanguage: string,
): segments.StagedMatch {
  const repaired = match.exact ? null : repairTarget(match.source, match.target, source);
  const repairs = repaired && repaired.repairs.length > 0 ? repaired.repairs : null;
  const target = repairs ? repaired!.target : match.target;
  return {
    segmentId,
    target: match.exact ? target : raiseInitialCase(match.source, target, source, targetLanguage),
    score: match.score,
    contextMatch: match.contextMatch,
    confirm: accepts(options, match),
    repairs: repairs ? JSON.stringify(repairs) : null,
  };
}

/**
 * The document's segments a page at a time, each with the sources of the segments before and after it
 * (across pages): where each stands, as the memory keeps contexts.
 */
export async function* withNeighbours(
  pages: AsyncIterable<segments.SegmentRow[]>,
): AsyncGenerator<{ row: segments.SegmentRow; prev: string | null; next: string | null }[]> {
  let pending: segments.SegmentRow[] | undefined;
  let before: string | null = null;
  const page = (rows: segments.SegmentRow[], after: string | null) =>
    rows.map((row, i) => ({
      row,
      prev: i > 0 ? rows[i - 1].source : before,
      next: i < rows.length - 1 ? rows[i + 1].source : after,
    }));
  for await (const rows of pages) {
    if (pending) {
      yield page(pending, rows[0].source);
      before = pending[pending.length - 1].source;
    }
    pending = rows;
  }
  if (pending) yield page(pending, null);
}

async function pretranslate(
  task: TaskRow,
  options: PretranslateTaskParams,
  ctx: TaskContext,
  doc: repo.DocumentRow,
  indexes: IndexCache,
  projects: ProjectsOfDocuments,
  mt: MtEngine | undefined,
) {
  const { db } = ctx;
  const modes = planModes(
    readMode(options.mode ?? PRETRANSLATE_MODES.tm),
    await mtUnavailable(mt, db, doc.organization_id),
  );
  const useTm = modes.ran.includes('tm');
  const useMt = modes.ran.includes('mt') && mt !== undefined;
  let mtRan = false;
  let mtFailure: string | null = null;
  const memoryId = await projects.memoryOfProject(db, doc.project_id);
  if (memoryId === undefined)
    throw new TaskFailure(`The memory of document ${doc.id} no longer exists`, 'NOT_FOUND');

  // A re-run after a crash starts from an empty staging area: nothing of the first run was applied.
  await segments.clearPretranslation(db, task.id);
  let staged = 0;
  let looked = 0;
  // One query per distinct source across the pages: repeated segments reuse the first answer.
  const memo = searchMemo();
  // MT keeps to the memory's termbase (mt/termbase.ts), read once for the whole document.
  const termbase = useMt
    ? await mt.termbases.of(db, doc.organization_id, memoryId, doc.srclang, doc.trglang)
    : null;
  for await (const rows of withNeighbours(segments.segmentPages(db, doc.id, PAGE))) {
    if (ctx.signal.aborted) throw new Error('interrupted');
    const open = rows.filter(({ row }) => row.is_confirmed === 0 && row.locked !== 1);
    const matches = useTm
      ? await bestMatches(
          { db, indexes },
          memoryId,
          open.map(
            ({ row, prev, next }): SegmentInContext => ({
              source: row.source,
              context: { key: contextKey(doc.format, row.context), prev, next },
            }),
          ),
          memo,
        )
      : open.map(() => null);
    const found = open.flatMap(({ row }, i) => {
      const match = matches[i];
      return match ? [toStaged(row.id, row.source, match, options, doc.trglang)] : [];
    });
    if (useMt && mtFailure === null) {
      const uncovered = open.filter((_, i) => !matches[i] && open[i].row.source.trim() !== '');
      if (uncovered.length > 0) {
        const result = await mt.translate(
          db,
          doc.organization_id,
          uncovered.map(({ row }) => row.source),
          doc.srclang,
          doc.trglang,
          { termbase },
        );
        // An engine that cannot translate (no pair, failing, paused) is not asked again for the next pages.
        if (result.unavailable !== null) mtFailure = result.unavailable;
        else mtRan = true;
        for (const [i, { row }] of uncovered.entries()) {
          const target = result.translations[i];
          if (target === null) continue;
          found.push({
            segmentId: row.id,
            target,
            score: 0,
            contextMatch: false,
            confirm: false,
            repairs: null,
            mtProvider: result.provider,
          });
        }
      }
    }
    await segments.stageMatches(db, task.id, staged, found);
    staged += found.length;
    looked += rows.length;
    await ctx.progress(looked, doc.num_segments);
    await nextTurn();
  }

  await db.transaction(async (tx) => {
    let translated = 0;
    let confirmed = 0;
    for (let from = 0; from < staged; from += APPLY_SLICE) {
      const applied = await segments.applyStagedMatches(
        tx,
        task.id,
        { from, to: from + APPLY_SLICE },
        options.username,
      );
      translated += applied.translated;
      confirmed += applied.confirmed;
      await nextTurn();
    }
    await segments.clearPretranslation(tx, task.id);
    await repo.movePretranslation(tx, doc.id, PRETRANSLATION.finished, { updated_at: nowSeconds() });
    // What ran of the mode asked for: MT is named as not available rather than passed over in silence.
    await ctx.complete(tx, {
      segments: looked,
      translated,
      confirmed,
      modes: reportOf(modes, mtRan, mtFailure),
    });
  });
}

/** The plan as it went: an engine that failed before translating anything is reported as not available. */
function reportOf(plan: ModesReport, mtRan: boolean, mtFailure: string | null): ModesReport {
  if (!plan.ran.includes('mt') || mtRan || mtFailure === null) return plan;
  return {
    requested: plan.requested,
    ran: plan.ran.filter((m) => m !== 'mt'),
    not_available: [...plan.not_available, { mode: 'mt', reason: mtFailure }],
  };
}
