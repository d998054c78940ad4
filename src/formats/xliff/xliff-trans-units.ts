// Reads the trans-units of an XLIFF 1.0–1.2 document with the offsets a merge needs: each source, seg-source
// and target (with its <mrk mtype="seg"> segments), the translate flag as groups inherit it, resname and notes.

import { FormatError } from '../../errors.ts';
import { lineColumn, scanXml, type XmlElement } from '../../xml/xml-scan.ts';
import { TaggedTextReader, XLIFF_1_NAMESPACES } from './xliff-tagged-reader.ts';

interface MrkSegment {
  mid: string;
  tagged: string;
  innerStart: number;
  innerEnd: number;
}

interface Content {
  el: XmlElement;
  closeStart: number;
  end: number;
  tagged: string;
  /** Set when the element was read as <mrk mtype="seg"> segments. */
  segments?: MrkSegment[];
}

export interface TransUnit {
  resname?: string;
  approved: boolean;
  translate: boolean;
  /** Whitespace before <source>, reused to indent an inserted <target>. */
  indent: string;
  source?: Content;
  segSource?: Content;
  target?: Content;
  notes: string[];
}

type ContentKind = 'source' | 'seg-source' | 'target';

/** Reads every trans-unit of the document with the offsets merge needs. */
export function readTransUnits(text: string): TransUnit[] {
  const units: TransUnit[] = [];
  const translate: boolean[] = [true];
  let depth = 0;
  let tu: TransUnit | null = null;
  let tuDepth = 0;
  let note: { text: string; depth: number } | null = null;
  let capture: {
    kind: ContentKind;
    el: XmlElement;
    depth: number;
    reader: TaggedTextReader | null;
    segmented: boolean;
    segments: MrkSegment[];
    segment: { el: XmlElement; reader: TaggedTextReader } | null;
  } | null = null;
  const isX = (el: XmlElement, local: string) => el.local === local && XLIFF_1_NAMESPACES.has(el.uri);

  scanXml(text, 'XLIFF', {
    open(el) {
      depth++;
      if (depth === 1) checkRoot(text, el);
      if (note) {
        note.depth++;
        return;
      }
      if (capture) {
        if (capture.segment) capture.segment.reader.open(el);
        else if (capture.reader) capture.reader.open(el);
        else if (capture.depth === 0 && isX(el, 'mrk') && el.attrs.mtype === 'seg') {
          capture.segment = { el, reader: new TaggedTextReader(text) };
        }
        capture.depth++;
        return;
      }
      if (isX(el, 'group') || isX(el, 'trans-unit')) {
        const inherited = translate[translate.length - 1];
        translate.push(el.attrs.translate === undefined ? inherited : el.attrs.translate !== 'no');
      }
      if (isX(el, 'trans-unit') && !tu) {
        tu = {
          resname: el.attrs.resname,
          approved: el.attrs.approved === 'yes',
          translate: translate[translate.length - 1],
          indent: '',
          notes: [],
        };
        tuDepth = depth;
      } else if (tu && depth === tuDepth + 1 && XLIFF_1_NAMESPACES.has(el.uri)) {
        if (el.local === 'note') note = { text: '', depth: 0 };
        else if (el.local === 'source' || el.local === 'seg-source' || el.local === 'target') {
          // A target is read segment by segment when the seg-source was.
          const segmented = el.local === 'seg-source' || (el.local === 'target' && !!tu.segSource?.segments);
          capture = {
            kind: el.local,
            el,
            depth: 0,
            reader: segmented ? null : new TaggedTextReader(text),
            segmented,
            segments: [],
            segment: null,
          };
          if (el.local === 'source') tu.indent = indentBefore(text, el.start);
        }
      }
    },
    close(el, closeStart, end) {
      depth--;
      if (note) {
        if (note.depth-- === 0) {
          tu!.notes.push(note.text);
          note = null;
        }
        return;
      }
      if (capture) {
        if (capture.depth > 0) {
          capture.depth--;
          const seg = capture.segment;
          if (seg && capture.depth === 0) {
            capture.segments.push({
              mid: seg.el.attrs.mid ?? '',
              tagged: seg.reader.result(),
              innerStart: seg.el.openEnd,
              innerEnd: el.selfClosing ? end : closeStart,
            });
            capture.segment = null;
          } else if (seg) seg.reader.close(el, end);
          else capture.reader?.close(el, end);
          return;
        }
        const content: Content = { el, closeStart, end, tagged: capture.reader?.result() ?? '' };
        if (capture.segmented && capture.segments.length > 0) content.segments = capture.segments;
        if (capture.kind === 'source') tu!.source = content;
        else if (capture.kind === 'target') tu!.target = content;
        else tu!.segSource = content;
        capture = null;
        return;
      }
      if (isX(el, 'group') || isX(el, 'trans-unit')) translate.pop();
      if (tu && depth === tuDepth - 1) {
        units.push(tu);
        tu = null;
      }
    },
    text(t) {
      if (note) note.text += t;
      else if (capture) (capture.segment?.reader ?? capture.reader)?.text(t);
    },
  });
  return units;
}

function checkRoot(text: string, el: XmlElement): void {
  const at = lineColumn(text, el.start);
  if (el.local !== 'xliff') {
    throw new FormatError(`not an XLIFF file: the root element is <${el.name}>`, at.line, at.column);
  }
  if (!XLIFF_1_NAMESPACES.has(el.uri) || el.attrs.version?.startsWith('2')) {
    throw new FormatError('XLIFF 2 is not supported: export the file as XLIFF 1.2', at.line, at.column);
  }
}

function indentBefore(text: string, start: number): string {
  const ws = text.slice(text.lastIndexOf('>', start - 1) + 1, start);
  return /^\s*$/.test(ws) ? ws : '';
}
