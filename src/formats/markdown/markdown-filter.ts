// Markdown filter: paragraphs, headings and table cells as units; emphasis, links and image alt text as
// tags around their text; inline code, inline HTML and hard breaks as protected codes; merge by splicing.
//
// Code blocks, HTML blocks, link definitions and front matter are left untouched, and a URL is never part
// of a unit (it lives in a tag's native markup). Soft line breaks become spaces in the unit and a translated
// paragraph is written on one line (hard breaks kept), which Markdown reads as the same paragraph, also
// inside block quotes and list items (lazy continuation). Text is escaped on merge wherever Markdown would
// read it as markup. Tables are GitHub-style: without the GFM parser extension installed they parse as
// paragraphs, so a paragraph whose lines include a delimiter row is cut into cells here, and each cell is
// parsed on its own (with the document's link definitions, so reference links keep working).

import type { Heading, Nodes, Paragraph, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { FormatError } from '../../errors.ts';
import { applyEdits, checkedMerge, type ExtractedUnit, type FormatFilter, unitEdits } from '../filter.ts';
import { type NativeUnit, NativeUnitBuilder, renderTranslation } from '../native-splice.ts';
import { decodeText, encodeText } from '../text-encoding.ts';

interface MarkdownUnit extends NativeUnit {
  source: string;
  context: string;
  /** Cells need `|` escaped. */
  inTable: boolean;
}

const FRONT_MATTER = /^(---|\+\+\+)[ \t]*\r?\n[\s\S]*?\r?\n\1[ \t]*(?:\r?\n|$)/;
const DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const SOFT_BREAK = /[ \t]*\r?\n[ \t]*/g;
const THEMATIC_BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})\r?$/;

/** Front matter blanked out (every character but line ends → space): offsets stay true, Markdown sees blank lines. */
function withoutFrontMatter(md: string): string {
  const m = FRONT_MATTER.exec(md);
  return m ? m[0].replace(/[^\r\n]/g, ' ') + md.slice(m[0].length) : md;
}

const offsetOf = (n: Nodes, side: 'start' | 'end') => n.position![side].offset!;

class MarkdownScanner {
  readonly units: MarkdownUnit[] = [];
  private definitions = '';

  constructor(private readonly md: string) {}

  scan(): MarkdownUnit[] {
    const text = withoutFrontMatter(this.md);
    refuseStackedContainers(text);
    const tree = fromMarkdown(text);
    refuseDeepNesting(tree);
    this.definitions = tree.children
      .filter((n) => n.type === 'definition')
      .map((n) => this.md.slice(offsetOf(n, 'start'), offsetOf(n, 'end')))
      .join('\n');
    this.visit(tree, 'paragraph');
    return this.units;
  }

  private visit(node: Root | Nodes, context: string): void {
    if (node.type === 'paragraph') {
      if (!this.table(node)) this.addUnit(node.children, 0, context, false);
    } else if (node.type === 'heading') {
      this.addUnit((node as Heading).children, 0, `heading ${(node as Heading).depth}`, false);
    } else if ('children' in node && node.type !== 'link' && node.type !== 'linkReference') {
      const inner =
        node.type === 'listItem' ? 'list item' : node.type === 'blockquote' ? 'blockquote' : context;
      for (const child of node.children as Nodes[]) this.visit(child, inner);
    }
  }

  /** A paragraph holding a GitHub table (a delimiter row under a header row) gives one unit per cell. */
  private table(paragraph: Paragraph): boolean {
    const start = offsetOf(paragraph, 'start');
    const lines: { start: number; text: string }[] = [];
    let at = start;
    for (const text of this.md.slice(start, offsetOf(paragraph, 'end')).split('\n')) {
      lines.push({ start: at, text: text.replace(/\r$/, '') });
      at += text.length + 1;
    }
    const delimiter = lines.findIndex((l, i) => i > 0 && l.text.includes('|') && DELIMITER_ROW.test(l.text));
    if (delimiter < 0) return false;
    // Lines above the header row are a paragraph of their own.
    const header = lines[delimiter - 1];
    if (delimiter > 1) this.addSliceUnit(start, header.start - 1, 'paragraph', false);
    lines.forEach((line, i) => {
      if (i < delimiter - 1 || i === delimiter) return;
      for (const cell of cells(line.text))
        this.addSliceUnit(line.start + cell.start, line.start + cell.end, 'table cell', true);
    });
    return true;
  }

