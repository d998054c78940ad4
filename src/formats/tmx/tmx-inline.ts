// Inline markup between tagged text and TMX 1.4 <seg> content, both ways, so every tag survives a round trip.
//
// TMX elements (bpt ept ph it ut hi) are written as themselves when they are valid TMX 1.4 and in the
// form the reader gives back. Anything else — XLIFF's <g> <x/> <bx/> <ex/> <mrk>, a <sub> outside a code
// element, a code element with XLIFF attributes, an unpaired <hi> — becomes a TMX code element whose
// native code is the tag itself, marked with type="x-tag-NAME":
//   <g id="1">…</g>   → <bpt i="N" type="x-tag-g">&lt;g id="1"&gt;</bpt>…<ept i="N">&lt;/g&gt;</ept>
//   an unpaired open  → <it pos="begin" type="x-tag-NAME">…</it>, an unpaired close → <it pos="end" …>
//   <bx …/> / <ex …/> → <it pos="begin"|"end" type="x-tag-bx"|"x-tag-ex">…</it>
//   <x …/> and others → <ph type="x-tag-NAME">…</ph>
// Other tools see a valid file with the original tag as native code; our reader puts the tag back.

import { pairTags, parseTagged, type TagPart } from '../../text/inline-tags.ts';
import { cleanXml, escapeXmlAttr, unescapeXml, xmlText } from '../../xml/xml-escape.ts';

export const MAPPED_TYPE_PREFIX = 'x-tag-';

export const TMX_CODE_ELEMENTS = new Set(['bpt', 'ept', 'ph', 'it', 'ut']);

/** The attributes tmx14.dtd allows on each inline element, and which of them it requires. */
const TMX_INLINE_ATTRS: Record<string, { allowed: readonly string[]; required: readonly string[] }> = {
  bpt: { allowed: ['i', 'x', 'type'], required: ['i'] },
  ept: { allowed: ['i'], required: ['i'] },
  it: { allowed: ['pos', 'x', 'type'], required: ['pos'] },
  ph: { allowed: ['x', 'assoc', 'type'], required: [] },
  ut: { allowed: ['x'], required: [] },
  hi: { allowed: ['x', 'type'], required: [] },
  sub: { allowed: ['datatype', 'type'], required: [] },
};

/** What tmx14.dtd lets an element inside a code element's content contain (besides text). */
const TMX_CHILDREN: Record<string, ReadonlySet<string>> = {
  hi: new Set(['bpt', 'ept', 'ph', 'it', 'ut', 'hi']),
  sub: new Set(['bpt', 'ept', 'ph', 'it', 'ut', 'hi']),
  bpt: new Set(['sub']),
  ept: new Set(['sub']),
  ph: new Set(['sub']),
  it: new Set(['sub']),
  ut: new Set(['sub']),
};

/**
 * An element's start tag as the reader writes it into tagged text: attributes in document order,
 * double-quoted and escaped, `/>` for an element written self-closing.
 */
export function markupTag(name: string, attrs: Record<string, string>, selfClosing: boolean): string {
  let out = `<${name}`;
  for (const key in attrs) out += ` ${key}="${escapeXmlAttr(attrs[key])}"`;
  return out + (selfClosing ? '/>' : '>');
}

/** TMX <seg> content (escaped, valid against tmx14.dtd) for tagged text. */
export function taggedToTmx(tagged: string): string {
  if (tagged.indexOf('<') < 0) return xmlText(tagged);
  const parts = parseTagged(tagged);
  const partners = pairTags(parts);
  let nextI = firstFreeI(parts);
  const pairI = new Map<number, number>();
  let out = '';
  parts.forEach((part, index) => {
    if (part.type === 'text') {
      out += xmlText(part.text);
      return;
    }
    const partner = partners.get(index);
    if (isVerbatim(part, partner === undefined ? undefined : (parts[partner] as TagPart))) {
      out += cleanXml(part.raw);
      return;
    }
    const type = MAPPED_TYPE_PREFIX + part.name;
    const code = xmlText(part.raw);
    if (partner !== undefined && part.form === 'open') {
      pairI.set(partner, nextI);
      out += `<bpt i="${nextI++}" type="${type}">${code}</bpt>`;
    } else if (partner !== undefined) {
      out += `<ept i="${pairI.get(index)}">${code}</ept>`;
    } else if (part.form === 'open' || (part.form === 'empty' && part.name === 'bx')) {
      out += `<it pos="begin" type="${type}">${code}</it>`;
    } else if (part.form === 'close' || (part.form === 'empty' && part.name === 'ex')) {
      out += `<it pos="end" type="${type}">${code}</it>`;
    } else {
      out += `<ph type="${type}">${code}</ph>`;
    }
  });
  return out;
}

