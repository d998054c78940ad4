// Which of the source's tags the target lacks, and the edit that inserts the next one (Alt+T) or all (Alt+Shift+T).
import type { TagPart } from '@server/text/inline-tags.ts';
import { pairByRole, placedTags, tagRole } from './tag-parts.ts';

/** Indexes, among the source's tags, of those the target holds fewer times than the source does. */
function missingIndexes(sourceTags: readonly TagPart[], target: string): number[] {
  const have = new Map<string, number>();
  for (const { part } of placedTags(target)) have.set(part.raw, (have.get(part.raw) ?? 0) + 1);
  const missing: number[] = [];
  sourceTags.forEach((part, i) => {
    const left = have.get(part.raw) ?? 0;
    if (left > 0) have.set(part.raw, left - 1);
    else missing.push(i);
  });
  return missing;
}

/** The source's tags that the target lacks, in source order. */
export function missingTags(source: string, target: string): TagPart[] {
  const tags = placedTags(source).map((t) => t.part);
  return missingIndexes(tags, target).map((i) => tags[i]);
}

export interface TagInsertion {
  changes: { from: number; insert: string }[];
  /** Where the cursor goes afterwards, in the document after the changes. */
  cursor: number;
}

/**
 * Inserts the next missing tag at the selection. With text selected and both parts of a span missing, the
 * span wraps the selection; the cursor lands after what was inserted.
 */
export function insertNextTag(
  source: string,
  target: string,
  selection: { from: number; to: number },
): TagInsertion | null {
  const tags = placedTags(source).map((t) => t.part);
  const missing = missingIndexes(tags, target);
  if (missing.length === 0) return null;
  const next = tags[missing[0]];
  if (selection.from !== selection.to && tagRole(next) === 'open') {
    const partner = pairByRole(tags).get(missing[0]);
    if (partner !== undefined && missing.includes(partner)) {
      const close = tags[partner];
      return {
        changes: [
          { from: selection.from, insert: next.raw },
          { from: selection.to, insert: close.raw },
        ],
        cursor: selection.to + next.raw.length + close.raw.length,
      };
    }
  }
  return { changes: [{ from: selection.to, insert: next.raw }], cursor: selection.to + next.raw.length };
}

/** Inserts every missing tag, in source order, at the cursor. */
export function insertAllTags(source: string, target: string, cursor: number): TagInsertion | null {
  const missing = missingTags(source, target);
  if (missing.length === 0) return null;
  const insert = missing.map((t) => t.raw).join('');
  return { changes: [{ from: cursor, insert }], cursor: cursor + insert.length };
}
