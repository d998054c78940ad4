// Inline tags of tagged text as the editor shows and moves them: where each sits, what part it plays in its
// span (opens, closes, stands alone) and the short label of its chip. Parsing is src/text/inline-tags.ts's.
import { nativeCode, parseTagged, type TagPart } from '@server/text/inline-tags.ts';

export type TagRole = 'open' | 'close' | 'alone';

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

/** XLIFF's <bpt>/<bx> open a span and <ept>/<ex> close one, as a paired <g>'s open and close parts do. */
export function tagRole(part: TagPart): TagRole {
  if (part.form === 'open' || part.name === 'bpt' || part.name === 'bx') return 'open';
  if (part.form === 'close' || part.name === 'ept' || part.name === 'ex') return 'close';
  return 'alone';
}

/** The number a tag carries in its file (XLIFF id, TMX i/x, a bx's rid), which its chip shows. */
export function tagNumber(part: TagPart): string {
  return part.attrs.id ?? part.attrs.rid ?? part.attrs.i ?? part.attrs.x ?? '';
}

export interface TagLabel {
  /** "1" opens span 1, "/1" closes it, "3/" stands alone. */
  text: string;
  /** What the tag stands for: its native code, or its kind and markup. */
  title: string;
  role: TagRole;
}

/** The chips' labels of a text's tags, in order: a closing tag carries its opening partner's number. */
export function tagLabels(tags: readonly TagPart[]): TagLabel[] {
  const partners = pairByRole(tags);
  return tags.map((part, i) => {
    const role = tagRole(part);
    const partner = partners.get(i);
    const n = tagNumber(part) || (partner === undefined ? '' : tagNumber(tags[partner])) || part.name;
    const text = role === 'open' ? n : role === 'close' ? `/${n}` : `${n}/`;
    const code = part.form === 'code' ? nativeCode(part) : '';
    const title = code || (part.attrs.ctype ? `${part.attrs.ctype}: ${part.raw}` : part.raw);
    return { text, title, role };
  });
}

/**
 * Open and close tags paired as they nest (by role, so <bpt>/<ept> pair like <g>/</g>); each index maps to
 * its partner's. Unpaired tags are absent.
 */
export function pairByRole(tags: readonly TagPart[]): Map<number, number> {
  const stack: number[] = [];
  const partners = new Map<number, number>();
  tags.forEach((tag, i) => {
    const role = tagRole(tag);
    if (role === 'open') stack.push(i);
    else if (role === 'close' && stack.length > 0) {
      const open = stack.pop()!;
      partners.set(open, i).set(i, open);
    }
  });
  return partners;
}
