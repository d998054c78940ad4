// Inline tags as people see them, one naming for the editor's chips and the QA messages: the part each tag
// plays in its span (opens, closes, stands alone), the number it carries, its chip's label ("1", "/1", "3/" or
// a placeholder's own text) and its full markup, its name in a message (`tag 2 (<b>)`, `closing tag /2`), and
// which of a source's tags a translation holds.
import { nativeCode, type TagPart, tagIdentity } from './inline-tags.ts';
import { placeablesOf } from './placeables.ts';

export type TagRole = 'open' | 'close' | 'alone';

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

const CODE_IN_NAME = 40;

/**
 * A tag as a message names it, as its chip reads — `tag 2`, `closing tag /2`, `tag 3/` — with the markup it
 * stands for when that is not the tag itself (`tag 2 (<b>)`, `tag 3/ (<code>gettext</code>)`).
 */
export function tagName(part: TagPart, label: TagLabel): string {
  const which = label.role === 'close' ? `closing tag ${label.text}` : `tag ${label.text}`;
  if (label.full === part.raw) return which;
  const code = label.full.length > CODE_IN_NAME ? `${label.full.slice(0, CODE_IN_NAME - 1)}…` : label.full;
  return `${which} (${code})`;
}

/**
 * Each of the source's tags matched to one of the target's (index in the target's tags, or undefined). Opening
 * and standalone tags by their identity (the tag with its attributes, in any order); a closing tag to the
 * partner of its opening tag's match when there is one, else to a closing tag of the same name nothing else
 * took — so that a missing closing tag is named by its own pair however many `</g>` there are.
 */
export function matchSourceTags(
  source: readonly TagPart[],
  target: readonly TagPart[],
): (number | undefined)[] {
  const used = new Set<number>();
  const take = (i: number) => {
    if (i < 0) return undefined;
    used.add(i);
    return i;
  };
  // The target's tags by identity (and by identity and role), each list in order with a cursor past the
  // taken ones: a search of all target tags per source tag took 33 s for 51,200 tags (a long segment).
  const byKey = new Map<string, { at: number; indexes: number[] }>();
  const listed = (key: string) => {
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = { at: 0, indexes: [] }));
    return list;
  };
  target.forEach((t, i) => {
    const identity = tagIdentity(t);
    listed(identity).indexes.push(i);
    listed(`${tagRole(t)} ${identity}`).indexes.push(i);
  });
  const free = (part: TagPart, role?: TagRole) => {
    const list = byKey.get(role === undefined ? tagIdentity(part) : `${role} ${tagIdentity(part)}`);
    if (!list) return -1;
    while (list.at < list.indexes.length && used.has(list.indexes[list.at])) list.at++;
    return list.at < list.indexes.length ? list.indexes[list.at] : -1;
  };
  const match: (number | undefined)[] = source.map((t) =>
    tagRole(t) === 'close' ? undefined : take(free(t)),
  );
  const sourcePartners = pairByRole(source);
  const targetPartners = pairByRole(target);
  source.forEach((t, i) => {
    if (tagRole(t) !== 'close') return;
    const open = sourcePartners.get(i);
    const inTarget = open === undefined ? undefined : match[open];
    const partner = inTarget === undefined ? undefined : targetPartners.get(inTarget);
    if (partner !== undefined && !used.has(partner) && tagIdentity(target[partner]) === tagIdentity(t))
      match[i] = take(partner);
  });
  source.forEach((t, i) => {
    if (tagRole(t) === 'close' && match[i] === undefined) match[i] = take(free(t, 'close'));
  });
  return match;
}
