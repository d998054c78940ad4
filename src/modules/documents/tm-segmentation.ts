// TM-driven segmentation (as memoQ calls it): a paragraph or entry cut into sentences is kept whole when the
// project's memory holds the whole of it word for word — its translation is then one exact match rather
// than a fuzzy match for the first sentence and nothing for the rest.
import { nextTurn } from '../../pacing.ts';
import type { Db } from '../../store/db.ts';
import type { IndexCache } from '../memories/index-cache.ts';
import { bestMatches, type SegmentInContext, searchMemo } from '../memories/service.ts';
import { contextKey, joinPieces, type SegmentPiece } from './segment-plan.ts';
import type { NewSegment } from './segment-repository.ts';

/** Units looked up in the memory per batch (the event loop gets a turn between batches). */
const BATCH = 500;

/** [from, to) of each unit planned as two segments or more, none with a target (units cut into sentences). */
export function sentenceRuns(planned: readonly NewSegment[]): { from: number; to: number }[] {
  const runs: { from: number; to: number }[] = [];
  for (let from = 0; from < planned.length; ) {
    let to = from + 1;
    while (to < planned.length && planned[to].unit_index === planned[from].unit_index) to++;
    if (to - from > 1 && planned.slice(from, to).every((s) => s.target === null)) runs.push({ from, to });
    from = to;
  }
  return runs;
}

/** The segments of one unit joined into one, as it was before it was cut. */
export function wholeUnit(segments: readonly NewSegment[]): NewSegment {
  let joined: SegmentPiece = segments[0];
  for (const next of segments.slice(1)) joined = joinPieces(joined, next);
  return { ...segments[0], lead: joined.lead, trail: joined.trail, source: joined.source, target: null };
}

/**
 * The planned segments with each unit cut into sentences joined again where the memory holds the whole unit
 * exactly (its source, character for character after NFC, tags included); answers how many were joined.
 */
export async function keepUnitsTheMemoryHolds(
  deps: { db: Db; indexes: IndexCache },
  memoryId: number,
  format: string,
  planned: readonly NewSegment[],
): Promise<{ segments: NewSegment[]; joined: number }> {
  const runs = sentenceRuns(planned);
  if (runs.length === 0) return { segments: [...planned], joined: 0 };
  const memo = searchMemo();
  const keep = new Map<number, { whole: NewSegment; to: number }>();
  for (let i = 0; i < runs.length; i += BATCH) {
    const batch = runs.slice(i, i + BATCH);
    const wholes = batch.map((run) => wholeUnit(planned.slice(run.from, run.to)));
    const matches = await bestMatches(
      deps,
      memoryId,
      wholes.map(
        (whole): SegmentInContext => ({
          source: whole.source,
          context: { key: contextKey(format, whole.context), prev: null, next: null },
        }),
      ),
      memo,
    );
    batch.forEach((run, j) => {
      if (matches[j]?.exact) keep.set(run.from, { whole: wholes[j], to: run.to });
    });
    await nextTurn();
  }
  const segments: NewSegment[] = [];
  for (let i = 0; i < planned.length; ) {
    const kept = keep.get(i);
    if (kept) {
      segments.push(kept.whole);
      i = kept.to;
    } else segments.push(planned[i++]);
  }
  return { segments, joined: keep.size };
}
