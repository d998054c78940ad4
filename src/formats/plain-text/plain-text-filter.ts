// Plain text filter: one unit per paragraph (runs of non-blank lines), merged back in place.
//
// Everything outside the paragraphs (blank lines, indentation before the first word, the BOM, the line
// ending style) is kept from the original; line breaks in a translation take the file's line ending.

import {
  applyEdits,
  checkedMerge,
  type ExtractedUnit,
  type FormatFilter,
  type Range,
  unitEdits,
} from '../filter.ts';
import { literalToTagged, taggedToLiteral } from '../tagged-literal.ts';
import { decodeText, encodeText } from '../text-encoding.ts';

const LINE_END = /\r\n|\n|\r/;
const LINE_ENDS = /\r\n|\n|\r/g;

/** Paragraph ranges, each from its first to its last non-whitespace character. */
function findParagraphs(text: string): Range[] {
  const paragraphs: Range[] = [];
  let current: Range | undefined;
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

/** The decoded file and its paragraphs, as extract and merge both read it. */
function readParagraphs(original: Buffer) {
  const decoded = decodeText(original, 'text file');
  return { decoded, paragraphs: findParagraphs(decoded.text) };
}

export const textFilter: FormatFilter = {
  name: 'text',
  extensions: ['.txt'],
  mediaType: 'text/plain; charset=utf-8',
  contextIsKey: false,
  segmentation: 'sentence',

  async extract(original) {
    const { decoded, paragraphs } = readParagraphs(original);
    return paragraphs.map(
      (p): ExtractedUnit => ({
        source: literalToTagged(decoded.text.slice(p.start, p.end)),
        segmentable: true,
      }),
    );
  },

  merge: checkedMerge('Text', (original) => {
    const { decoded, paragraphs } = readParagraphs(original);
    const eol = LINE_END.exec(decoded.text)?.[0] ?? '\n';
    return {
      units: paragraphs.length,
      write(translations) {
        const edits = unitEdits(paragraphs, translations, (p, t) => ({
          ...p,
          text: taggedToLiteral(t.text).replace(LINE_ENDS, eol),
        }));
        return encodeText(applyEdits(decoded.text, edits), decoded);
      },
    };
  }),
};
