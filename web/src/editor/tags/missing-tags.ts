// How the target's tags stand against the source's: which the target lacks (each by its place in the source, so
// that the closing tag of pair 2 is "/2" however many `</g>` there are), which pairs it holds empty around text
// the source encloses, whether its pairs are out of the source's nesting; and the edit that inserts the next
// missing tag (Alt+T) or all of them (Alt+Shift+T).
import type { TagPart } from '@server/text/inline-tags.ts';
import { matchSourceTags, pairByRole, tagRole } from '@server/text/tag-labels.ts';
import { placedTags } from './tag-parts.ts';

export interface MissingTag {
  part: TagPart;
  /** Its index among the source's tags (its chip's label is the source's tagLabels()[index]). */
  index: number;
}

/** The source's tags that the target lacks, in source order. */
export function missingTags(source: string, target: string): MissingTag[] {
  const sourceTags = placedTags(source).map((t) => t.part);
  const match = matchSourceTags(
    sourceTags,
    placedTags(target).map((t) => t.part),
  );
  return sourceTags.flatMap((part, index) => (match[index] === undefined ? [{ part, index }] : []));
}

export interface TagState {
  missing: MissingTag[];
  /** Source indexes of the opening tags whose pair the target holds with nothing inside, though the source's
   * pair encloses text. */
  empty: number[];
  /** The target's pairs cross, or a closing tag comes before its opening one. */
  disordered: boolean;
}

/** Everything the Segment panel says about the target's tags; all empty and false: "All tags placed". */
export function tagState(source: string, target: string): TagState {
  const sourcePlaced = placedTags(source);
  const targetPlaced = placedTags(target);
  const sourceTags = sourcePlaced.map((t) => t.part);
  const match = matchSourceTags(
    sourceTags,
    targetPlaced.map((t) => t.part),
  );
  const partners = pairByRole(sourceTags);
  const missing = sourceTags.flatMap((part, index) => (match[index] === undefined ? [{ part, index }] : []));
  const empty: number[] = [];
  for (const [open, close] of partners) {
    if (open > close || match[open] === undefined || match[close] === undefined) continue;
    const enclosesText = source.slice(sourcePlaced[open].to, sourcePlaced[close].from).trim() !== '';
    const holdsText =
      target.slice(targetPlaced[match[open]!].to, targetPlaced[match[close]!].from).trim() !== '';
    if (enclosesText && !holdsText) empty.push(open);
  }
  // Walk the target's tags in order: each closing tag must close the innermost pair still open.
  const sourceOf = new Map<number, number>();
  match.forEach((t, s) => {
    if (t !== undefined) sourceOf.set(t, s);
  });
  const open: number[] = [];
  let disordered = false;
  targetPlaced.forEach((_, t) => {
    const s = sourceOf.get(t);
    if (s === undefined) return;
    const role = tagRole(sourceTags[s]);
    const partner = partners.get(s);
    if (role === 'open' && partner !== undefined && match[partner] !== undefined) open.push(s);
    else if (role === 'close' && partner !== undefined && match[partner] !== undefined) {
      if (open.pop() !== partner) disordered = true;
    }
  });
  return { missing, empty, disordered };
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
  const missing = missingTags(source, target).map((m) => m.index);
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
  const insert = missing.map((t) => t.part.raw).join('');
  return { changes: [{ from: cursor, insert }], cursor: cursor + insert.length };
}
