// Inline tags of tagged text as the editor shows and moves them: where each sits, what part it plays in its
// span (opens, closes, stands alone), the short label of its chip and its full markup (full-tag mode); and the
// units a text is drawn and protected by, its tags and its placeholders. Parsing is src/text/inline-tags.ts's;
// what a placeholder is, src/text/placeables.ts's.
import { nativeCode, parseTagged, type TagPart } from '@server/text/inline-tags.ts';
import { placeablesOf } from '@server/text/placeables.ts';

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
  /** "1" opens span 1, "/1" closes it, "3/" stands alone; a placeholder protected as a code, its text. */
  text: string;
  /** What the tag stands for: its native code, or its kind and markup. */
  title: string;
  /** What the chip shows in full-tag mode: the native markup (`<code>gettext</code>`, `<b>`, `</b>`). */
  full: string;
  role: TagRole;
  /** A code element standing for one placeholder (`<ph>{{count}}</ph>`): shown as that text. */
  placeholder: boolean;
}

/** XLIFF's standard ctypes and HTML's elements they stand for (src/formats/html names the others `x-NAME`). */
const CTYPE_ELEMENTS: Readonly<Record<string, string>> = {
  bold: 'b',
  italic: 'i',
  underlined: 'u',
  link: 'a',
  lb: 'br',
  image: 'img',
};

/** The markup a tag without native code stands for, as far as its ctype tells; else the tag as written. */
function markupOf(part: TagPart, opener: TagPart | undefined): string {
  const ctype = (opener ?? part).attrs.ctype;
  const name = ctype ? (CTYPE_ELEMENTS[ctype] ?? (ctype.startsWith('x-') ? ctype.slice(2) : '')) : '';
  if (!name) return part.raw;
  return tagRole(part) === 'close' ? `</${name}>` : `<${name}>`;
}

/** The native code of a code element when it is exactly one placeholder (`{{count}}`, `%1$s`). */
export function placeholderCode(part: TagPart): string | undefined {
  if (part.form !== 'code') return undefined;
  const code = nativeCode(part);
  const [only, ...more] = placeablesOf(code);
  return only?.kind === 'placeholder' && more.length === 0 && only.text === code ? code : undefined;
}

/** The chips' labels of a text's tags, in order: a closing tag carries its opening partner's number. */
export function tagLabels(tags: readonly TagPart[]): TagLabel[] {
  const partners = pairByRole(tags);
  return tags.map((part, i) => {
    const role = tagRole(part);
    const partner = partners.get(i);
    const opener = role === 'close' && partner !== undefined ? tags[partner] : undefined;
    const placeholder = placeholderCode(part);
    if (placeholder !== undefined)
      return { text: placeholder, title: placeholder, full: placeholder, role: 'alone', placeholder: true };
    const n = tagNumber(part) || (partner === undefined ? '' : tagNumber(tags[partner])) || part.name;
    const text = role === 'open' ? n : role === 'close' ? `/${n}` : `${n}/`;
    const code = part.form === 'code' ? nativeCode(part) : '';
    const title = code || (part.attrs.ctype ? `${part.attrs.ctype}: ${part.raw}` : part.raw);
    return { text, title, full: code || markupOf(part, opener), role, placeholder: false };
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
