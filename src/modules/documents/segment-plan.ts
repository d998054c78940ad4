// Units of a format filter → the document's sentence segments, with the text between them kept so that a
// merge rebuilds each unit exactly.
import type { ExtractedUnit } from '../../formats/filter.ts';
import { filterByFormat } from '../../formats/registry.ts';
import { countWords } from '../../matching/word-count.ts';
import { splitUnitEdges } from '../../text/edge-whitespace.ts';
import { segmentSentences } from '../../text/segment.ts';
import { SEGMENT_STATUSES } from './document-states.ts';
import type { NewSegment } from './segment-repository.ts';

/**
 * Splits units into segments; lead/trail keep the text between sentences so merges rebuild units exactly. A
 * segment's source never starts or ends with whitespace: a unit's edge whitespace is in the first segment's
 * lead and the last one's trail (the skeleton), and an existing target is kept without its own. A line
 * break or tab its format writes as a tag is whitespace there too (splitUnitEdges).
 */
export function planSegments(units: readonly ExtractedUnit[], srclang: string): NewSegment[] {
  const planned: NewSegment[] = [];
  units.forEach((unit, unitIndex) => {
    const context = unit.context ?? null;
    const notes = unit.notes?.length ? JSON.stringify(unit.notes) : null;
    const target = unit.target === undefined ? '' : splitUnitEdges(unit.target).core;
    const hasTarget = target !== '';
    if (!unit.segmentable || hasTarget) {
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
    const spans = segmentSentences(unit.source, srclang);
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
