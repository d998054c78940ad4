// Units of a format filter → the document's segments (by sentence, or one per unit), with the text between
// them kept so that a merge rebuilds each unit exactly; and joining or splitting segments of one unit, which
// keeps that so.
import type { ExtractedUnit } from '../../formats/filter.ts';
import { filterByFormat } from '../../formats/registry.ts';
import { countWords } from '../../matching/word-count.ts';
import { splitUnitEdges } from '../../text/edge-whitespace.ts';
import { segmentSentences } from '../../text/segment.ts';
import type { UnitCut } from '../../text/segmentation-modes.ts';
import type { SrxRules } from '../../text/srx.ts';
import { SEGMENT_STATUSES } from './document-states.ts';
import type { NewSegment } from './segment-repository.ts';

/** How planSegments cuts the units: by sentence unless told, with the built-in rules unless given SRX. */
export interface PlanOptions {
  by?: UnitCut['by'];
  /** The project's own segmentation rules (SRX), which replace the built-in ones. */
  srx?: SrxRules;
}

/**
 * Splits units into segments; lead/trail keep the text between sentences so merges rebuild units exactly. A
 * segment's source never starts or ends with whitespace: a unit's edge whitespace is in the first segment's
 * lead and the last one's trail (the skeleton), and an existing target is kept without its own. A line
 * break or tab its format writes as a tag is whitespace there too (splitUnitEdges).
 */
export function planSegments(
  units: readonly ExtractedUnit[],
  srclang: string,
  options: PlanOptions = {},
): NewSegment[] {
  const whole = options.by === 'unit';
  const planned: NewSegment[] = [];
  units.forEach((unit, unitIndex) => {
    const context = unit.context ?? null;
    const notes = unit.notes?.length ? JSON.stringify(unit.notes) : null;
    const target = unit.target === undefined ? '' : splitUnitEdges(unit.target).core;
    const hasTarget = target !== '';
    if (!unit.segmentable || hasTarget || whole) {
      const { lead, core, trail } = splitUnitEdges(unit.source);
      if (core === '') return;
      const signedOff = unit.state === 'signed-off';
      const confirmed = hasTarget && (unit.state === 'translated' || signedOff);
      planned.push({
        unit_index: unitIndex,
        lead,
        trail,
        source: core,
        target: hasTarget ? target : null,
        status: signedOff
          ? SEGMENT_STATUSES.reviewed
          : confirmed
            ? SEGMENT_STATUSES.confirmed
            : hasTarget
              ? SEGMENT_STATUSES.draft
              : SEGMENT_STATUSES.new,
        is_confirmed: confirmed ? 1 : 0,
        is_reviewed: signedOff ? 1 : 0,
        context,
        notes,
      });
      return;
    }
    const spans = segmentSentences(unit.source, srclang, options.srx);
    let previousEnd = 0;
    spans.forEach((span, i) => {
      const edges = splitUnitEdges(unit.source.slice(span.start, span.end));
      planned.push({
        unit_index: unitIndex,
        lead: unit.source.slice(previousEnd, span.start) + edges.lead,
        trail: edges.trail + (i === spans.length - 1 ? unit.source.slice(span.end) : ''),
        source: edges.core,
        target: null,
        status: SEGMENT_STATUSES.new,
        is_confirmed: 0,
        is_reviewed: 0,
        context,
        notes,
      });
      previousEnd = span.end;
    });
  });
  return planned;
}

/**
 * A unit's text rebuilt from its segments, in order: each segment's lead, its target (without edge
 * whitespace, a line break or tab tag at its edges included: the skeleton's is written once) or its source
 * where it has none, and its trail. Segments of documents imported before edges went to the skeleton may hold
 * them in their source: a target takes them from there. A draft filled from a memory entry that held such a
 * tag at its edge does not write it twice.
 */
export function unitText(
  segments: readonly { lead: string; trail: string; source: string; target: string | null }[],
) {
  let text = '';
  for (const s of segments) {
    if (s.target === null || s.target === '') {
      text += s.lead + s.source + s.trail;
      continue;
    }
    const edges = splitUnitEdges(s.source);
    text += s.lead + edges.lead + splitUnitEdges(s.target).core + edges.trail + s.trail;
  }
  return text;
}

/** What joining or splitting reads and writes of a segment: where it stands in its unit, and its texts. */
export interface SegmentPiece {
  lead: string;
  trail: string;
  source: string;
  target: string | null;
}

/**
 * Two adjacent segments of one unit as one: the text between them (the first's trail and the second's lead,
 * whitespace of the skeleton) goes inside the joined source, and the joined target is what the export wrote
 * for the two — each target, or the source of one without — joined by that text, so that a join changes no
 * byte of the export. Null when neither had a target.
 */
export function joinPieces(first: SegmentPiece, second: SegmentPiece): SegmentPiece {
  const gap = first.trail + second.lead;
  const hasTarget = (p: SegmentPiece) => p.target !== null && p.target !== '';
  const written = (p: SegmentPiece) => (hasTarget(p) ? splitUnitEdges(p.target!).core : p.source);
  return {
    lead: first.lead,
    trail: second.trail,
    source: first.source + gap + second.source,
    target: hasTarget(first) || hasTarget(second) ? written(first) + gap + written(second) : null,
  };
}

/**
 * A segment cut in two at `at` of its source (and `targetAt` of its target, when it has one): each part keeps
 * its side's text, the whitespace at the cut goes to the skeleton (the first part's trail, the second's lead).
 * Null when a part would hold no text.
 */
export function splitPiece(
  piece: SegmentPiece,
  at: number,
  targetAt?: number,
): [SegmentPiece, SegmentPiece] | null {
  const left = splitUnitEdges(piece.source.slice(0, at));
  const right = splitUnitEdges(piece.source.slice(at));
  if (left.core === '' || right.core === '') return null;
  const target = piece.target ?? '';
  const targets =
    target === '' || targetAt === undefined
      ? [null, null]
      : [target.slice(0, targetAt), target.slice(targetAt)].map((t) => splitUnitEdges(t).core || null);
  return [
    { lead: piece.lead + left.lead, trail: left.trail, source: left.core, target: targets[0] },
    { lead: right.lead, trail: right.trail + piece.trail, source: right.core, target: targets[1] },
  ];
}

/** The words of the segments' sources, as the document's num_words counts them. */
export function wordsOf(segments: readonly NewSegment[]): number {
  return segments.reduce((sum, segment) => sum + countWords(segment.source), 0);
}

/**
 * The key of a segment's unit as the memory keeps it in contexts: its context when its format's contexts
 * identify units (a key path, msgctxt, resname), else none (docs/MATCHING.md §2.6).
 */
export function contextKey(format: string, context: string | null): string | null {
  return filterByFormat(format)?.contextIsKey ? context : null;
}
