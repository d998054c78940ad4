// XLIFF 1.2 filter: every translatable trans-unit is a unit, with its existing target and state imported.
//
// A trans-unit whose <seg-source> holds <mrk mtype="seg"> segments gives one unit per segment (the file is
// already segmented, so those units are not segmented again); the target's <mrk mid> segments are its targets.
// Merge writes a translation into <target> only where it differs from the target already in the file, and
// marks that target state="translated" (added or replacing the old state): the file's own states stay true
// for everything this merge did not change. A missing target is inserted after </source> (or </seg-source>)
// with the source's indentation. Whitespace is kept exactly as in the file (no normalisation).

import { plainText } from '../../text/inline-tags.ts';
import { decodeXml, lineColumn, scanXml, type XmlElement } from '../../xml/xml-scan.ts';
import { type ExtractedUnit, FormatError, type FormatFilter } from '../filter.ts';
import { toXliffInline } from './xliff-inline.ts';
import { TaggedTextReader, XLIFF_1_NAMESPACES } from './xliff-tagged-reader.ts';

interface Segment {
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
  segments?: Segment[];
}

interface TransUnit {
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

/** One extracted unit: a trans-unit, or one segment of it (`segment` indexes segSource.segments). */
interface UnitRef {
  tu: TransUnit;
  segment?: number;
  source: string;
  target?: string;
}

type ContentKind = 'source' | 'seg-source' | 'target';

/** Reads every trans-unit of the document with the offsets merge needs. */
function scan(text: string): TransUnit[] {
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
    segments: Segment[];
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

/** The units of the document in order: what extract returns and merge's translations index. */
function unitRefs(units: TransUnit[]): UnitRef[] {
  const refs: UnitRef[] = [];
  for (const tu of units) {
    if (!tu.translate || !tu.source) continue;
    const segments = tu.segSource?.segments;
    if (segments) {
      const targets = new Map(tu.target?.segments?.map((s) => [s.mid, s.tagged]));
      segments.forEach((seg, i) => {
        if (hasText(seg.tagged))
          refs.push({ tu, segment: i, source: seg.tagged, target: targets.get(seg.mid) || undefined });
      });
    } else if (hasText(tu.source.tagged)) {
      refs.push({ tu, source: tu.source.tagged, target: tu.target?.tagged || undefined });
    }
  }
  return refs;
}

function hasText(tagged: string): boolean {
  return plainText(tagged).trim() !== '';
}

/** XLIFF 1.2 states (and `approved`) → the four states of a document segment. */
function importedState(tu: TransUnit): NonNullable<ExtractedUnit['state']> {
  const state = tu.target?.el.attrs.state;
  if (state === undefined) return tu.approved ? 'signed-off' : 'translated';
  if (state === 'signed-off' || state === 'final') return 'signed-off';
  if (state === 'translated') return 'translated';
  if (state === 'new' || state === 'needs-translation') return 'new';
  return 'needs-review-translation';
}

function toExtracted(ref: UnitRef): ExtractedUnit {
  const unit: ExtractedUnit = { source: ref.source, segmentable: ref.segment === undefined && !ref.target };
  if (ref.tu.resname) unit.context = ref.tu.resname;
  if (ref.tu.notes.length > 0) unit.notes = [...ref.tu.notes];
  if (ref.target) {
    unit.target = ref.target;
    unit.state = importedState(ref.tu);
  }
  return unit;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The edit that gives a trans-unit the target content `content` (XLIFF markup), state="translated". */
function targetEdit(text: string, tu: TransUnit, content: string): Edit {
  const target = tu.target;
  if (!target) {
    const after = (tu.segSource ?? tu.source)!;
    const prefix = after.el.prefix ? `${after.el.prefix}:` : '';
    const element = `${tu.indent}<${prefix}target state="translated">${content}</${prefix}target>`;
    return { start: after.end, end: after.end, text: element };
  }
  let open = text.slice(target.el.start, target.el.openEnd);
  const state = /(\sstate\s*=\s*)(["'])[^"']*\2/;
  open = state.test(open)
    ? open.replace(state, '$1$2translated$2')
    : open.replace(/\s*(\/?>)$/, ' state="translated"$1');
  if (target.el.selfClosing) {
    return {
      start: target.el.start,
      end: target.end,
      text: `${open.replace(/\/>$/, '>')}${content}</${target.el.name}>`,
    };
  }
  return { start: target.el.start, end: target.closeStart, text: open + content };
}

/** Target content of a segmented unit: the seg-source with each segment's best text in its <mrk>. */
function segmentedContent(
  text: string,
  tu: TransUnit,
  translations: Map<number, string>,
  prefix: string,
): string {
  const segSource = tu.segSource!;
  const existing = new Map(tu.target?.segments?.map((s) => [s.mid, text.slice(s.innerStart, s.innerEnd)]));
  let out = '';
  let at = segSource.el.openEnd;
  segSource.segments!.forEach((seg, i) => {
    out += text.slice(at, seg.innerStart);
    const translation = translations.get(i);
    if (translation !== undefined) out += toXliffInline(translation, prefix);
    else out += existing.get(seg.mid) ?? text.slice(seg.innerStart, seg.innerEnd);
    at = seg.innerEnd;
  });
  return out + text.slice(at, segSource.closeStart);
}

function merge(text: string, refs: UnitRef[], translations: ReadonlyArray<string | null>): string {
  // Translations that differ from the file's target, grouped by trans-unit (segment index → translation).
  const changed = new Map<TransUnit, Map<number, string>>();
  refs.forEach((ref, i) => {
    const t = translations[i];
    if (t === null || t === undefined || t === (ref.target ?? null)) return;
    let byTu = changed.get(ref.tu);
    if (!byTu) changed.set(ref.tu, (byTu = new Map()));
    byTu.set(ref.segment ?? 0, t);
  });
  const edits: Edit[] = [];
  for (const [tu, byTu] of changed) {
    const prefix = tu.source!.el.prefix ? `${tu.source!.el.prefix}:` : '';
    const content = tu.segSource?.segments
      ? segmentedContent(text, tu, byTu, prefix)
      : toXliffInline(byTu.get(0)!, prefix);
    edits.push(targetEdit(text, tu, content));
  }
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

export const xliffFilter: FormatFilter = {
  name: 'xliff',
  extensions: ['.xlf', '.xliff'],
  mediaType: 'application/xliff+xml',

  async extract(original) {
    const { text } = decodeXml(original, 'XLIFF');
    return unitRefs(scan(text)).map(toExtracted);
  },

  async merge(original, translations) {
    if (translations.every((t) => t === null)) return original;
    const doc = decodeXml(original, 'XLIFF');
    const refs = unitRefs(scan(doc.text));
    if (refs.length !== translations.length) {
      throw new Error(`XLIFF merge: ${translations.length} translations for ${refs.length} units`);
    }
    return doc.encode(merge(doc.text, refs, translations));
  },
};
