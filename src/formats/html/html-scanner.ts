// Reads an HTML document as units: text of block elements with inline elements as tags, and the
// alt/title/placeholder/aria-label attributes and the meta description as units of their own.
//
// A unit is a run of adjacent inline content (text, b/i/a/span…, br/img) inside any non-inline element, so
// `<div>text<p>para</p>more</div>` gives three units. Whitespace runs are collapsed in the unit (HTML does
// not render them) and the unit's range leaves the surrounding whitespace out, so merge keeps the original
// layout. script, style, pre, code, textarea, svg, math and elements with translate="no" are left untouched
// (inside a paragraph they become tags). Where the parser repaired the markup (mis-nested or cloned
// formatting elements, stray end tags), runs are cut so that a unit never spans markup out of tree order.

import { type DefaultTreeAdapterMap, parse, parseFragment } from 'parse5';
import { FormatError } from '../../errors.ts';
import type { Range } from '../filter.ts';
import { type NativeUnit, NativeUnitBuilder } from '../native-splice.ts';
import {
  CODE_INLINE,
  ctypeOf,
  INLINE,
  OPAQUE_BLOCK,
  OPAQUE_INLINE,
  TRANSLATABLE_ATTRIBUTES,
  VOID_INLINE,
} from './html-elements.ts';
import { escapeHtmlAttr, escapeHtmlText } from './html-escape.ts';

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];
type TextNode = DefaultTreeAdapterMap['textNode'];

type Template = DefaultTreeAdapterMap['template'];

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const MAX_DEPTH = 512;

interface HtmlUnit extends NativeUnit {
  source: string;
  context: string;
  /** Attribute units only: the quote around the value ("" when the value is unquoted). */
  quote?: string;
}

type Item =
  | { kind: 'text'; start: number; end: number; value: string }
  | { kind: 'placeholder'; start: number; end: number; name: string; code: boolean }
  | {
      kind: 'element';
      start: number;
      end: number;
      name: string;
      open: Range;
      close: Range;
      children: Item[];
    };

const SPACE = /[ \t\n\f\r]+/g;
const STRAY_MARKUP = /<[a-zA-Z/!?][^>]*>/;
const NOT_SPACE = /[^ \t\n\f\r]/;

const isElement = (n: Node | ParentNode): n is Element => 'tagName' in n;
const noTranslate = (el: Element) =>
  el.attrs.some((a) => a.name === 'translate' && a.value.toLowerCase() === 'no');

export class HtmlScanner {
  readonly units: HtmlUnit[] = [];
  /** Where `<html lang>` is set on merge: the value's range, or an empty range where to add the attribute. */
  lang: { range: Range; quote: string } | null = null;
  private lastTextEnd = 0;

  constructor(private readonly html: string) {}

  scan(): HtmlUnit[] {
    const doc = parse(this.html, { sourceCodeLocationInfo: true });
    refuseDeepNesting(doc);
    this.walkContainer(doc, undefined, 'body');
    this.collectAttributes(doc, new Set());
    this.findLang(doc);
    return this.units.sort((a, b) => a.range.start - b.range.start);
  }

  private findLang(doc: ParentNode): void {
    const root = doc.childNodes.find(
      (n) => isElement(n as Node) && (n as Element).tagName === 'html',
    ) as Element;
    const startTag = root?.sourceCodeLocation?.startTag;
    if (!startTag) return;
    const lang = root.sourceCodeLocation?.attrs?.lang;
    if (lang) this.lang = this.attributeValue(lang.startOffset, lang.endOffset);
    else {
      const at = startTag.startOffset + '<html'.length;
      this.lang = { range: { start: at, end: at }, quote: 'add' };
    }
  }

  /** Children in tree order; inline elements the parser cloned (no location, or one before the parent) dissolved. */
  private children(parent: ParentNode, contentStart: number | undefined): Node[] {
    const out: Node[] = [];
    for (const child of parent.childNodes as Node[]) {
      const loc = isElement(child) ? child.sourceCodeLocation : undefined;
      const cloned =
        isElement(child) &&
        INLINE.has(child.tagName) &&
        (!loc || (contentStart !== undefined && loc.startOffset < contentStart));
      if (cloned) out.push(...this.children(child, contentStart));
      else out.push(child);
    }
    return out;
  }

