// Plain text filter: one unit per paragraph (runs of non-blank lines), merged back in place.
//
// Everything outside the paragraphs (blank lines, indentation before the first word, the BOM, the line
// ending style) is kept from the original; line breaks in a translation take the file's line ending.

import type { ExtractedUnit, FormatFilter } from '../filter.ts';
import { literalToTagged, taggedToLiteral } from './tagged-literal.ts';
import { decodeText, encodeText } from './text-encoding.ts';

interface Paragraph {
  start: number;
  end: number;
}

/** Paragraph ranges, each from its first to its last non-whitespace character. */
export function findParagraphs(text: string): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let current: Paragraph | undefined;
  const lineEnd = /\r\n|\n|\r/g;
  for (let at = 0; at < text.length; ) {
    lineEnd.lastIndex = at;
    const eol = lineEnd.exec(text);
    const line = text.slice(at, eol ? eol.index : text.length);
    const first = line.search(/\S/);
    if (first < 0) current = undefined;
    else if (current) current.end = at + line.trimEnd().length;
    else paragraphs.push((current = { start: at + first, end: at + line.trimEnd().length }));
    at = eol ? eol.index + eol[0].length : text.length;
  }
  return paragraphs;
}

export const textFilter: FormatFilter = {
  name: 'text',
  extensions: ['.txt'],
  mediaType: 'text/plain; charset=utf-8',

  async extract(original) {
    const { text } = decodeText(original, 'text file');
    return findParagraphs(text).map(
      (p): ExtractedUnit => ({ source: literalToTagged(text.slice(p.start, p.end)), segmentable: true }),
    );
  },

  async merge(original, translations) {
    const decoded = decodeText(original, 'text file');
    const { text } = decoded;
    const eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
    let out = '';
    let at = 0;
    findParagraphs(text).forEach((p, i) => {
      const translation = translations[i];
      if (translation == null) return;
      out += text.slice(at, p.start) + taggedToLiteral(translation).replace(/\r\n|\n|\r/g, eol);
      at = p.end;
    });
    return encodeText(out + text.slice(at), decoded);
  },
};
