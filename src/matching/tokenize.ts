// Tagged segment text → typed tokens (words, numbers, placeholders, punctuation, tags) as docs/MATCHING.md §1
// defines them.
// What must change with it: saved index files hold every entry as these tokens' ids, so any change to the
// tokens a text yields (here or in the inline tag parser, text/inline-tags.ts) needs INDEX_FORMAT bumped in
// index-file.ts, or an old file would answer with stale tokens; tokenize.golden.test.ts fails until it is,
// and until the new format's digest is recorded there. The score (score.ts) aligns these tokens.
import { nativeCode, parseTagged, type TagPart } from '../text/inline-tags.ts';

export type TokenType = 'word' | 'number' | 'placeholder' | 'punct' | 'tag';

export interface Token {
  type: TokenType;
  /**
   * The form tokens are aligned by: lower-cased word, `<NUM>`, the placeholder's key (one spelling of it:
   * `{{count}}` for `{{ count }}` and for `<ph id="1">{{count}}</ph>`), the character, or the tag's kind and name.
   */
  norm: string;
  /**
   * The form penalties compare: the word as written (digits NFKC-normalized), the number's digits, the
   * placeholder or tag as written.
   */
  real: string;
  /** UTF-16 offsets of the token in the scanned text (the NFC form for `tokenize`). */
  start: number;
  end: number;
}

/** The norm of every number: numbers align with each other whatever their digits. */
export const NUM = '<NUM>';

/**
 * What every placeholder aligns as in the score and the index: placeholders align with each other whatever
 * their key, as numbers do, and one put for another costs a penalty (score.ts), not a word. A placeholder's
 * token keeps its key as its norm, for everything that needs to tell them apart (placeables, QA, concordance).
 */
