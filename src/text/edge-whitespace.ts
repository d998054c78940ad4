// Segment-edge whitespace: the whitespace before a segment's first character and after its last belongs to
// the document's skeleton, not to the segment. Memory entries are stored, matched and returned without it,
// a document segment's target is saved without it, and a merge writes the skeleton's (the source's) once
// (docs/MATCHING.md §1.1). Whitespace is what the sentence segmenter skips (`\s`: Unicode White_Space and
// the line terminators, as String.prototype.trim); line breaks inside a segment are its own.

const LEADING = /^\s+/;
const TRAILING = /\s+$/;

/** A text cut into its leading whitespace, its core, and its trailing whitespace. */
export interface EdgeSplit {
  lead: string;
  core: string;
  trail: string;
}

/** The text's edge whitespace and what lies between; a text of whitespace only is all lead. */
export function splitEdges(text: string): EdgeSplit {
  const lead = LEADING.exec(text)?.[0] ?? '';
  if (lead.length === text.length) return { lead, core: '', trail: '' };
  const trail = TRAILING.exec(text)?.[0] ?? '';
  return { lead, core: text.slice(lead.length, text.length - trail.length), trail };
}

/** The text without its edge whitespace: what a memory entry, a query or a segment's target holds. */
export function withoutEdges(text: string): string {
  return splitEdges(text).core;
}
