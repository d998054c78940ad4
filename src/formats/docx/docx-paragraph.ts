// One WordprocessingML paragraph (w:p) as a unit of tagged text (docx-runs.ts writes a translation back).
//
// Runs are grouped by formatting (their w:rPr): the formatting that covers most of the text is the
// paragraph's base and needs no tag; text in any other formatting is wrapped in `<g id>`. Hyperlinks,
// insertions, content controls and smart tags are `<g>` around their content. Tabs, breaks, drawings,
// fields' codes, footnote references, bookmarks and anything else that is not text are `<x/>` placeholders
// whose markup is written back unchanged. Merge replaces the paragraph's runs from the first to the last that
// holds text (properties, leading bookmarks and the like stay untouched) with one run per stretch of text in
// the formatting of its enclosing tag.

import { makeTag } from '../../text/inline-tags.ts';
import type { XmlElement } from '../../xml/xml-scan.ts';
import type { Range } from '../filter.ts';
import { literalToTagged } from '../tagged-literal.ts';

export const W_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
]);

/** An element of a part with its offsets; text is kept for w:t only. */
export interface XNode {
  el: XmlElement;
  closeStart: number;
  end: number;
  children: XNode[];
  text: string;
}

/** Native markup of a placeholder: paragraph-level markup as is, run content inside a run of its formatting. */
type Piece = { kind: 'raw'; range: Range } | { kind: 'inRun'; rPr: string; range: Range };

export type DocxTag =
  | { kind: 'placeholder'; pieces: Piece[] }
  | { kind: 'format'; rPr: string }
  | { kind: 'wrapper'; open: Range; close: Range; base: string }
  /** Text that spells a tag of the model, protected as a ph: written back as text. */
  | { kind: 'literal'; text: string };

/** Whitespace at an edge of the paragraph's text, kept out of the unit and written back around it. */
interface EdgeSpace {
  rPr: string;
  text: string;
}

export interface DocxUnit {
  range: Range;
  source: string;
  context: string;
  tags: Map<string, DocxTag>;
  base: string;
  lead: EdgeSpace | null;
  trail: EdgeSpace | null;
  /** Prefix of the w namespace in this part ("w:"). */
  prefix: string;
}

type Item =
  | { kind: 'text'; rPr: string; text: string }
  | { kind: 'placeholder'; rPr: string | null; name: string; pieces: Piece[] }
  | { kind: 'wrapper'; name: string; open: Range; close: Range; items: Item[] };

/** Paragraph children that wrap runs and stay around the translated text. */
const WRAPPERS = new Set(['hyperlink', 'smartTag', 'customXml', 'ins', 'moveTo', 'dir', 'bdo', 'sdt']);
/** Markers that carry nothing a translated paragraph needs (spell-check state, layout cache). */
const DROPPED = new Set(['proofErr', 'lastRenderedPageBreak']);
const CHARACTERS: Record<string, string> = { noBreakHyphen: '\u2011', softHyphen: '\u00ad' };
const PLACEHOLDER_CTYPES: Record<string, string> = { br: 'lb', cr: 'lb', drawing: 'image', pict: 'image' };

const isW = (n: XNode, local: string) => n.el.local === local && W_NAMESPACES.has(n.el.uri);

export class ParagraphReader {
  constructor(private readonly xml: string) {}

  /** The paragraph's unit, or null when it holds no text. */
  read(p: XNode, context: string): DocxUnit | null {
    const entries = p.children.filter((c) => !isW(c, 'pPr')).map((c) => ({ node: c, items: this.items(c) }));
    const hasText = (items: Item[]): boolean =>
      items.some((i) => (i.kind === 'text' ? /\S/.test(i.text) : i.kind === 'wrapper' && hasText(i.items)));
    const first = entries.findIndex((e) => hasText(e.items));
    if (first < 0) return null;
    let last = entries.length - 1;
    while (!hasText(entries[last].items)) last--;
    const span = entries.slice(first, last + 1);
    const items = mergeAdjacent(span.flatMap((e) => e.items));
    const lead = edgeSpace(items, 0, /^\s+/);
    const trail = edgeSpace(items, items.length - 1, /\s+$/);
    const builder = new DocxUnitBuilder();
    const base = baseFormat(items);
    builder.emit(items, base);
    const style = p.children.find((c) => isW(c, 'pPr'))?.children.find((c) => isW(c, 'pStyle'));
    const styleName = style && Object.entries(style.el.attrs).find(([k]) => k.endsWith(':val'))?.[1];
    return {
      range: { start: span[0].node.el.start, end: span[span.length - 1].node.end },
      source: builder.tagged,
      context: styleName ? `${context} (${styleName})` : context,
      tags: builder.tags,
      base,
      lead,
      trail,
      prefix: p.el.prefix ? `${p.el.prefix}:` : '',
    };
  }

