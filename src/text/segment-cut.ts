// Where a tagged text may be cut in two (splitting a segment): never inside a tag's own markup, never between
// the open and close tag of a pair (a segment cannot open an element it does not close), and never so that a
// side holds no text. bpt/ept codes pair by their `i` attribute, as the XLIFF and TMX inline codes do.
import { type InlinePart, pairTags, parseTagged, plainText, type TagPart } from './inline-tags.ts';

/** Why `tagged` cannot be cut at offset `at`, in words a translator reads, or null when it can. */
export function cutProblem(tagged: string, at: number): string | null {
  if (!Number.isInteger(at) || at <= 0 || at >= tagged.length) {
    return `the cut must fall inside the text (1 to ${tagged.length - 1})`;
  }
  const parts = parseTagged(tagged);
  const starts: number[] = [];
  let offset = 0;
  for (const part of parts) {
    starts.push(offset);
    offset += part.type === 'text' ? part.text.length : part.raw.length;
  }
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.type === 'tag' && at > starts[i] && at < starts[i] + part.raw.length) {
      return `the cut falls inside the tag ${part.raw}`;
    }
  }
  for (const [open, close] of pairs(parts)) {
    const from = starts[open] + (parts[open] as TagPart).raw.length;
    const to = starts[close];
    if (at >= from && at <= to) {
      return `the cut falls between ${(parts[open] as TagPart).raw} and its closing tag; cut before or after the pair`;
    }
  }
  if (plainText(tagged.slice(0, at)).trim() === '' || plainText(tagged.slice(at)).trim() === '') {
    return 'each part must hold text';
  }
  return null;
}

/** Index pairs [open, close] of the paired elements and of bpt/ept codes sharing an `i`. */
function pairs(parts: readonly InlinePart[]): [number, number][] {
  const found: [number, number][] = [];
  for (const [a, b] of pairTags(parts)) if (a < b) found.push([a, b]);
  const begins = new Map<string, number>();
  parts.forEach((p, i) => {
    if (p.type !== 'tag' || p.form !== 'code') return;
    if (p.name === 'bpt' && p.attrs.i !== undefined) begins.set(p.attrs.i, i);
    if (p.name === 'ept' && p.attrs.i !== undefined && begins.has(p.attrs.i)) {
      found.push([begins.get(p.attrs.i)!, i]);
    }
  });
  return found;
}
