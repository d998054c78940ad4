// Word (.docx) filter: the paragraphs of the main document, headers, footers, footnotes and endnotes.
//
// Parts are found through [Content_Types].xml. Paragraphs inside text boxes are units too (their
// duplicate in an mc:Fallback is left as it is). Merge rewrites only the parts that hold a translated
// paragraph and copies every other zip entry's content unchanged; with nothing translated it returns the
// upload itself, because a re-written zip is never byte-identical (compression, timestamps, extra fields).

import { FormatError } from '../../errors.ts';
import { decodeXml, scanXml } from '../../xml/xml-scan.ts';
import { applyEdits, checkedMerge, type ExtractedUnit, type FormatFilter, unitEdits } from '../filter.ts';
import { type DocxUnit, ParagraphReader, W_NAMESPACES, type XNode } from './docx-paragraph.ts';
import { renderParagraph } from './docx-runs.ts';
import { readZip, writeZip, type ZipEntry } from './zip-package.ts';

const WORDML = 'application/vnd.openxmlformats-officedocument.wordprocessingml.';
/** Content types of the parts translated, in the order their units come. */
const PART_KINDS = ['main', 'header', 'footer', 'footnotes', 'endnotes'] as const;
const MC_NAMESPACE = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

interface TextPart {
  entry: ZipEntry;
  units: DocxUnit[];
  xml: string;
  encode(xml: string): Buffer;
}

function kindOf(contentType: string): (typeof PART_KINDS)[number] | null {
  if (!contentType.startsWith(WORDML)) return null;
  const rest = contentType.slice(WORDML.length);
  if (/^(document|template)(\.macroEnabled(Template)?)?\.main\+xml$/.test(rest)) return 'main';
  const kind = rest.replace(/\+xml$/, '');
  return (PART_KINDS as readonly string[]).includes(kind) ? (kind as (typeof PART_KINDS)[number]) : null;
}

/** The package's translatable parts, main document first, then headers, footers, footnotes, endnotes. */
function textPartNames(entries: Map<string, ZipEntry>): string[] {
  const types = entries.get('[Content_Types].xml');
  if (!types) throw new FormatError('DOCX: not a Word document ([Content_Types].xml is missing)');
  const parts: { name: string; kind: number }[] = [];
  scanXml(decodeXml(types.data, 'DOCX [Content_Types].xml').text, 'DOCX [Content_Types].xml', {
    open(el) {
      if (el.local !== 'Override' || !el.attrs.PartName || !el.attrs.ContentType) return;
      const kind = kindOf(el.attrs.ContentType);
      const name = el.attrs.PartName.replace(/^\//, '');
      if (kind && entries.has(name)) parts.push({ name, kind: PART_KINDS.indexOf(kind) });
    },
  });
  if (!parts.some((p) => p.kind === 0))
    throw new FormatError('DOCX: not a Word document (no main document part)');
  const collator = new Intl.Collator('en', { numeric: true });
  return parts.sort((a, b) => a.kind - b.kind || collator.compare(a.name, b.name)).map((p) => p.name);
}

/** Parses a part into a tree of elements with offsets, keeping the text of w:t elements. */
function parseTree(xml: string, what: string): XNode[] {
  const roots: XNode[] = [];
  const stack: XNode[] = [];
  scanXml(xml, what, {
    open(el) {
      const node: XNode = { el, closeStart: -1, end: -1, children: [], text: '' };
      (stack.length > 0 ? stack[stack.length - 1].children : roots).push(node);
      stack.push(node);
    },
    close(_el, closeStart, end) {
      const node = stack.pop()!;
      node.closeStart = closeStart;
      node.end = end;
    },
    text(t) {
      const top = stack[stack.length - 1];
      if (top && top.el.local === 't' && W_NAMESPACES.has(top.el.uri)) top.text += t;
    },
  });
  return roots;
}

function readPart(entry: ZipEntry): TextPart {
  const what = `DOCX ${entry.name}`;
  const { text: xml, encode } = decodeXml(entry.data, what);
  const reader = new ParagraphReader(xml);
  const units: DocxUnit[] = [];
  const visit = (node: XNode) => {
    if (node.el.local === 'Fallback' && node.el.uri === MC_NAMESPACE) return;
    if (node.el.local === 'p' && W_NAMESPACES.has(node.el.uri)) {
      const unit = reader.read(node, entry.name);
      if (unit) units.push(unit);
    }
    for (const child of node.children) visit(child);
  };
  for (const root of parseTree(xml, what)) visit(root);
  return { entry, units, xml, encode };
}

async function readPackage(original: Buffer): Promise<{ entries: ZipEntry[]; parts: TextPart[] }> {
  const entries = await readZip(original, 'DOCX');
  const byName = new Map(entries.map((e) => [e.name, e]));
  const parts = textPartNames(byName).map((name) => readPart(byName.get(name)!));
  return { entries, parts };
}

export const docxFilter: FormatFilter = {
  name: 'docx',
  extensions: ['.docx'],
  mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  contextIsKey: false,
  segmentation: 'sentence',

  async extract(original) {
    const { parts } = await readPackage(original);
    return parts.flatMap((part) =>
      part.units.map((u): ExtractedUnit => ({ source: u.source, context: u.context, segmentable: true })),
    );
  },

  merge: checkedMerge('DOCX', async (original) => {
    const { entries, parts } = await readPackage(original);
    return {
      units: parts.reduce((n, p) => n + p.units.length, 0),
      async write(translations) {
        const replaced = new Map<ZipEntry, Buffer>();
        let first = 0;
        for (const part of parts) {
          const mine = translations.slice(first, first + part.units.length);
          first += part.units.length;
          const edits = unitEdits(part.units, mine, (unit, t) => ({
            ...unit.range,
            replace: (render) => renderParagraph(t.text, unit, render),
          }));
          if (edits.length > 0) replaced.set(part.entry, part.encode(applyEdits(part.xml, edits)));
        }
        return writeZip(entries.map((e) => (replaced.has(e) ? { ...e, data: replaced.get(e)! } : e)));
      },
    };
  }),
};
