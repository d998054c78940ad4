// Tagged segment text → typed tokens (words, numbers, punctuation, tags) as docs/MATCHING.md §1 defines them.
// What must change with it: saved index files hold every entry as these tokens' ids, so any change to the
// tokens a text yields (here or in the inline tag parser, text/inline-tags.ts) needs INDEX_FORMAT bumped in
// index-file.ts, or an old file would answer with stale tokens; tokenize.golden.test.ts fails until it is,
// and until the new format's digest is recorded there. The score (score.ts) aligns these tokens.
import { parseTagged } from '../text/inline-tags.ts';

export type TokenType = 'word' | 'number' | 'punct' | 'tag';

export interface Token {
  type: TokenType;
  /** The form tokens are aligned by: lower-cased word, `<NUM>`, the character, or the tag's kind and name. */
  norm: string;
  /** The form penalties compare: the word as written (digits NFKC-normalized), the number's digits, the raw tag. */
  real: string;
  /** UTF-16 offsets of the token in the scanned text (the NFC form for `tokenize`). */
  start: number;
  end: number;
}

/** The norm of every number: numbers align with each other whatever their digits. */
export const NUM = '<NUM>';

export type TokenSink = (type: TokenType, norm: string, real: string, start: number, end: number) => void;

/** Tokens of tagged text, after NFC; offsets refer to the NFC string. */
export function tokenize(tagged: string): Token[] {
  const tokens: Token[] = [];
  scanTokens(tagged.normalize('NFC'), (type, norm, real, start, end) => {
    tokens.push({ type, norm, real, start, end });
  });
  return tokens;
}

/**
 * Emits the tokens of `text` as it is (no normalization: callers that need NFC normalize first, callers
 * that need offsets into an unnormalized string, such as concordance highlighting, do not).
 */
export function scanTokens(text: string, sink: TokenSink): void {
  scanSpans(text, (kind, start, end, flags, tagNorm) => {
    if (kind === SPAN_TAG) sink('tag', tagNorm, text.slice(start, end), start, end);
    else if (kind === SPAN_PUNCT) {
      const p = text.slice(start, end);
      sink('punct', p, p, start, end);
    } else {
      const real = wordReal(text, start, end, flags);
      if (kind === SPAN_NUMBER) sink('number', NUM, real, start, end);
      else sink('word', real.toLowerCase(), real, start, end);
    }
  });
}

// The same scan as spans without strings, for indexing millions of entries: the caller builds only
// the strings it needs (an ASCII word's norm can even be looked up without building it).
export const SPAN_WORD = 0;
export const SPAN_NUMBER = 1;
export const SPAN_PUNCT = 2;
export const SPAN_TAG = 3;
/** Span flag: the word holds non-ASCII digits, which its real form NFKC-normalizes. */
export const WIDE_DIGITS = 1;
/** Span flag: the word holds non-ASCII characters (lower-casing it takes toLowerCase). */
export const NON_ASCII = 2;

/** kind: SPAN_*; flags: for words and numbers; tagNorm: for tags, else ''. */
export type SpanSink = (kind: number, start: number, end: number, flags: number, tagNorm: string) => void;

export function scanSpans(text: string, sink: SpanSink): void {
  if (text.indexOf('<') < 0) {
    scanText(text, 0, text.length, sink);
    return;
  }
  let offset = 0;
  for (const part of parseTagged(text)) {
    if (part.type === 'text') {
      scanText(text, offset, offset + part.text.length, sink);
      offset += part.text.length;
    } else {
      const end = offset + part.raw.length;
      sink(SPAN_TAG, offset, end, 0, `x:${part.form}:${part.name}`);
      offset = end;
    }
  }
}

/** The real form of a word or number span: its text, digits NFKC-normalized. */
export function wordReal(text: string, start: number, end: number, flags: number): string {
  const raw = text.slice(start, end);
  return flags & WIDE_DIGITS ? normalizeDigits(raw) : raw;
}

