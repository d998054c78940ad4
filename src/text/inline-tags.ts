// Tagged text: the single string form of every segment and memory entry, with inline markup kept.
//
// Text is literal Unicode, never XML-escaped (an API client that stores "a < b & c" gets it back as is).
// Inline markup is written in the string as XML elements from a closed vocabulary — TMX's and XLIFF 1.2's
// inline elements — so one form serves TMX import/export, XLIFF export, the format filters and matching:
//   code elements  <bpt …>native</bpt> <ept …>…</ept> <ph …>…</ph> <it …>…</it> <ut …>…</ut>
//                  one opaque part each; their content is native code, kept XML-escaped as in the file
//   paired         <g …>…</g> <hi …>…</hi> <mrk …>…</mrk> <sub …>…</sub>   open and close are parts
//   empty          <x …/> <bx …/> <ex …/>
// A "<…>" that does not match this grammar exactly is plain text. The one ambiguity — literal text that
// spells such an element — is accepted: it is rare and it round-trips through TMX and XLIFF unchanged.

import { escapeXmlAttr, escapeXmlText, unescapeXml } from '../xml/xml-escape.ts';

const EMPTY_ELEMENTS: readonly string[] = ['x', 'bx', 'ex'];

export type TagForm = 'code' | 'open' | 'close' | 'empty';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface TagPart {
  type: 'tag';
  form: TagForm;
  name: string;
  attrs: Record<string, string>;
  /** For code elements: the native code as XML-escaped element content (no nested markup kept apart). */
  content?: string;
  /** The exact characters of the part in the tagged string. */
  raw: string;
}

export type InlinePart = TextPart | TagPart;

const NAME = '(bpt|ept|ph|it|ut|g|hi|mrk|sub|x|bx|ex)';
const ATTRS = '((?:\\s+[A-Za-z_:][\\w:.-]*\\s*=\\s*(?:"[^"<]*"|\'[^\'<]*\'))*)\\s*';
// The three forms tried at each "<", in this order: a code element's start tag (its content, which may hold
// <sub> elements in TMX, runs to the first matching close tag), an empty element, open or close tag.
// Sticky, so each is tried only where a "<" stands. The code element's content is not part of the regular
// expression: a lazy `[\s\S]*?</bpt>` scans to the end of the text for every "<bpt>" that never closes,
// which made 51,200 of them (256 KB, a segment's source as a file gave it) take 10 s on the server's thread.
const CODE_START_RE = new RegExp(`<(bpt|ept|ph|it|ut)${ATTRS}(/?)>`, 'y');
const TAG_RE = new RegExp(`<${NAME}${ATTRS}(/?)>|</${NAME}\\s*>`, 'y');
const ATTR_RE = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function parseAttrs(source: string | undefined): Record<string, string> {
  const attrs: Record<string, string> = {};
  if (!source) return attrs;
  for (const m of source.matchAll(ATTR_RE)) attrs[m[1]] = unescapeXml(m[2] ?? m[3] ?? '');
  return attrs;
}

/**
 * Where each code element's close tag next occurs, looked up from increasing offsets: an answer is kept
 * while it is still ahead, and "none" is final (the scan only moves forward), so all look-ups of one text
 * together read it at most once per element name.
 */
class CloseTags {
  private readonly next = new Map<string, number>();
  constructor(private readonly text: string) {}

  /** The offset of the first `</name>` at or after `from`, or -1. */
  find(name: string, from: number): number {
    const known = this.next.get(name);
    if (known !== undefined && (known < 0 || known >= from)) return known;
    const at = this.text.indexOf(`</${name}>`, from);
    this.next.set(name, at);
    return at;
  }
}