  private walkContainer(parent: ParentNode, contentStart: number | undefined, context: string): void {
    let run: Item[] = [];
    const flush = () => {
      if (run.length > 0) this.addTextUnit(run, context);
      run = [];
    };
    for (const child of this.children(parent, contentStart)) {
      const items = this.inlineItems(child, contentStart);
      if (items) {
        for (const item of items) {
          // A gap between items is markup the tree does not hold (a stray end tag): the run stops there.
          if (run.length > 0 && run[run.length - 1].end !== item.start) flush();
          run.push(item);
        }
        continue;
      }
      flush();
      if (!isElement(child) || child.namespaceURI !== HTML_NS || noTranslate(child)) continue;
      if (OPAQUE_BLOCK.has(child.tagName) || OPAQUE_INLINE.has(child.tagName)) continue;
      this.walkContainer(child, child.sourceCodeLocation?.startTag?.endOffset, child.tagName);
    }
    flush();
  }

  /** The node as part of an inline run, or null when it is (or holds) block content. */
  private inlineItems(node: Node, contentStart: number | undefined): Item[] | null {
    if (node.nodeName === '#text' && node.sourceCodeLocation) {
      return this.textItems(
        node.sourceCodeLocation.startOffset,
        node.sourceCodeLocation.endOffset,
        (node as TextNode).value,
      );
    }
    const item = this.inlineItem(node, contentStart);
    return item && [item];
  }

  /**
   * A text node's items: one, or several when the parser joined text across markup it ignored (a stray end
   * tag): the pieces are then decoded one by one, and the gaps between them keep the markup out of units.
   */
  private textItems(start: number, end: number, value: string): Item[] {
    const raw = this.html.slice(start, end);
    if (!STRAY_MARKUP.test(raw)) return [{ kind: 'text', start, end, value }];
    const items: Item[] = [];
    let at = 0;
    for (const m of raw.matchAll(new RegExp(STRAY_MARKUP, 'g'))) {
      if (m.index > at)
        items.push({
          kind: 'text',
          start: start + at,
          end: start + m.index,
          value: decodeText(raw.slice(at, m.index)),
        });
      at = m.index + m[0].length;
    }
    if (at < raw.length)
      items.push({ kind: 'text', start: start + at, end, value: decodeText(raw.slice(at)) });
    return items;
  }

  private inlineItem(node: Node, contentStart: number | undefined): Item | null {
    const loc = node.sourceCodeLocation;
    if (!loc) return null;
    const { startOffset: start, endOffset: end } = loc;
    if (node.nodeName === '#comment')
      return { kind: 'placeholder', start, end, name: 'comment', code: false };
    if (!isElement(node)) return null;
    const name = node.tagName;
    if (node.namespaceURI !== HTML_NS || OPAQUE_INLINE.has(name) || VOID_INLINE.has(name)) {
      return { kind: 'placeholder', start, end, name, code: false };
    }
    if (CODE_INLINE.has(name)) return { kind: 'placeholder', start, end, name, code: true };
    const { startTag, endTag } = node.sourceCodeLocation!;
    if (!INLINE.has(name) || !startTag) return null;
    if (noTranslate(node)) return { kind: 'placeholder', start, end, name, code: false };
    const open = { start: startTag.startOffset, end: startTag.endOffset };
    // An element closed implicitly has no end tag: its close is the empty range at its end.
    const close = endTag ? { start: endTag.startOffset, end: endTag.endOffset } : { start: end, end };
    if (contentStart !== undefined && open.start < contentStart) return null;
    const children: Item[] = [];
    let at = open.end;
    for (const child of this.children(node, open.end)) {
      for (const item of this.inlineItems(child, open.end) ?? [null]) {
        if (!item || item.start !== at) return null;
        children.push(item);
        at = item.end;
      }
    }
    if (at !== close.start) return null;
    return { kind: 'element', start: open.start, end: close.end, name, open, close, children };
  }

  private addTextUnit(run: Item[], context: string): void {
    const items = run.filter((item, i) => {
      // Whitespace-only text at either end belongs to the layout, not to the unit.
      const edge = i === 0 || i === run.length - 1;
      return !(edge && item.kind === 'text' && !NOT_SPACE.test(item.value));
    });
    if (!items.some(hasText)) return;
    const first = items[0];
    const last = items[items.length - 1];
    const range = { start: first.start, end: last.end };
    if (first.kind === 'text') range.start += this.html.slice(first.start, first.end).search(NOT_SPACE);
    if (last.kind === 'text') range.end = last.start + this.html.slice(last.start, last.end).trimEnd().length;
    // Repaired markup can make ranges overlap: a unit never overlaps the one before it.
    if (range.start < this.lastTextEnd) return;
    this.lastTextEnd = range.end;

    const builder = new NativeUnitBuilder();
    const emit = (list: readonly Item[]) => {
      for (const item of list) {
        if (item.kind === 'text') {
          let value = item.value;
          if (item === first) value = value.replace(/^[ \t\n\f\r]+/, '');
          if (item === last) value = value.replace(/[ \t\n\f\r]+$/, '');
          builder.text(value.replace(SPACE, ' '), escapeHtmlText);
        } else if (item.kind === 'placeholder') {
          const ctype = ctypeOf(item.name);
          if (item.code) builder.code(item, this.html.slice(item.start, item.end), { ctype });
          else builder.placeholder(item, { ctype });
        } else {
          builder.open(item.open, item.close, { ctype: ctypeOf(item.name) });
          emit(item.children);
          builder.close();
        }
      }
    };
    emit(items);
    this.units.push({ range, tags: builder.tags, source: builder.tagged, context });
  }

