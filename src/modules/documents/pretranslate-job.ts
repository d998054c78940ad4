// The pretranslate job: each unconfirmed segment gets its best memory match scoring 75 or more.
import type { JobRow } from '../../jobs/queue.ts';
import type { JobContext } from '../../jobs/worker.ts';
import { JobFailure } from '../../jobs/worker.ts';
import { nowSeconds } from '../../store/db.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { entriesByIds } from '../memories/repository.ts';
import * as repo from './repository.ts';
import type { PretranslateOptions } from './service.ts';

const PAGE = 2000;

export function pretranslateHandler(indexes: IndexCache) {
  return async (job: JobRow, ctx: JobContext): Promise<void> => {
    const { db } = ctx;
    const options = JSON.parse(job.params) as PretranslateOptions;
    const doc = await repo.documentById(db, Number(job.document_id));
    if (!doc) throw new JobFailure(`Document ${job.document_id} no longer exists`);
    const memory = await db.get<{ id: number; version: number }>(
      'SELECT m.id, m.version FROM memories m JOIN projects p ON p.memory_id = m.id WHERE p.id = ?',
      [doc.project_id],
    );
    if (!memory) throw new JobFailure(`The memory of document ${doc.id} no longer exists`);
    await db.run("UPDATE documents SET pretranslate_state = 'running' WHERE id = ?", [doc.id]);
    try {
      await pretranslate(ctx, doc, Number(memory.id), Number(memory.version), options, indexes);
    } catch (err) {
      // Interrupted by shutdown: the job is re-queued, so the document is pending again; otherwise idle.
      await db.run('UPDATE documents SET pretranslate_state = ? WHERE id = ?', [
        ctx.signal.aborted ? 'pending' : 'idle',
        doc.id,
      ]);
      throw err;
    }
  };
}

async function pretranslate(
  ctx: JobContext,
  doc: repo.DocumentRow,
  memoryId: number,
  memoryVersion: number,
  options: PretranslateOptions,
  indexes: IndexCache,
): Promise<void> {
  const { db } = ctx;
  const index = await indexes.get(memoryId, memoryVersion);

  let translated = 0;
  let confirmed = 0;
  let done = 0;
  // Each page is written in its own transaction: re-running the job only redoes unconfirmed segments,
  // which is the same work, so a crash part-way is harmless.
  for (let after = -1; ; ) {
    if (ctx.signal.aborted) throw new Error('interrupted');
    const rows = await repo.segmentsPage(db, Number(doc.id), after, PAGE);
    const best = new Map<number, { entryId: number; score: number; exact: boolean }>();
    for (const row of rows) {
      if (Number(row.is_confirmed) === 1) continue;
      const [match] = index.search(row.source, { threshold: 75, n: 1 });
      if (!match) continue;
      // Without case_sensitive, a match that differs only in case counts as exact.
      const caseOnly = match.penalties.length > 0 && match.penalties.every((p) => p.kind === 'case');
      const exact = match.score === 100 || (!options.case_sensitive && caseOnly && match.score >= 97);
      best.set(Number(row.id), { entryId: match.id, score: match.score, exact });
    }
    const entries = new Map(
      (await entriesByIds(db, [...new Set([...best.values()].map((b) => b.entryId))])).map((e) => [
        Number(e.id),
        e,
      ]),
    );
    await db.transaction(async (tx) => {
      const now = nowSeconds();
      for (const [segmentId, b] of best) {
        const entry = entries.get(b.entryId);
        if (!entry) continue;
        const accept = options.auto_accept && b.exact;
        const { changes } = await tx.run(
          `UPDATE document_segments SET target = ?, match_score = ?, is_confirmed = ?, status = ?, updated_at = ?
             WHERE id = ? AND is_confirmed = 0`,
          [entry.target, b.score, accept ? 1 : 0, accept ? 'confirmed' : 'pretranslated', now, segmentId],
        );
        translated += changes;
        if (accept) confirmed += changes;
      }
    });
    done += rows.length;
    await ctx.progress(done, Number(doc.num_segments));
    if (rows.length < PAGE) break;
    after = Number(rows[rows.length - 1].position);
  }
  await db.transaction(async (tx) => {
    await tx.run("UPDATE documents SET pretranslate_state = 'idle', updated_at = ? WHERE id = ?", [
      nowSeconds(),
      doc.id,
    ]);
    await ctx.complete(tx, { segments: done, translated, confirmed });
  });
}