  /** Parses a slice of the document on its own and adds its first paragraph or heading as a unit. */
  private addSliceUnit(start: number, end: number, context: string, inTable: boolean): void {
    const slice = this.md.slice(start, end);
    const tree = fromMarkdown(this.definitions ? `${slice}\n\n${this.definitions}` : slice);
    const block = firstTextBlock(tree);
    if (block && offsetOf(block, 'end') <= slice.length)
      this.addUnit(block.children, start, context, inTable);
  }

  private addUnit(children: PhrasingContent[], shift: number, context: string, inTable: boolean): void {
    if (children.length === 0 || !children.some(hasText)) return;
    const builder = new NativeUnitBuilder();
    const escapeNative = (s: string) => escapeMarkdown(s, 'x', inTable);
    const range = (start: number, end: number) => ({ start: start + shift, end: end + shift });
    const emit = (nodes: PhrasingContent[]) => {
      for (const n of nodes) {
        const start = offsetOf(n, 'start');
        const end = offsetOf(n, 'end');
        const raw = () => this.md.slice(start + shift, end + shift);
        if (n.type === 'text') builder.text(n.value.replace(SOFT_BREAK, ' '), escapeNative);
        else if (n.type === 'inlineCode' || n.type === 'html')
          builder.code(range(start, end), raw(), { ctype: `x-${n.type}` });
        else if (n.type === 'break') builder.placeholder(range(start, end), { ctype: 'lb' });
        else if ((n.type === 'image' || n.type === 'imageReference') && n.alt) {
          const labelEnd = start + labelLength(raw(), 1);
          builder.open(range(start, start + 2), range(labelEnd, end), { ctype: 'x-image' });
          builder.text(n.alt.replace(SOFT_BREAK, ' '), escapeNative);
          builder.close();
        } else if ('children' in n && n.children.length > 0 && !raw().startsWith('<')) {
          const first = n.children[0];
          const last = n.children[n.children.length - 1];
          const ctype =
            n.type === 'link' || n.type === 'linkReference'
              ? 'link'
              : n.type === 'strong'
                ? 'bold'
                : 'italic';
          builder.open(range(start, offsetOf(first, 'start')), range(offsetOf(last, 'end'), end), { ctype });
          emit(n.children);
          builder.close();
        } else builder.code(range(start, end), raw(), { ctype: `x-${n.type}` }); // autolinks, empty links
      }
    };
    emit(children);
    const source = builder.tagged;
    const first = children[0];
    const last = children[children.length - 1];
    const unit = {
      range: range(offsetOf(first, 'start'), offsetOf(last, 'end')),
      tags: builder.tags,
      context,
      inTable,
    };
    this.units.push({ ...unit, source });
  }
}

/**
 * Block quotes and list items open at once on one line, at most. The parser's time grows with their square
 * (4,000 list markers on one 8 KB line took 6.7 s), so a line stacking more is refused before it is parsed.
 * A thematic break (`- - - -`, `* * *`) is one element however many marks it has.
 */
const MAX_STACKED_CONTAINERS = 64;
/** Nodes nested in each other, at most: the walks below recurse once a level (nested emphasis, quotes). */
const MAX_DEPTH = 256;

function refuseStackedContainers(md: string): void {
  let line = 1;
  for (let start = 0; start < md.length; line++) {
    const newline = md.indexOf('\n', start);
    const end = newline < 0 ? md.length : newline;
    let at = start;
    let stacked = 0;
    for (;;) {
      while (md[at] === ' ' || md[at] === '\t') at++;
      const c = md[at];
      if (c === '>') at++;
      else if ((c === '-' || c === '+' || c === '*') && (md[at + 1] === ' ' || md[at + 1] === '\t')) at += 2;
      else {
        let digits = at;
        while (digits < end && digits - at < 9 && md[digits] >= '0' && md[digits] <= '9') digits++;
        if (digits === at || (md[digits] !== '.' && md[digits] !== ')') || md[digits + 1] !== ' ') break;
        at = digits + 2;
      }
      stacked++;
      if (stacked > MAX_STACKED_CONTAINERS && !THEMATIC_BREAK.test(md.slice(start, end))) {
        throw new FormatError(
          `Markdown: more than ${MAX_STACKED_CONTAINERS} block quotes or list items opened on one line`,
          line,
          at - start,
        );
      }
    }
    start = end + 1;
  }
}

