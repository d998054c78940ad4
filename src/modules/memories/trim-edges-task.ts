// The memory_trim_edges task: the entries a memory stored before edge whitespace was trimmed on the way in
// (docs/MATCHING.md §1.1) rewritten without it — an entry that then repeats one already stored is dropped.
// Migration 018 queues one per memory. Until it has run, such entries are indexed and answered trimmed
// anyway; the task makes the store say so too, so that a pair written again is found stored, and an export
// or a re-import is clean. A page at a time, each in its own transaction: a re-run takes up what is left.
import { Type } from 'typebox';
import { nextTurn } from '../../pacing.ts';
import type { Queryable } from '../../store/db.ts';
import type { TaskRow } from '../../tasks/queue.ts';
import { type TaskContext, taskType } from '../../tasks/task-type.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import { contextHash, contextOf, pairHash } from './entry-identity.ts';
import type { IndexCache } from './index-cache.ts';
import * as repo from './repository.ts';

const PAGE = 2000;

export function memoryTrimEdgesTask(indexes: IndexCache) {
  return taskType({
    name: 'memory_trim_edges',
    params: Type.Object({}),
    async run(task, _params, ctx) {
      const result = await trimMemory(task, ctx);
      if (result.trimmed + result.merged > 0) {
        indexes
          .refreshAndSave(task.memory_id!)
          .catch((err) => ctx.log.warn({ err, memoryId: task.memory_id }, 'index catch-up failed'));
      }
    },
  });
}

async function trimMemory(task: TaskRow, ctx: TaskContext) {
  const { db } = ctx;
  const memoryId = task.memory_id!;
  let trimmed = 0;
  let merged = 0;
  let read = 0;
  for (let after = 0; ; ) {
    if (ctx.signal.aborted) throw new Error('interrupted');
    // A memory deleted meanwhile has nothing left to trim.
    const memory = await repo.memoryById(db, memoryId);
    if (!memory) break;
    const rows = await repo.entriesPage(db, memoryId, after, PAGE);
    read += rows.length;
    const untrimmed = rows.filter(
      (r) => r.source !== withoutEdges(r.source) || r.target !== withoutEdges(r.target),
    );
    if (untrimmed.length > 0) {
      const done = await db.transaction((tx) => trimEntries(tx, memoryId, untrimmed));
      trimmed += done.trimmed;
      merged += done.merged;
    }
    await ctx.progress(read, Math.max(read, memory.num_segments));
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
    await nextTurn();
  }
  const result = { trimmed, merged };
  await db.transaction((tx) => ctx.complete(tx, result));
  return result;
}

/** Rewrites entries without their edge whitespace; one that repeats a stored pair (or an empty one) goes. */
async function trimEntries(tx: Queryable, memoryId: number, rows: readonly repo.EntryRow[]) {
  const rev = await repo.bumpVersion(tx, memoryId, 0);
  let trimmed = 0;
  let merged = 0;
  for (const row of rows) {
    const source = withoutEdges(row.source);
    const target = withoutEdges(row.target);
    const where = contextHash(source, contextOf(row));
    const hash = pairHash(source, target, where);
    const twin = source && target ? await repo.findEntryByPair(tx, memoryId, hash) : undefined;
    if (!source || !target || (twin && twin.id !== row.id)) {
      await repo.deleteEntry(tx, memoryId, row.id, rev);
      merged++;
    } else {
      await repo.rewriteEntryText(tx, row.id, { source, target, pairHash: hash, contextHash: where, rev });
      trimmed++;
    }
  }
  if (merged > 0) await repo.bumpVersion(tx, memoryId, -merged);
  return { trimmed, merged };
}