/** The part written at `at` (a "<"), or null when none is: the grammar above, in its order. */
function tagAt(tagged: string, at: number, closes: CloseTags): TagPart | null {
  CODE_START_RE.lastIndex = at;
  const code = CODE_START_RE.exec(tagged);
  if (code) {
    const name = code[1];
    const contentStart = at + code[0].length;
    if (code[3] === '/') {
      return { type: 'tag', form: 'code', name, attrs: parseAttrs(code[2]), content: '', raw: code[0] };
    }
    const close = closes.find(name, contentStart);
    if (close >= 0) {
      const end = close + name.length + 3;
      const content = tagged.slice(contentStart, close);
      return {
        type: 'tag',
        form: 'code',
        name,
        attrs: parseAttrs(code[2]),
        content,
        raw: tagged.slice(at, end),
      };
    }
    // A code element that never closes is an open tag of that name (the next form's reading).
  }
  TAG_RE.lastIndex = at;
  const m = TAG_RE.exec(tagged);
  if (!m) return null;
  const raw = m[0];
  if (m[1]) {
    const isEmpty = m[3] === '/' || EMPTY_ELEMENTS.includes(m[1]);
    return { type: 'tag', form: isEmpty ? 'empty' : 'open', name: m[1], attrs: parseAttrs(m[2]), raw };
  }
  return { type: 'tag', form: 'close', name: m[4], attrs: {}, raw };
}

/** Splits tagged text into text and tag parts. Never throws: anything unrecognised is text. */
export function parseTagged(tagged: string): InlinePart[] {
  const parts: InlinePart[] = [];
  if (tagged.indexOf('<') < 0) return tagged ? [{ type: 'text', text: tagged }] : [];
  const closes = new CloseTags(tagged);
  let last = 0;
  for (let at = tagged.indexOf('<'); at >= 0; ) {
    const part = tagAt(tagged, at, closes);
    if (!part) {
      at = tagged.indexOf('<', at + 1);
      continue;
    }
    if (at > last) parts.push({ type: 'text', text: tagged.slice(last, at) });
    parts.push(part);
    last = at + part.raw.length;
    at = tagged.indexOf('<', last);
  }
  if (last < tagged.length) parts.push({ type: 'text', text: tagged.slice(last) });
  return parts;
}

/** Builds the raw form of a tag part from its fields (for filters that create tags). */
export function makeTag(
  form: TagForm,
  name: string,
  attrs: Record<string, string> = {},
  nativeCode = '',
): TagPart {
  const attrText = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeXmlAttr(v)}"`)
    .join('');
  let raw: string;
  if (form === 'close') raw = `</${name}>`;
  else if (form === 'empty') raw = `<${name}${attrText}/>`;
  else if (form === 'open') raw = `<${name}${attrText}>`;
  else raw = `<${name}${attrText}>${escapeXmlText(nativeCode)}</${name}>`;
  const part: TagPart = { type: 'tag', form, name, attrs, raw };
  if (form === 'code') part.content = escapeXmlText(nativeCode);
  return part;
}

/** The text alone, tags removed (for display, concordance and length limits). */
export function plainText(tagged: string): string {
  let out = '';
  for (const p of parseTagged(tagged)) if (p.type === 'text') out += p.text;
  return out;
}

/** The native code a code element stands for (its content unescaped), e.g. `<b>` for a bpt. */
export function nativeCode(part: TagPart): string {
  return unescapeXml(part.content ?? '');
}

/** A tag's identity across source and target: open tags by name and attributes, others as written. */
export function tagIdentity(tag: TagPart): string {
  if (tag.form === 'close') return `</${tag.name}>`;
  if (tag.form === 'open') {
    const attrs = Object.entries(tag.attrs)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => ` ${k}="${v}"`)
      .join('');
    return `<${tag.name}${attrs}>`;
  }
  return tag.raw;
}

/**
 * Open and close parts that nest properly, each mapped to its partner's index: a close pairs with the
 * innermost open when their names agree, else it stays unpaired. `only` limits which tags take part.
 */
export function pairTags(
  parts: readonly InlinePart[],
  only: (tag: TagPart) => boolean = () => true,
): Map<number, number> {
  const stack: number[] = [];
  const partners = new Map<number, number>();
  parts.forEach((p, i) => {
    if (p.type !== 'tag' || !only(p)) return;
    if (p.form === 'open') stack.push(i);
    else if (p.form === 'close') {
      const top = stack[stack.length - 1];
      if (top !== undefined && (parts[top] as TagPart).name === p.name) {
        stack.pop();
        partners.set(top, i).set(i, top);
      }
    }
  });
  return partners;
}