function refuseDeepNesting(tree: Root): void {
  const pending: [Root | Nodes, number][] = [[tree, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (!('children' in node)) continue;
    for (const child of node.children as Nodes[]) {
      if (depth === MAX_DEPTH) {
        const at = child.position?.start;
        throw new FormatError(`Markdown: elements nested more than ${MAX_DEPTH} deep`, at?.line, at?.column);
      }
      pending.push([child, depth + 1]);
    }
  }
}

function firstTextBlock(node: Root | Nodes): Paragraph | Heading | null {
  if (node.type === 'paragraph' || node.type === 'heading') return node;
  if (!('children' in node)) return null;
  for (const child of node.children as Nodes[]) {
    const found = firstTextBlock(child);
    if (found) return found;
  }
  return null;
}

function hasText(n: PhrasingContent): boolean {
  if (n.type === 'text') return /\S/.test(n.value);
  if (n.type === 'image' || n.type === 'imageReference') return /\S/.test(n.alt ?? '');
  return 'children' in n && n.children.some(hasText);
}

/** Length of `![label]`/`[label]` up to and including its closing bracket; `open` is the index of `[`. */
function labelLength(raw: string, open: number): number {
  let depth = 0;
  for (let i = open; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return raw.length;
}

/** The cells of a table row: offsets of each cell's trimmed content within the line. */
function cells(line: string): { start: number; end: number }[] {
  const bounds: number[] = [];
  let inCode = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '`') inCode = !inCode;
    else if (line[i] === '|' && !inCode) bounds.push(i);
  }
  const edges = [-1, ...bounds, line.length];
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const raw = line.slice(edges[i] + 1, edges[i + 1]);
    const lead = raw.length - raw.trimStart().length;
    const content = raw.trim();
    // The empty outside of a leading or trailing pipe is not a cell.
    if (content) out.push({ start: edges[i] + 1 + lead, end: edges[i] + 1 + lead + content.length });
  }
  return out;
}

/**
 * Escapes text so Markdown reads it as text: backslash, backtick, *, brackets, `<`, entity-like `&`, `_` at
 * word edges, `|` in table cells, and block markers at the start of a line. `before` is the output so far
 * ("" at the start of the unit, ending in a newline after a hard break).
 */
function escapeMarkdown(text: string, before: string, inTable: boolean): string {
  let out = text
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*[\]<]/g, '\\$&')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
    .replace(/_/g, (_m, i: number, s: string) =>
      /[\p{L}\p{N}]/u.test(s[i - 1] ?? '') && /[\p{L}\p{N}]/u.test(s[i + 1] ?? '') ? '_' : '\\_',
    );
  if (inTable) out = out.replace(/\|/g, '\\|');
  if (before === '' || before.endsWith('\n')) {
    out = out.replace(
      /^([ \t]*)(#|>|=|~|[-+](?=[ \t]|$)|\d{1,9}(?=[.)]))/,
      (_m, ws: string, marker: string) => (/^\d/.test(marker) ? `${ws}${marker}\\` : `${ws}\\${marker}`),
    );
  }
  return out;
}

/** The decoded file and its units, as extract and merge both read it. */
function readMarkdown(original: Buffer) {
  const decoded = decodeText(original, 'Markdown');
  return { decoded, units: new MarkdownScanner(decoded.text).scan() };
}

export const markdownFilter: FormatFilter = {
  name: 'markdown',
  extensions: ['.md'],
  mediaType: 'text/markdown; charset=utf-8',
  contextIsKey: false,
  segmentation: 'sentence',
  slowOnHostileInput: true,

  async extract(original) {
    return readMarkdown(original).units.map(
      (u): ExtractedUnit => ({ source: u.source, context: u.context, segmentable: true }),
    );
  },

  merge: checkedMerge('Markdown', (original) => {
    const { decoded, units } = readMarkdown(original);
    return {
      units: units.length,
      write(translations) {
        const edits = unitEdits(units, translations, (unit, t) => {
          const escapeText = (s: string, before: string) => escapeMarkdown(s, before, unit.inTable);
          return {
            ...unit.range,
            replace: (render) => renderTranslation(t.text.trim(), unit, escapeText, render),
          };
        });
        return encodeText(applyEdits(decoded.text, edits), decoded);
      },
    };
  }),
};