// Character classes, computed once per code point on first sight (regex property tests are slow, and a
// whole table up front would cost every process ~30 ms at start-up).
const UNKNOWN = 0;
const SPACE = 1;
const DIGIT = 2;
const MARK = 3; // extends the preceding word, grapheme or punctuation character
const CLUSTER = 4; // a letter of a script written without spaces: one token per grapheme cluster
const ALNUM = 5;
const OTHER = 6; // punctuation, symbols, controls: one punctuation token each

const bmpClass = new Uint8Array(0x10000);
const astralClass = new Map<number, number>();

const RE_SPACE = /\s/u;
const RE_DIGIT = /\p{Nd}/u;
const RE_MARK = /\p{M}/u;
const RE_ALNUM = /[\p{L}\p{N}]/u;
// Script_Extensions, not Script, so that marks shared by kana (ー, ゛) count as kana.
const RE_NO_SPACE_SCRIPT =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}\p{scx=Tibetan}]/u;

function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  // U+200B ZERO WIDTH SPACE separates words exactly as a space does.
  if (cp === 0x200b || RE_SPACE.test(ch)) return SPACE;
  if (RE_DIGIT.test(ch)) return DIGIT;
  // Joiners and the spacing vowels SARA AM (Thai, Lao) continue a grapheme cluster (UAX #29 Extend/SpacingMark).
  if (cp === 0x200c || cp === 0x200d || cp === 0x0e33 || cp === 0x0eb3 || RE_MARK.test(ch)) return MARK;
  if (RE_ALNUM.test(ch)) return RE_NO_SPACE_SCRIPT.test(ch) ? CLUSTER : ALNUM;
  return OTHER;
}

function classOf(cp: number): number {
  if (cp < 0x10000) {
    let c = bmpClass[cp];
    if (c === UNKNOWN) bmpClass[cp] = c = classify(cp);
    return c;
  }
  let c = astralClass.get(cp);
  if (c === undefined) astralClass.set(cp, (c = classify(cp)));
  return c;
}

