// XLIFF 1.2 filter: every translatable trans-unit is a unit, with its existing target and state imported.
//
// A trans-unit whose <seg-source> holds <mrk mtype="seg"> segments gives one unit per segment (the file is
// already segmented, so those units are not segmented again); the target's <mrk mid> segments are its targets.
// Merge writes a translation into <target> only where it differs from the target already in the file, and
// marks that target state="translated" when it is confirmed, state="needs-review-translation" when not
// (added or replacing the old state); a confirmed translation equal to the file's target only turns a
// state that asked for review into "translated". The file's own states stay true for everything else. A
// missing target is inserted after </source> (or </seg-source>) with the source's indentation. Whitespace
// is kept exactly as in the file (no normalisation).

import { plainText } from '../../text/inline-tags.ts';
import { decodeXml } from '../../xml/xml-scan.ts';
import {
  applyEdits,
  checkedMerge,
  type Edit,
  type ExtractedUnit,
  type FormatFilter,
  type UnitTranslation,
} from '../filter.ts';
import { toXliffInline } from './xliff-inline.ts';
import { readTransUnits, type TransUnit } from './xliff-trans-units.ts';

/** One extracted unit: a trans-unit, or one segment of it (`segment` indexes segSource.segments). */
interface UnitRef {
  tu: TransUnit;
  segment?: number;
  source: string;
  target?: string;
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

type WrittenState = 'translated' | 'needs-review-translation';

/** The edit that gives a trans-unit the target content `content` (XLIFF markup) and the state `state`. */
function targetEdit(text: string, tu: TransUnit, content: string, state: WrittenState): Edit {
  const target = tu.target;
  if (!target) {
    const after = (tu.segSource ?? tu.source)!;
    const prefix = after.el.prefix ? `${after.el.prefix}:` : '';
    const element = `${tu.indent}<${prefix}target state="${state}">${content}</${prefix}target>`;
    return { start: after.end, end: after.end, text: element };
  }
  const open = openTagWithState(text, target, state);
  if (target.el.selfClosing) {
    return {
      start: target.el.start,
      end: target.end,
      text: `${open.replace(/\/>$/, '>')}${content}</${target.el.name}>`,
    };
  }
  return { start: target.el.start, end: target.closeStart, text: open + content };
}

/** The target's start tag with its state attribute set (added, or its value replaced). */
function openTagWithState(
  text: string,
  target: NonNullable<TransUnit['target']>,
  state: WrittenState,
): string {
  const open = text.slice(target.el.start, target.el.openEnd);
  const attr = /(\sstate\s*=\s*)(["'])[^"']*\2/;
  return attr.test(open)
    ? open.replace(attr, `$1$2${state}$2`)
    : open.replace(/\s*(\/?>)$/, ` state="${state}"$1`);
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

function merge(text: string, refs: UnitRef[], translations: ReadonlyArray<UnitTranslation | null>): string {
  // By trans-unit: the translations that differ from the file's target (segment index → translation), and
  // whether every translation of it is confirmed.
  const byTu = new Map<TransUnit, { changed: Map<number, string>; confirmed: boolean }>();
  refs.forEach((ref, i) => {
    const t = translations[i];
    if (!t) return;
    let mine = byTu.get(ref.tu);
    if (!mine) byTu.set(ref.tu, (mine = { changed: new Map(), confirmed: true }));
    mine.confirmed &&= t.confirmed;
    if (t.text !== (ref.target ?? null)) mine.changed.set(ref.segment ?? 0, t.text);
  });
  const edits: Edit[] = [];
  for (const [tu, { changed, confirmed }] of byTu) {
    const state = confirmed ? 'translated' : 'needs-review-translation';
    if (changed.size === 0) {
      const reviewed = importedState(tu) === 'translated' || importedState(tu) === 'signed-off';
      if (confirmed && !reviewed && tu.target) {
        edits.push({
          start: tu.target.el.start,
          end: tu.target.el.openEnd,
          text: openTagWithState(text, tu.target, state),
        });
      }
      continue;
    }
    const prefix = tu.source!.el.prefix ? `${tu.source!.el.prefix}:` : '';
    const content = tu.segSource?.segments
      ? segmentedContent(text, tu, changed, prefix)
      : toXliffInline(changed.get(0)!, prefix);
    edits.push(targetEdit(text, tu, content, state));
  }
  return applyEdits(text, edits);
}

export const xliffFilter: FormatFilter = {
  name: 'xliff',
  extensions: ['.xlf', '.xliff'],
  mediaType: 'application/xliff+xml',
  contextIsKey: true,
  segmentation: 'entry',

  async extract(original) {
    const { text } = decodeXml(original, 'XLIFF');
    return unitRefs(readTransUnits(text)).map(toExtracted);
  },

  merge: checkedMerge('XLIFF', (original) => {
    const doc = decodeXml(original, 'XLIFF');
    const refs = unitRefs(readTransUnits(doc.text));
    return { units: refs.length, write: (translations) => doc.encode(merge(doc.text, refs, translations)) };
  }),
};