/** Numbers for mapped bpt/ept pairs start above every numeric i the segment already uses. */
function firstFreeI(parts: ReturnType<typeof parseTagged>): number {
  let max = 0;
  for (const part of parts) {
    if (part.type === 'tag' && (part.name === 'bpt' || part.name === 'ept')) {
      const i = Number(part.attrs.i);
      if (Number.isInteger(i) && i > max) max = i;
    }
  }
  return max + 1;
}

/** Whether a tag can be written as itself: valid TMX, and read back as exactly the same characters. */
function isVerbatim(part: TagPart, partner: TagPart | undefined): boolean {
  if (!validTmxAttrs(part.name, part.attrs)) return false;
  if (part.attrs.type?.startsWith(MAPPED_TYPE_PREFIX)) return false;
  if (part.form === 'code') {
    const selfClosing = part.raw.endsWith('/>');
    const start = markupTag(part.name, part.attrs, selfClosing);
    if (selfClosing) return part.raw === start;
    return (
      part.raw === `${start}${part.content}</${part.name}>` &&
      isCanonicalContent(part.name, part.content ?? '')
    );
  }
  if (part.name !== 'hi') return false;
  if (part.form === 'empty') return part.raw === markupTag('hi', part.attrs, true);
  // A <hi> pair is written as elements only when both halves are; the close half is judged by its open.
  if (!partner) return false;
  const open = part.form === 'open' ? part : partner;
  const close = part.form === 'open' ? partner : part;
  return (
    open.raw === markupTag('hi', open.attrs, false) &&
    close.raw === '</hi>' &&
    validTmxAttrs('hi', open.attrs)
  );
}

function validTmxAttrs(name: string, attrs: Record<string, string>): boolean {
  const rule = TMX_INLINE_ATTRS[name];
  if (!rule) return false;
  for (const key in attrs) if (!rule.allowed.includes(key)) return false;
  for (const key of rule.required) if (attrs[key] === undefined) return false;
  return name !== 'it' || attrs.pos === 'begin' || attrs.pos === 'end';
}

const CONTENT_TOKEN =
  /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|&[^;]*;|[<>&]/g;
const ATTR_TOKEN = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * Whether a code element's content is what the reader would produce for it: text with only &amp; &lt;
 * &gt; as references, and nested elements the DTD allows, canonically written and properly nested.
 */
function isCanonicalContent(parent: string, content: string): boolean {
  const stack = [parent];
  CONTENT_TOKEN.lastIndex = 0;
  for (let m = CONTENT_TOKEN.exec(content); m; m = CONTENT_TOKEN.exec(content)) {
    const token = m[0];
    if (token[0] === '&') {
      if (token !== '&amp;' && token !== '&lt;' && token !== '&gt;') return false;
      continue;
    }
    if (!m[2]) return false; // a bare "<", ">" or "&"
    const [, closing, name, attrText, empty] = m;
    if (closing) {
      if (attrText || empty || stack.length === 1 || stack.pop() !== name) return false;
      continue;
    }
    if (!TMX_CHILDREN[stack[stack.length - 1]]?.has(name)) return false;
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(ATTR_TOKEN)) attrs[a[1]] = unescapeXml(a[2] ?? a[3] ?? '');
    if (!validTmxAttrs(name, attrs) || token !== markupTag(name, attrs, empty === '/')) return false;
    if (!empty) stack.push(name);
  }
  return stack.length === 1;
}

/**
 * The tag a mapped code element stands for, or undefined when it is not one of ours: the element's
 * decoded content must be exactly one tag of the name its type (or, for an <ept>, its <bpt>) names.
 */
export function restoreMappedTag(element: string, mappedName: string, code: string): string | undefined {
  if (code.indexOf('<') !== 0) return undefined;
  const parts = parseTagged(code);
  if (parts.length !== 1) return undefined;
  const [part] = parts;
  if (part.type !== 'tag' || part.name !== mappedName || part.raw !== code) return undefined;
  if (element === 'bpt' && part.form !== 'open') return undefined;
  if (element === 'ept' && part.form !== 'close') return undefined;
  return code;
}
