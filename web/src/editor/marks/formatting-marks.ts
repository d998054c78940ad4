// Where a text holds characters a reader cannot see — line breaks, tabs, no-break spaces, spaces at its edges or
// doubled, zero-width characters — and the mark each is shown with, as memoQ and Trados show formatting marks.
// One definition for every place a text is shown: the grid, the matches, their diff, the replace preview, the
// history and the target editor (docs/EDITOR.md §4a).
import { placedTags } from '../tags/tag-parts.ts';

export type MarkKind = 'newline' | 'tab' | 'nbsp' | 'space' | 'invisible';

export interface FormattingMark {
  kind: MarkKind;
  /** UTF-16 offsets in the text given. */
  start: number;
  end: number;
  /** What is shown over or after it. */
  sign: string;
  /** What it is, for screen readers and tooltips. */
  label: string;
}

/** Characters marked wherever they stand, with their sign and name. */
const ALWAYS: Readonly<Record<string, { kind: MarkKind; sign: string; label: string }>> = {
  '\n': { kind: 'newline', sign: '↵', label: 'line break' },
  '\u2028': { kind: 'newline', sign: '↵', label: 'line separator' },
  '\t': { kind: 'tab', sign: '→', label: 'tab' },
  '\u00a0': { kind: 'nbsp', sign: '°', label: 'no-break space' },
  '\u202f': { kind: 'nbsp', sign: '°', label: 'narrow no-break space' },
  '\u2007': { kind: 'nbsp', sign: '°', label: 'figure space' },
  '\u2009': { kind: 'space', sign: '·', label: 'thin space' },
  '\u200a': { kind: 'space', sign: '·', label: 'hair space' },
  '\u3000': { kind: 'space', sign: '·', label: 'ideographic space' },
  '\u200b': { kind: 'invisible', sign: '¦', label: 'zero-width space' },
  '\u200c': { kind: 'invisible', sign: '¦', label: 'zero-width non-joiner' },
  '\u200d': { kind: 'invisible', sign: '¦', label: 'zero-width joiner' },
  '\u2060': { kind: 'invisible', sign: '¦', label: 'word joiner' },
  '\ufeff': { kind: 'invisible', sign: '¦', label: 'byte order mark' },
  '\u00ad': { kind: 'invisible', sign: '-', label: 'soft hyphen' },
};

const SPACE = { kind: 'space', sign: '·', label: 'space' } as const;

/**
 * The marks of a text (tagged or plain), in order. Inside a tag's markup nothing is marked. A plain space is
 * marked when it is one of two or more in a row, or stands at the edge of the text or of a line (indentation,
 * a space before a line break): a single space between words is what everyone expects and is left alone. A
 * `\r\n` is one line break. `edges: false` for a piece from within a text (the gap between two words of a
 * diff), whose ends are not the text's.
 */
export function formattingMarks(text: string, { edges = true }: { edges?: boolean } = {}): FormattingMark[] {
  const marks: FormattingMark[] = [];
  const tags = text.includes('<') ? placedTags(text) : [];
  // The text's first and last visible characters: spaces outside them are at its edges.
  let first = edges ? 0 : -1;
  let last = edges ? text.length : text.length + 1;
  for (const t of tags) if (t.from === first) first = t.to;
  for (const t of [...tags].reverse()) if (t.to === last) last = t.from;
  let tag = 0;
  let i = 0;
  while (i < text.length) {
    if (tag < tags.length && i === tags[tag].from) {
      i = tags[tag++].to;
      continue;
    }
    const c = text[i];
    if (c === '\r') {
      const end = text[i + 1] === '\n' ? i + 2 : i + 1;
      marks.push({ kind: 'newline', start: i, end, sign: '↵', label: 'line break' });
      i = end;
    } else if (c === ' ') {
      let end = i + 1;
      while (end < text.length && text[end] === ' ' && !(tag < tags.length && end === tags[tag].from)) end++;
      const lineEdge =
        i <= first || end >= last || /[\r\n]/.test(text[i - 1] ?? '') || /[\r\n]/.test(text[end] ?? '');
      if (end - i > 1 || lineEdge)
        for (let k = i; k < end; k++) marks.push({ ...SPACE, start: k, end: k + 1 });
      i = end;
    } else {
      const always = ALWAYS[c];
      if (always) marks.push({ ...always, start: i, end: i + 1 });
      i++;
    }
  }
  return marks;
}
