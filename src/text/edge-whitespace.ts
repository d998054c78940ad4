// Segment-edge whitespace: the whitespace before a segment's first character and after its last belongs to
// the document's skeleton, not to the segment. Memory entries are stored, matched and returned without it,
// a document segment's target is saved without it, and a merge writes the skeleton's (the source's) once
// (docs/MATCHING.md §1.1). Whitespace is what the sentence segmenter skips (`\s`: Unicode White_Space and
// the line terminators, as String.prototype.trim); line breaks inside a segment are its own. In a document,
// a line break or a tab that its format writes as an element (an HTML cell's trailing `<br>`, a Word
// paragraph's leading `<w:tab/>`: a standalone tag of ctype `lb` or `x-tab`) is whitespace at a segment's
// edges too (splitUnitEdges).

import { type InlinePart, parseTagged } from './inline-tags.ts';

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

// The ctypes of standalone tags that stand for whitespace: XLIFF's line break, and the DOCX filter's tab.
const WHITESPACE_CTYPES: ReadonlySet<string> = new Set(['lb', 'x-tab']);

function isWhitespaceTag(part: InlinePart): boolean {
  return (
    part.type === 'tag' &&
    (part.form === 'empty' || part.form === 'code') &&
    WHITESPACE_CTYPES.has(part.attrs.ctype ?? '')
  );
}

/**
 * splitEdges for a document unit's (or segment's) tagged text: the tags that stand for a line break or a tab
 * at its edges go to the lead and trail with the whitespace around them. A text of nothing else keeps them.
 */
export function splitUnitEdges(tagged: string): EdgeSplit {
  const plain = splitEdges(tagged);
  const { core } = plain;
  if (core[0] !== '<' && core[core.length - 1] !== '>') return plain;
  const pieces = parseTagged(core).map((p) => ({
    raw: p.type === 'text' ? p.text : p.raw,
    space: isWhitespaceTag(p) || (p.type === 'text' && p.text.trim() === ''),
  }));
  let from = 0;
  let to = pieces.length;
  while (from < to && pieces[from].space) from++;
  while (to > from && pieces[to - 1].space) to--;
  if (from === to || (from === 0 && to === pieces.length)) return plain;
  const join = (list: typeof pieces) => list.map((p) => p.raw).join('');
  const inner = splitEdges(join(pieces.slice(from, to)));
  return {
    lead: plain.lead + join(pieces.slice(0, from)) + inner.lead,
    core: inner.core,
    trail: inner.trail + join(pieces.slice(to)) + plain.trail,
  };
}
