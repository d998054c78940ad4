// Inline tags of tagged text as the editor moves them: where each sits, and the units a text is drawn and
// protected by, its tags and its placeholders. Parsing is src/text/inline-tags.ts's; what a placeholder is,
// src/text/placeables.ts's; what part a tag plays and how its chip reads, src/text/tag-labels.ts's (which the QA
// messages name tags by too).
import { parseTagged, type TagPart } from '@server/text/inline-tags.ts';
import { placeablesOf } from '@server/text/placeables.ts';
import { pairByRole, tagRole } from '@server/text/tag-labels.ts';

export interface PlacedTag {
  part: TagPart;
  /** UTF-16 offsets of part.raw in the tagged text. */
  from: number;
  to: number;
}

/** Every tag of tagged text with its offsets, in order. */
export function placedTags(tagged: string): PlacedTag[] {
  const tags: PlacedTag[] = [];
  let at = 0;
  for (const part of parseTagged(tagged)) {
    const length = part.type === 'text' ? part.text.length : part.raw.length;
    if (part.type === 'tag') tags.push({ part, from: at, to: at + length });
    at += length;
  }
  return tags;
}

export interface Unit {
  kind: 'tag' | 'placeholder';
  from: number;
  to: number;
  role: 'open' | 'close' | 'alone';
  /** For a paired tag: its partner's index among the units. */
  partner?: number;
}

/** The tags and the placeholders written as text (`%s`, `{count}`) of a target, in order. */
export function protectedUnits(text: string): Unit[] {
  const tags = placedTags(text);
  const partners = pairByRole(tags.map((t) => t.part));
  const units: Unit[] = tags.map((t) => ({ kind: 'tag', from: t.from, to: t.to, role: tagRole(t.part) }));
  for (const p of placeablesOf(text)) {
    if (p.kind === 'placeholder' && !tags.some((t) => t.from <= p.start && p.end <= t.to))
      units.push({ kind: 'placeholder', from: p.start, to: p.end, role: 'alone' });
  }
  units.sort((a, b) => a.from - b.from);
  // Partners by position, now that placeholders are interleaved.
  const at = new Map(units.map((u, i) => [u.from, i]));
  tags.forEach((t, i) => {
    const p = partners.get(i);
    if (p !== undefined) units[at.get(t.from)!].partner = at.get(tags[p].from);
  });
  return units;
}
