// Segment-edge whitespace: the whitespace before a segment's first character and after its last belongs to
// the document's skeleton, not to the segment. Memory entries are stored, matched and returned without it,
// a document segment's target is saved without it, and a merge writes the skeleton's (the source's) once
// (docs/MATCHING.md §1.1). Whitespace is what the sentence segmenter skips (`\s`: Unicode White_Space and
// the line terminators, as String.prototype.trim); line breaks inside a segment are its own.

const SPACE = /\s/;

/** A text cut into its leading whitespace, its core, and its trailing whitespace. */
export interface EdgeSplit {
  lead: string;
  core: string;
  trail: string;
}

/** The text's edge whitespace and what lies between; a text of whitespace only is all lead. */
export function splitEdges(text: string): EdgeSplit {
  // A scan from each end rather than /\s+$/, which retries every run of spaces inside a long text.
  let start = 0;
  while (start < text.length && SPACE.test(text[start])) start++;
  if (start === text.length) return { lead: text, core: '', trail: '' };
  let end = text.length;
  while (SPACE.test(text[end - 1])) end--;
  return { lead: text.slice(0, start), core: text.slice(start, end), trail: text.slice(end) };
}

/** The text without its edge whitespace: what a memory entry, a query or a segment's target holds. */
export function withoutEdges(text: string): string {
  return splitEdges(text).core;
}