  private items(node: XNode): Item[] {
    if (!W_NAMESPACES.has(node.el.uri)) return [this.placeholder(node, null)];
    const local = node.el.local;
    if (DROPPED.has(local)) return [];
    if (local === 'r') return this.runItems(node);
    if (WRAPPERS.has(local)) {
      const content = local === 'sdt' ? node.children.find((c) => isW(c, 'sdtContent')) : node;
      const inner = content?.children.filter((c) => !c.el.local.endsWith('Pr')) ?? [];
      if (inner.length === 0) return [this.placeholder(node, null)];
      return [
        {
          kind: 'wrapper',
          name: local,
          open: { start: node.el.start, end: inner[0].el.start },
          close: { start: inner[inner.length - 1].end, end: node.end },
          items: mergeAdjacent(inner.flatMap((c) => this.items(c))),
        },
      ];
    }
    return [this.placeholder(node, null)];
  }

  private runItems(run: XNode): Item[] {
    const rPrNode = run.children.find((c) => isW(c, 'rPr'));
    const rPr = rPrNode ? this.xml.slice(rPrNode.el.start, rPrNode.end) : '';
    const items: Item[] = [];
    for (const child of run.children) {
      if (child === rPrNode || (W_NAMESPACES.has(child.el.uri) && DROPPED.has(child.el.local))) continue;
      if (isW(child, 't')) items.push({ kind: 'text', rPr, text: child.text });
      else if (W_NAMESPACES.has(child.el.uri) && CHARACTERS[child.el.local]) {
        items.push({ kind: 'text', rPr, text: CHARACTERS[child.el.local] });
      } else items.push(this.placeholder(child, rPr));
    }
    return items;
  }

  private placeholder(node: XNode, rPr: string | null): Item {
    const range = { start: node.el.start, end: node.end };
    const pieces: Piece[] = [rPr === null ? { kind: 'raw', range } : { kind: 'inRun', rPr, range }];
    return { kind: 'placeholder', rPr, name: node.el.local, pieces };
  }
}

/** Takes the whitespace matched by `edge` off the text item at `index` (in place) and returns it. */
function edgeSpace(items: Item[], index: number, edge: RegExp): EdgeSpace | null {
  const item = items[index];
  if (item?.kind !== 'text') return null;
  const space = edge.exec(item.text)?.[0];
  if (!space) return null;
  items[index] = { ...item, text: item.text.replace(edge, '') };
  return { rPr: item.rPr, text: space };
}

/** Joins text of the same formatting and placeholders that follow each other. */
function mergeAdjacent(items: Item[]): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (prev?.kind === 'text' && item.kind === 'text' && prev.rPr === item.rPr) {
      out[out.length - 1] = { ...prev, text: prev.text + item.text };
    } else if (prev?.kind === 'placeholder' && item.kind === 'placeholder' && prev.rPr === item.rPr) {
      out[out.length - 1] = { ...prev, pieces: [...prev.pieces, ...item.pieces] };
    } else out.push(item);
  }
  return out;
}

/** The formatting of most of the text at this level (ties: the first). */
function baseFormat(items: readonly Item[]): string {
  const length = new Map<string, number>();
  for (const i of items) if (i.kind === 'text') length.set(i.rPr, (length.get(i.rPr) ?? 0) + i.text.length);
  let base = '';
  let best = -1;
  for (const [rPr, n] of length) {
    if (n > best) [base, best] = [rPr, n];
  }
  return base;
}

class DocxUnitBuilder {
  tagged = '';
  readonly tags = new Map<string, DocxTag>();
  private readonly ids = { last: 0 };

  emit(items: readonly Item[], base: string): void {
    let group: string | null = null;
    const closeGroup = () => {
      if (group !== null) this.tagged += '</g>';
      group = null;
    };
    for (const item of items) {
      if (item.kind === 'text') {
        if (item.rPr === base) closeGroup();
        else if (group !== item.rPr) {
          closeGroup();
          this.open({ kind: 'format', rPr: item.rPr });
          group = item.rPr;
        }
        this.text(item.text);
      } else if (item.kind === 'placeholder') {
        if (group !== item.rPr) closeGroup();
        const id = this.id({ kind: 'placeholder', pieces: item.pieces });
        this.tagged += makeTag('empty', 'x', {
          id,
          ctype: PLACEHOLDER_CTYPES[item.name] ?? `x-${item.name}`,
        }).raw;
      } else {
        closeGroup();
        const inner = baseFormat(item.items);
        this.open(
          { kind: 'wrapper', open: item.open, close: item.close, base: inner },
          item.name === 'hyperlink' ? 'link' : `x-${item.name}`,
        );
        this.emit(item.items, inner);
        this.tagged += '</g>';
      }
    }
    closeGroup();
  }

  private id(tag: DocxTag): string {
    const id = String(++this.ids.last);
    this.tags.set(id, tag);
    return id;
  }

  private open(tag: DocxTag, ctype?: string): void {
    const id = this.id(tag);
    this.tagged += makeTag('open', 'g', ctype ? { id, ctype } : { id }).raw;
  }

  private text(text: string): void {
    this.tagged += literalToTagged(text, {
      ids: this.ids,
      onCode: (id, native) => this.tags.set(id, { kind: 'literal', text: native }),
    });
  }
}
