// The pretranslate task: each unconfirmed segment gets its best memory match scoring MIN_SCORE or more
// (matching/score-bands.ts), its placeables repaired to this segment's (auto-propagation). All or nothing:
// matches are staged while they are looked up and applied in one transaction together with the task's
// success, so a task killed part-way changes no segment, and its re-run counts what the final state holds.
import { type Static, Type } from 'typebox';
import { TaskFailure } from '../../errors.ts';
import { nextTurn } from '../../pacing.ts';
import { nowSeconds } from '../../store/db.ts';
import { LeaseLostError, type TaskRow } from '../../tasks/queue.ts';
import { type TaskContext, taskType } from '../../tasks/task-type.ts';
import { repairTarget } from '../../text/placeables.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { type BestMatch, bestMatches, searchMemo } from '../memories/service.ts';
import { PRETRANSLATION } from './document-states.ts';
import type { ProjectsOfDocuments } from './projects-of-documents.ts';
import * as repo from './repository.ts';
import * as segments from './segment-repository.ts';

// Small pages: the matching, repairing and staging of a page run between two turns of the event loop.
const PAGE = 500;
/** Staged matches applied per statement of the final transaction (the event loop gets a turn between). */
const APPLY_SLICE = 500;

/** The options of a pre-translation task. */
export const PretranslateTaskParams = Type.Object({
  auto_accept: Type.Boolean(),
  case_sensitive: Type.Boolean(),
  attribute_to_creator: Type.Boolean(),
  /** Who asked, recorded on memory entries written by confirmation. */
  username: Type.String(),
});
export type PretranslateTaskParams = Static<typeof PretranslateTaskParams>;

export function pretranslateTask(indexes: IndexCache, projects: ProjectsOfDocuments) {
  return taskType({
    name: 'pretranslate',
    params: PretranslateTaskParams,
    async run(task, options, ctx) {
      const doc = await repo.documentById(ctx.db, task.document_id!);
      if (!doc) throw new TaskFailure(`Document ${task.document_id} no longer exists`, 'NOT_FOUND');
      await repo.movePretranslation(ctx.db, doc.id, PRETRANSLATION.started);
      try {
        await pretranslate(task, options, ctx, doc, indexes, projects);
      } catch (err) {
        if (err instanceof LeaseLostError) throw err;
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

/** The match to write into a segment: repaired to the segment's placeables where that can be done. */
function toStaged(
  segmentId: number,
  source: string,
  match: BestMatch,
  autoAccept: boolean,
): segments.StagedMatch {
  const repaired = match.score === 100 ? null : repairTarget(match.source, match.target, source);
  const repairs = repaired && repaired.repairs.length > 0 ? repaired.repairs : null;
  return {
    segmentId,
    target: repairs ? repaired!.target : match.target,
    score: match.score,
    confirm: autoAccept && match.exact,
    repairs: repairs ? JSON.stringify(repairs) : null,
  };
}

async function pretranslate(
  task: TaskRow,
  options: PretranslateTaskParams,
  ctx: TaskContext,
  doc: repo.DocumentRow,
  indexes: IndexCache,
  projects: ProjectsOfDocuments,
) {
  const { db } = ctx;
  const memoryId = await projects.memoryOfProject(db, doc.project_id);
  if (memoryId === undefined)
    throw new TaskFailure(`The memory of document ${doc.id} no longer exists`, 'NOT_FOUND');

  // A re-run after a crash starts from an empty staging area: nothing of the first run was applied.
  await segments.clearPretranslation(db, task.id);
  let staged = 0;
  let looked = 0;
  // One query per distinct source across the pages: repeated segments reuse the first answer.
  const memo = searchMemo();
  for await (const rows of segments.segmentPages(db, doc.id, PAGE)) {
    if (ctx.signal.aborted) throw new Error('interrupted');
    const open = rows.filter((row) => row.is_confirmed === 0);
    const matches = await bestMatches(
      { db, indexes },
      memoryId,
      open.map((row) => row.source),
      { caseSensitive: options.case_sensitive },
      memo,
    );
    const found = open.flatMap((row, i) => {
      const match = matches[i];
      return match ? [toStaged(row.id, row.source, match, options.auto_accept)] : [];
    });
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
    await ctx.complete(tx, { segments: looked, translated, confirmed });
  });
}