function codePointAt(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** Apostrophes (straight and typographic), hyphens and the dot join alphanumerics into one word. */
function isInnerSeparator(c: number): boolean {
  return c === 0x27 || c === 0x2019 || c === 0x2d || c === 0x2010 || c === 0x2011 || c === 0x2e;
}

const wideDigits = new Map<number, string>();

/** NFKC applied to digits only, so that `１２` and `12` are the same number. */
function normalizeDigits(word: string): string {
  let out = '';
  for (const ch of word) {
    const cp = ch.codePointAt(0)!;
    if (cp > 0x7f && classOf(cp) === DIGIT) {
      let d = wideDigits.get(cp);
      if (d === undefined) wideDigits.set(cp, (d = ch.normalize('NFKC')));
      out += d;
    } else out += ch;
  }
  return out;
}

function scanText(text: string, from: number, to: number, sink: SpanSink): void {
  let i = from;
  while (i < to) {
    const cp = codePointAt(text, i, to);
    const width = cp > 0xffff ? 2 : 1;
    const cls = classOf(cp);
    if (cls === SPACE) {
      i += width;
    } else if (cls === ALNUM || cls === DIGIT || cls === MARK) {
      i = scanWord(text, i, to, sink);
    } else if (cls === CLUSTER) {
      const end = skipMarks(text, i + width, to);
      sink(SPAN_WORD, i, end, NON_ASCII, '');
      i = end;
    } else {
      const tagEnd =
        cp === 0x3c || cp === 0x7b || cp === 0x25 || cp === 0x24 ? matchTag(text, i, to, sink) : -1;
      if (tagEnd > 0) {
        i = tagEnd;
      } else {
        const end = skipMarks(text, i + width, to);
        sink(SPAN_PUNCT, i, end, 0, '');
        i = end;
      }
    }
  }
}

function skipMarks(text: string, i: number, to: number): number {
  while (i < to) {
    const cp = codePointAt(text, i, to);
    if (classOf(cp) !== MARK) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

function scanWord(text: string, from: number, to: number, sink: SpanSink): number {
  let i = from;
  let digitsOnly = true;
  let flags = 0;
  while (i < to) {
    const cp = codePointAt(text, i, to);
    const cls = classOf(cp);
    if (cls === ALNUM || cls === MARK) {
      digitsOnly = false;
    } else if (cls === DIGIT) {
      if (cp > 0x7f) flags |= WIDE_DIGITS;
    } else if (isInnerSeparator(cp) && i > from && i + 1 < to) {
      const next = classOf(codePointAt(text, i + 1, to));
      if (next !== ALNUM && next !== DIGIT) break;
    } else break;
    if (cp > 0x7f) flags |= NON_ASCII;
    i += cp > 0xffff ? 2 : 1;
  }
  sink(digitsOnly ? SPAN_NUMBER : SPAN_WORD, from, i, flags, '');
  return i;
}

// Placeholders and HTML-like tags inside text, each matched at its first character (sticky regexes).
// printf: %s %d %1$s %(name)s %.*s %-10ld …; the conversion letter is required, so "100 %" stays text.
const RE_PRINTF =
  /%(?:\d+\$)?(?:\([^()\s]+\))?[-+#0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcsSpn@]/y;
const RE_DOLLAR = /\$\{[^{}\s]+\}/y;
const RE_DOUBLE_BRACE = /\{\{\s*([^{}]*?)\s*\}\}/y;
// An ICU argument's head: {name}, {0}, {n, number}, or {n, plural, … with nested branches.
const RE_ICU_HEAD = /\{\s*([\p{L}\p{N}_]+)\s*(?:,\s*([\p{L}_]+)\s*)?([},])/uy;
const RE_HTML = /<(\/?)([A-Za-z][\w.:-]*)(?:\s[^<>]*)?\/?>/y;
const VOID_HTML = new Set([
  'br',
  'hr',
  'img',
  'input',
  'meta',
  'link',
  'wbr',
  'area',
  'base',
  'col',
  'embed',
]);

function matchTag(text: string, i: number, to: number, sink: SpanSink): number {
  const c = text.charCodeAt(i);
  let m: RegExpExecArray | null;
  if (c === 0x25) {
    RE_PRINTF.lastIndex = i;
    if ((m = RE_PRINTF.exec(text)) && i + m[0].length <= to) return emitTag(sink, `p:${m[0]}`, m[0], i);
  } else if (c === 0x24) {
    RE_DOLLAR.lastIndex = i;
    if ((m = RE_DOLLAR.exec(text)) && i + m[0].length <= to) return emitTag(sink, `p:${m[0]}`, m[0], i);
  } else if (c === 0x3c) {
    RE_HTML.lastIndex = i;
    if ((m = RE_HTML.exec(text)) && i + m[0].length <= to) {
      const name = m[2].toLowerCase();
      const form = m[1] ? 'close' : m[0].endsWith('/>') || VOID_HTML.has(name) ? 'empty' : 'open';
      return emitTag(sink, `h:${form}:${name}`, m[0], i);
    }
  } else {
    RE_DOUBLE_BRACE.lastIndex = i;
    if ((m = RE_DOUBLE_BRACE.exec(text)) && i + m[0].length <= to)
      return emitTag(sink, `p:{{${m[1]}}}`, m[0], i);
    RE_ICU_HEAD.lastIndex = i;
    if ((m = RE_ICU_HEAD.exec(text))) {
      // The argument's name and type identify it; its branches are its content, ignored like attributes.
      const norm = m[2] ? `p:{${m[1]},${m[2]}}` : `p:{${m[1]}}`;
      const end = m[3] === '}' ? i + m[0].length : closingBrace(text, i + m[0].length, to);
      if (end > 0 && end <= to) return emitTag(sink, norm, text.slice(i, end), i);
    }
  }
  return -1;
}

function emitTag(sink: SpanSink, norm: string, raw: string, start: number): number {
  sink(SPAN_TAG, start, start + raw.length, 0, norm);
  return start + raw.length;
}

/** End offset (after the brace) closing an ICU argument whose head ended at `i` (depth 1), or -1. */
function closingBrace(text: string, i: number, to: number): number {
  let depth = 1;
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i + 1;
  }
  return -1;
}