export const PH = '<PH>';

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
  scanSpans(text, (kind, start, end, flags, norm) => {
    if (kind === SPAN_TAG) sink('tag', norm, text.slice(start, end), start, end);
    else if (kind === SPAN_PLACEHOLDER) sink('placeholder', norm, text.slice(start, end), start, end);
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
export const SPAN_PLACEHOLDER = 4;
/** Span flag: the word holds non-ASCII digits, which its real form NFKC-normalizes. */
export const WIDE_DIGITS = 1;
/** Span flag: the word holds non-ASCII characters (lower-casing it takes toLowerCase). */
export const NON_ASCII = 2;

/** kind: SPAN_*; flags: for words and numbers; norm: for tags and placeholders, else ''. */
export type SpanSink = (kind: number, start: number, end: number, flags: number, norm: string) => void;

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
      const key = part.form === 'code' ? placeholderKey(part) : undefined;
      if (key !== undefined) sink(SPAN_PLACEHOLDER, offset, end, 0, key);
      else sink(SPAN_TAG, offset, end, 0, `x:${part.form}:${part.name}`);
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
  const braces = new BraceMatches(text, to);
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
        cp === 0x3c || cp === 0x7b || cp === 0x25 || cp === 0x24 || cp === 0x26
          ? matchTag(text, i, to, sink, braces)
          : -1;
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

// Placeholders and HTML-like tags inside text, each matched at its first character (sticky regexes). The
// syntaxes are those of src/text/placeables.ts (PlaceholderSyntax), which names them from these tokens.
// printf: %s %d %1$s %(name)s %.*s %-10ld %@ …; the conversion letter is required, so "100 %" stays text.
const RE_PRINTF =
  /%(?:\d+\$)?(?:\([^()\s]+\))?[-+#0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcsSpn@]/y;
// Rails: %{count} %<count>d.
const RE_RUBY = /%\{[^{}\s]+\}|%<[A-Za-z_]\w*>[-+ 0#]*\d*(?:\.\d+)?[a-zA-Z]/y;
// Shell: ${NAME} $NAME (`$t(…)` is i18next's nesting, `$5` a price).
const RE_BRACED_DOLLAR = /\$\{[^{}\s]+\}/y;
const RE_SHELL = /\$[A-Za-z_]\w*(?![\p{L}\p{N}_(])/uy;
// Its name is trimmed in code: `\{\{\s*([^{}]*?)\s*\}\}` tried every split of a run of spaces that no `}}`
// ends (9 s for "{{a" and 100,000 spaces).
const RE_DOUBLE_BRACE = /\{\{([^{}]*)\}\}/y;
// An ICU argument's head: {name}, {0}, {n, number}, or {n, plural, … with nested branches.
const RE_ICU_HEAD = /\{\s*([\p{L}\p{N}_]+)\s*(?:,\s*([\p{L}_]+)\s*)?([},])/uy;
// HTML character references: &amp; &nbsp; &#160; &#xA0; (a filter that decodes them leaves none in text).
const RE_ENTITY = /&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#[xX][\dA-Fa-f]{1,6});/y;
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

function sticky(re: RegExp, text: string, i: number, to: number): RegExpExecArray | null {
  re.lastIndex = i;
  const m = re.exec(text);
  return m && i + m[0].length <= to ? m : null;
}

/** The placeholder or HTML-like tag at i (one of `<{%$&`), emitted; its end, or -1 when there is none. */
function matchTag(text: string, i: number, to: number, sink: SpanSink, braces: BraceMatches): number {
  const c = text.charCodeAt(i);
  let m: RegExpExecArray | null;
  if (c === 0x25) {
    // `%%` is printf's literal percent sign: `%%s` is a percent sign and an "s".
    if (i + 1 < to && text.charCodeAt(i + 1) === 0x25) {
      sink(SPAN_PUNCT, i, i + 1, 0, '');
      sink(SPAN_PUNCT, i + 1, i + 2, 0, '');
      return i + 2;
    }
    if ((m = sticky(RE_PRINTF, text, i, to) ?? sticky(RE_RUBY, text, i, to)))
      return emitPlaceholder(sink, m[0], m[0], i);
  } else if (c === 0x24) {
    if ((m = sticky(RE_BRACED_DOLLAR, text, i, to))) {
      // `${HOME}` and `$HOME` are one variable.
      const name = /^\$\{([A-Za-z_]\w*)\}$/.exec(m[0]);
      return emitPlaceholder(sink, name ? `$${name[1]}` : m[0], m[0], i);
    }
    if ((m = sticky(RE_SHELL, text, i, to))) return emitPlaceholder(sink, m[0], m[0], i);
  } else if (c === 0x26) {
    if ((m = sticky(RE_ENTITY, text, i, to))) return emitPlaceholder(sink, m[0], m[0], i);
  } else if (c === 0x3c) {
    if ((m = sticky(RE_HTML, text, i, to))) {
      const name = m[2].toLowerCase();
      const form = m[1] ? 'close' : m[0].endsWith('/>') || VOID_HTML.has(name) ? 'empty' : 'open';
      sink(SPAN_TAG, i, i + m[0].length, 0, `h:${form}:${name}`);
      return i + m[0].length;
    }
  } else {
    if ((m = sticky(RE_DOUBLE_BRACE, text, i, to)))
      return emitPlaceholder(sink, `{{${m[1].trim()}}}`, m[0], i);
    RE_ICU_HEAD.lastIndex = i;
    if ((m = RE_ICU_HEAD.exec(text))) {
      // The argument's name and type identify it; a plural's or select's branches are its content, ignored
      // like attributes. A plural whose braces do not close here (a segment cut it) is its head alone.
      const key = m[2] ? `{${m[1]},${m[2]}}` : `{${m[1]}}`;
      const headEnd = i + m[0].length;
      const end = m[3] === '}' ? headEnd : braces.closeAfter(i);
      if (end > 0 && end <= to) return emitPlaceholder(sink, key, text.slice(i, end), i);
      if (headEnd <= to && /^(?:plural|select|selectordinal)$/.test(m[2] ?? ''))
        return emitPlaceholder(sink, key, m[0], i);
    }
  }
  return -1;
}

function emitPlaceholder(sink: SpanSink, key: string, raw: string, start: number): number {
  sink(SPAN_PLACEHOLDER, start, start + raw.length, 0, key);
  return start + raw.length;
}

/**
 * The brace closing each "{" of text up to `to`, found in one pass the first time one is asked for (from
 * that "{" on: the scan only moves forward). Searching from each ICU head for its closing brace read the
 * rest of the text once per head that never closes: 48 s for 256 KB of "{a,".
 */
class BraceMatches {
  private from = -1;
  private close: Int32Array | null = null;
  constructor(
    private readonly text: string,
    private readonly to: number,
  ) {}

  /** The offset after the "}" closing the "{" at `open`, or -1 when none does before `to`. */
  closeAfter(open: number): number {
    if (this.close === null || open < this.from) this.match(open);
    const at = this.close![open - this.from];
    return at < 0 ? -1 : at + 1;
  }

  private match(from: number): void {
    const close = new Int32Array(this.to - from).fill(-1);
    const opened: number[] = [];
    for (let i = from; i < this.to; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 0x7b) opened.push(i);
      else if (c === 0x7d && opened.length > 0) close[opened.pop()! - from] = i;
    }
    this.from = from;
    this.close = close;
  }
}

/**
 * The key of the placeholder a code element stands for, when its native code is exactly one
 * (`<ph id="1">{{count}}</ph>`, as the JSON and YAML filters protect them); else undefined: the element is a
 * tag (`<bpt>&lt;b&gt;</bpt>`, Android's `<xliff:g>%1$s</xliff:g>`, an ICU plural's `} other {`).
 */
function placeholderKey(part: TagPart): string | undefined {
  const native = nativeCode(part);
  const first = native.charCodeAt(0);
  if (first !== 0x25 && first !== 0x24 && first !== 0x7b && first !== 0x26) return undefined;
  let key: string | undefined;
  const sink: SpanSink = (kind, _start, spanEnd, _flags, norm) => {
    if (kind === SPAN_PLACEHOLDER && spanEnd === native.length) key = norm;
  };
  const end = matchTag(native, 0, native.length, sink, new BraceMatches(native, native.length));
  return end === native.length ? key : undefined;
}