  /** Attribute units of every element outside untouched content; a cloned element's are counted once. */
  private collectAttributes(parent: ParentNode, seen: Set<number>): void {
    for (const child of parent.childNodes as Node[]) {
      if (!isElement(child) || child.namespaceURI !== HTML_NS || noTranslate(child)) continue;
      const name = child.tagName;
      if (OPAQUE_BLOCK.has(name) || OPAQUE_INLINE.has(name) || CODE_INLINE.has(name)) continue;
      const attrLocs = child.sourceCodeLocation?.attrs ?? {};
      const isDescription =
        name === 'meta' &&
        child.attrs.some((a) => a.name === 'name' && a.value.toLowerCase() === 'description');
      for (const attr of child.attrs) {
        const loc = attrLocs[attr.name];
        const wanted = TRANSLATABLE_ATTRIBUTES.has(attr.name) || (isDescription && attr.name === 'content');
        if (!wanted || !loc || seen.has(loc.startOffset) || !NOT_SPACE.test(attr.value)) continue;
        seen.add(loc.startOffset);
        const unit = this.attributeUnit(loc.startOffset, loc.endOffset, attr.value);
        if (unit)
          this.units.push({
            ...unit,
            context: isDescription ? 'meta[name=description]' : `${name}[${attr.name}]`,
          });
      }
      this.collectAttributes(child, seen);
    }
  }

  private attributeUnit(start: number, end: number, value: string): Omit<HtmlUnit, 'context'> | null {
    const at = this.attributeValue(start, end);
    if (!at) return null;
    const builder = new NativeUnitBuilder();
    // The value's edge whitespace stays in the file, as a text unit's does (docs/MATCHING.md §1.1); a
    // no-break space at its edges is the unit's, then the segment's skeleton, as in text.
    builder.text(value.replace(SPACE, ' ').replace(/^ | $/g, ''), (s) => escapeHtmlAttr(s, at.quote || '"'));
    const range = { ...at.range };
    while (range.start < range.end && !NOT_SPACE.test(this.html[range.start])) range.start++;
    while (range.end > range.start && !NOT_SPACE.test(this.html[range.end - 1])) range.end--;
    return { range, tags: builder.tags, source: builder.tagged, quote: at.quote };
  }

  /** The range of an attribute's value (inside its quotes) from the range of the whole attribute. */
  private attributeValue(start: number, end: number): { range: Range; quote: string } | null {
    const raw = this.html.slice(start, end);
    const eq = /^[^\s=]+\s*=\s*/.exec(raw);
    if (!eq) return null;
    const valueStart = start + eq[0].length;
    const first = raw[eq[0].length];
    const quote = first === '"' || first === "'" ? first : '';
    return { range: quote ? { start: valueStart + 1, end: end - 1 } : { start: valueStart, end }, quote };
  }
}

/**
 * Elements nested deeper than a browser builds them (Chromium's parser stops nesting at 512) are refused
 * before the recursive walks below meet them: 20,000 nested `<div>` ran V8's stack out.
 */
function refuseDeepNesting(doc: ParentNode): void {
  const pending: [ParentNode, number][] = [[doc, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [parent, depth] = next;
    for (const child of parent.childNodes as Node[]) {
      if (!isElement(child)) continue;
      if (depth === MAX_DEPTH) {
        const at = child.sourceCodeLocation;
        throw new FormatError(
          `HTML: elements nested more than ${MAX_DEPTH} deep`,
          at?.startLine,
          at?.startCol,
        );
      }
      pending.push([child, depth + 1]);
      if (child.tagName === 'template') pending.push([(child as Template).content, depth + 1]);
    }
  }
}

/** Character data with its references decoded, as the parser decodes it. */
function decodeText(raw: string): string {
  return parseFragment(raw)
    .childNodes.map((n) => (n.nodeName === '#text' ? (n as TextNode).value : ''))
    .join('');
}

function hasText(item: Item): boolean {
  if (item.kind === 'text') return NOT_SPACE.test(item.value.replace(/\u00a0/g, ' '));
  return item.kind === 'element' && item.children.some(hasText);
}
