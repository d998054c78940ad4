// Locates the entries of a PO file with the offsets of their lines, so a merge can splice msgstr values
// into the original text; also the strict syntax check, with line and column, that gettext-parser lacks.

import { FormatError } from '../../errors.ts';

export interface PoField {
  keyword: 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr';
  /** The n of msgstr[n]. */
  index?: number;
  value: string;
  /** From the keyword to the end of its last continuation line (line ending excluded). */
  start: number;
  end: number;
  line: number;
}

export interface PoFlagLine {
  flags: string[];
  /** The line, from its first character to the start of the next line. */
  start: number;
  end: number;
}

export interface PoEntry {
  line: number;
  /** Offset of the entry's first line (its first comment, else its first keyword). */
  start: number;
  obsolete: boolean;
  flagLines: PoFlagLine[];
  /** Where a new `#,` line goes: before the `#|` previous-msgid lines, else before msgctxt/msgid. */
  flagAt: number;
  msgctxt?: PoField;
  msgid?: PoField;
  msgidPlural?: PoField;
  msgstr: PoField[];
}

const KEYWORD_LINE = /^([ \t]*)(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)(?=[ \t"])[ \t]*/;
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '?': '?',
};

/** The entries of a PO file in file order, obsolete (#~) ones marked; throws FormatError on bad syntax. */
export function locatePoEntries(text: string): PoEntry[] {
  const entries: PoEntry[] = [];
  let entry: PoEntry | undefined;
  let field: PoField | undefined;
  const seen = new Map<string, number>();

  const finish = () => {
    if (entry && !entry.obsolete) {
      if (!entry.msgid) throw new FormatError('PO entry without msgid', entry.line, 1);
      if (entry.msgstr.length === 0) throw new FormatError('PO entry without msgstr', entry.line, 1);
      const key = `${entry.msgctxt?.value ?? ''}\u0004${entry.msgid.value}`;
      const first = seen.get(key);
      if (first !== undefined) {
        throw new FormatError(
          `duplicate message definition (first defined at line ${first})`,
          entry.msgid.line,
          1,
        );
      }
      seen.set(key, entry.msgid.line);
    }
    if (entry) entries.push(entry);
    entry = undefined;
    field = undefined;
  };
  const begin = (line: number, start: number) => {
    entry ??= { line, start, obsolete: false, flagLines: [], flagAt: -1, msgstr: [] };
    return entry;
  };

  const lineRe = /([^\r\n]*)(\r\n|\n|\r|$)/g;
  let lineNo = 0;
  for (let m = lineRe.exec(text); m && m.index < text.length; m = lineRe.exec(text)) {
    lineNo++;
    const line = m[1];
    const lineStart = m.index;
    const trimmed = line.trimStart();
    const column = line.length - trimmed.length + 1;
    if (trimmed === '') {
      finish();
    } else if (trimmed.startsWith('#~')) {
      // Obsolete entries are kept verbatim; they only end the entry before them if it is complete.
      if (entry && !entry.obsolete && entry.msgstr.length > 0) finish();
      begin(lineNo, lineStart).obsolete = true;
      field = undefined;
    } else if (trimmed.startsWith('#')) {
      if (entry && (entry.msgid || entry.msgctxt || entry.obsolete)) finish();
      const current = begin(lineNo, lineStart);
      if (trimmed.startsWith('#|') && current.flagAt < 0) current.flagAt = lineStart;
      if (trimmed.startsWith('#,')) {
        const flags = trimmed
          .slice(2)
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean);
        current.flagLines.push({ flags, start: lineStart, end: m.index + m[0].length });
      }
      field = undefined;
    } else if (trimmed.startsWith('"')) {
      if (!field) throw new FormatError('string continuation without a keyword before it', lineNo, column);
      const { value } = readQuoted(line, column - 1, lineNo);
      field.value += value;
      field.end = lineStart + line.length;
    } else {
      const k = KEYWORD_LINE.exec(line);
      if (!k) throw new FormatError(`unexpected text "${trimmed.slice(0, 20)}" in PO file`, lineNo, column);
      const keyword = (k[2].startsWith('msgstr') ? 'msgstr' : k[2]) as PoField['keyword'];
      if (
        entry?.obsolete ||
        (entry && (keyword === 'msgctxt' || keyword === 'msgid') && entry.msgstr.length > 0)
      ) {
        finish();
      }
      const current = begin(lineNo, lineStart);
      if (current.flagAt < 0) current.flagAt = lineStart;
      const { value } = readQuoted(line, k[0].length, lineNo);
      field = { keyword, value, start: lineStart + k[1].length, end: lineStart + line.length, line: lineNo };
      if (k[3] !== undefined) field.index = Number(k[3]);
      placeField(current, field, column);
    }
  }
  finish();
  return entries;
}

function placeField(entry: PoEntry, field: PoField, column: number): void {
  const misplaced = (why: string) => new FormatError(`${field.keyword} ${why}`, field.line, column);
  switch (field.keyword) {
    case 'msgctxt':
      if (entry.msgctxt || entry.msgid) throw misplaced('after msgctxt or msgid of the same entry');
      entry.msgctxt = field;
      break;
    case 'msgid':
      if (entry.msgid) throw misplaced('twice in one entry');
      entry.msgid = field;
      break;
    case 'msgid_plural':
      if (!entry.msgid || entry.msgidPlural || entry.msgstr.length) throw misplaced('not right after msgid');
      entry.msgidPlural = field;
      break;
    case 'msgstr': {
      if (!entry.msgid) throw misplaced('before msgid');
      const expected = entry.msgidPlural ? entry.msgstr.length : undefined;
      if (field.index !== expected) {
        throw misplaced(
          expected === undefined ? 'with an index in a singular entry' : `must be msgstr[${expected}]`,
        );
      }
      entry.msgstr.push(field);
      break;
    }
  }
}

/** Reads one C-style quoted string starting at `from`; only whitespace may follow it on the line. */
function readQuoted(line: string, from: number, lineNo: number): { value: string } {
  if (line[from] !== '"') throw new FormatError('expected a quoted string', lineNo, from + 1);
  let value = '';
  for (let i = from + 1; i < line.length; ) {
    // Copy the run up to the next quote or backslash in one piece.
    let j = i;
    while (j < line.length && line[j] !== '"' && line[j] !== '\\') j++;
    value += line.slice(i, j);
    if (j >= line.length) break;
    if (line[j] === '"') {
      const rest = line.slice(j + 1);
      if (rest.trim() !== '') {
        const column = j + 2 + rest.length - rest.trimStart().length;
        throw new FormatError('text after the closing quote', lineNo, column);
      }
      return { value };
    }
    const e = line[j + 1];
    i = j + 2;
    if (e in ESCAPES) value += ESCAPES[e];
    else if (/[0-7]/.test(e)) {
      const oct = /^[0-7]{1,3}/.exec(line.slice(j + 1))![0];
      value += String.fromCharCode(Number.parseInt(oct, 8));
      i = j + 1 + oct.length;
    } else if (e === 'x' && /^[0-9a-fA-F]/.test(line.slice(j + 2))) {
      const hex = /^[0-9a-fA-F]+/.exec(line.slice(j + 2))![0];
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i = j + 2 + hex.length;
    } else throw new FormatError(`invalid escape sequence "\\${e ?? ''}"`, lineNo, j + 1);
  }
  throw new FormatError('unterminated string', lineNo, from + 1);
}
