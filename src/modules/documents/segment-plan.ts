// Units of a format filter → the document's sentence segments, with the text between them kept so that a
// merge rebuilds each unit exactly.
import type { ExtractedUnit } from '../../formats/filter.ts';
import { countWords } from '../../matching/word-count.ts';
import { segmentSentences } from '../../text/segment.ts';
import { SEGMENT_STATUSES } from './document-states.ts';
import type { NewSegment } from './segment-repository.ts';

/** Splits units into segments; lead/trail keep the text between sentences so merges rebuild units exactly. */
export function planSegments(units: readonly ExtractedUnit[], srclang: string): NewSegment[] {
  const planned: NewSegment[] = [];
  units.forEach((unit, unitIndex) => {
    const context = unit.context ?? null;
    const notes = unit.notes?.length ? JSON.stringify(unit.notes) : null;
    const hasTarget = unit.target !== undefined && unit.target !== '';
    if (!unit.segmentable || hasTarget) {
      if (unit.source.trim() === '') return;
      const signedOff = unit.state === 'signed-off';
      const confirmed = hasTarget && (unit.state === 'translated' || signedOff);
      planned.push({
        unit_index: unitIndex,
        lead: '',
        trail: '',
        source: unit.source,
        target: hasTarget ? unit.target! : null,
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
      planned.push({
        unit_index: unitIndex,
        lead: unit.source.slice(previousEnd, span.start),
        trail: i === spans.length - 1 ? unit.source.slice(span.end) : '',
        source: unit.source.slice(span.start, span.end),
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

/** The words of the segments' sources, as the document's num_words counts them. */
export function wordsOf(segments: readonly NewSegment[]): number {
  return segments.reduce((sum, segment) => sum + countWords(segment.source), 0);
}
