// Quality checks of a translation against its source: tags and tag pairs, placeholders, numbers, punctuation,
// spaces, brackets and quotes, URLs and e-mail addresses. Pure: the editor runs it in the browser as you type,
// the server over documents and on every confirmation (the errors a version was confirmed with).
import { pairTags, parseTagged, type TagPart, tagIdentity } from '../inline-tags.ts';
import { primaryLanguage as primary } from '../language-tags.ts';
import { type PlaceholderSyntax, placeablesOf } from '../placeables.ts';
import { matchSourceTags, type TagLabel, tagLabels, tagName } from '../tag-labels.ts';
import { findNumbers } from './numbers.ts';
import { placeholderDifferences } from './placeholder-differences.ts';
import { tagPairIssues } from './tag-pairs.ts';

/** The stable codes of the checks (the editor and API clients key on them). */
export const QA_CODES = Object.freeze({
  tagMissing: 'TAG_MISSING',
  tagExtra: 'TAG_EXTRA',
  tagPairEmpty: 'TAG_PAIR_EMPTY',
  tagOrder: 'TAG_ORDER',
  placeholderMissing: 'PLACEHOLDER_MISSING',
  placeholderExtra: 'PLACEHOLDER_EXTRA',
  placeholderChanged: 'PLACEHOLDER_CHANGED',
  numberMissing: 'NUMBER_MISSING',
  numberExtra: 'NUMBER_EXTRA',
  finalPunctuation: 'FINAL_PUNCTUATION',
  leadingSpace: 'LEADING_SPACE',
  trailingSpace: 'TRAILING_SPACE',
  doubledSpace: 'DOUBLED_SPACE',
  frenchSpacing: 'FRENCH_SPACING',
  bracketUnbalanced: 'BRACKET_UNBALANCED',
  quoteUnbalanced: 'QUOTE_UNBALANCED',
  urlMissing: 'URL_MISSING',
  emailMissing: 'EMAIL_MISSING',
  sameAsSource: 'TARGET_SAME_AS_SOURCE',
  targetEmpty: 'TARGET_EMPTY',
  // The termbase's checks (src/terminology/term-qa.ts), given the document's glossary.
  termMissing: 'TERM_MISSING',
  termForbidden: 'TERM_FORBIDDEN',
  termDeprecated: 'TERM_DEPRECATED',
  termInconsistent: 'TERM_INCONSISTENT',
} as const);
export type QaCode = (typeof QA_CODES)[keyof typeof QA_CODES];

export type QaSeverity = 'error' | 'warning';

/** Errors block a confirmation in the editor (until "Confirm anyway"); warnings are shown only. */
export const QA_SEVERITY: Readonly<Record<QaCode, QaSeverity>> = Object.freeze({
  TAG_MISSING: 'error',
  TAG_EXTRA: 'error',
  TAG_PAIR_EMPTY: 'warning',
  TAG_ORDER: 'warning',
  PLACEHOLDER_MISSING: 'error',
  PLACEHOLDER_EXTRA: 'error',
  PLACEHOLDER_CHANGED: 'error',
  NUMBER_MISSING: 'error',
  NUMBER_EXTRA: 'error',
  FINAL_PUNCTUATION: 'warning',
  LEADING_SPACE: 'warning',
  TRAILING_SPACE: 'warning',
  DOUBLED_SPACE: 'warning',
  FRENCH_SPACING: 'warning',
  BRACKET_UNBALANCED: 'warning',
  QUOTE_UNBALANCED: 'warning',
  URL_MISSING: 'error',
  EMAIL_MISSING: 'error',
  TARGET_SAME_AS_SOURCE: 'warning',
  TARGET_EMPTY: 'error',
  TERM_MISSING: 'warning',
  TERM_FORBIDDEN: 'error',
  TERM_DEPRECATED: 'warning',
  TERM_INCONSISTENT: 'warning',
});

export interface QaIssue {
  code: QaCode;
  severity: QaSeverity;
  message: string;
  /** Where in the target string as given (UTF-16 offsets, tags included), when the issue has a place. */
  start?: number;
  end?: number;
}

export interface QaOptions {
  srcLang: string;
  trgLang: string;
  /** The segment's status: a confirmed or reviewed segment must have a target. */
  status?: string;
  /**
   * The placeholder syntaxes checked (src/text/placeables.ts); default all of them, as the editor shows and
   * protects them all.
   */
  placeholders?: readonly PlaceholderSyntax[];
}

/** The text runs of tagged text joined, with the offset in the tagged string of each character. */
interface Runs {
  text: string;
  /** offsets[i]: where text[i] is in the tagged string; offsets[text.length]: the end. */
  offsets: number[];
  tags: { part: TagPart; start: number; end: number; index: number }[];
  parts: ReturnType<typeof parseTagged>;
}

function runsOf(tagged: string): Runs {
  const parts = parseTagged(tagged);
  let text = '';
  const offsets: number[] = [];
  const tags: Runs['tags'] = [];
  let at = 0;
  parts.forEach((part, index) => {
    if (part.type === 'text') {
      for (let i = 0; i < part.text.length; i++) offsets.push(at + i);
      text += part.text;
      at += part.text.length;
    } else {
      tags.push({ part, start: at, end: at + part.raw.length, index });
      at += part.raw.length;
    }
  });
  offsets.push(at);
  return { text, offsets, tags, parts };
}

const URL_RE = /\b(?:https?:\/\/|ftp:\/\/|www\.)[^\s<>"“”«»„]+/gi;

// Written out, not as the expression /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g: tried at every offset of a long word
// that holds no "@", its first run read the rest of the word each time (quadratic: a segment of one 100,000-
// letter word). Here each "@" is looked at once, the run before it and the domain after it read once.
const EMAIL_LOCAL = /[\w.+-]/;
const EMAIL_DOMAIN = /[\w-]+(?:\.[\w-]+)+/y;

/** The e-mail addresses of text, as /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g would find them. */
function emailMatches(text: string): { text: string; index: number }[] {
  const found: { text: string; index: number }[] = [];
  let after = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', Math.max(at + 1, after))) {
    let start = at;
    while (start > after && EMAIL_LOCAL.test(text[start - 1])) start--;
    if (start === at) continue;
    EMAIL_DOMAIN.lastIndex = at + 1;
    const domain = EMAIL_DOMAIN.exec(text);
    if (!domain) continue;
    after = at + 1 + domain[0].length;
    found.push({ text: text.slice(start, after), index: start });
  }
  return found;
}

/** The offset where a run of characters `inRun` accepts ends `text` (text.length when none does). */
function trailingRun(text: string, inRun: (c: string) => boolean): number {
  let at = text.length;
  while (at > 0 && inRun(text[at - 1])) at--;
  return at;
}

// Trailing runs are cut by trailingRun, never by an expression ending in `+$`: tried at every offset of a
// run that does not end the text, it reads the rest of the run each time (67 s for 100,000 spaces and "x").
const LINK_TRAILER = /[.,;:!?)\]'’]/;

function links(text: string, kind: 'url' | 'email'): { value: string; start: number; end: number }[] {
  const matches =
    kind === 'url'
      ? [...text.matchAll(URL_RE)].map((m) => ({ text: m[0], index: m.index }))
      : emailMatches(text);
  return matches.map((m) => {
    const value = m.text.slice(
      0,
      trailingRun(m.text, (c) => LINK_TRAILER.test(c)),
    );
    return { value, start: m.index, end: m.index + value.length };
  });
}

/** The text with URLs and e-mail addresses blanked out (same length), so other checks skip them. */
function withoutLinks(text: string): string {
  const blank = (s: string) => ' '.repeat(s.length);
  const noUrls = text.replace(URL_RE, blank);
  let out = '';
  let at = 0;
  for (const m of emailMatches(noUrls)) {
    out += noUrls.slice(at, m.index) + blank(m.text);
    at = m.index + m.text.length;
  }
  return at === 0 ? noUrls : out + noUrls.slice(at);
}

/**
 * The text with its placeholders blanked out (same length, by a character that is neither space, digit nor
 * punctuation), so that the digits of `%1$s` or `{0}` are no numbers and an ICU argument's braces no brackets:
 * placeholders are checked as what they are.
 */
function withoutPlaceholders(text: string): string {
  let out = '';
  let at = 0;
  for (const p of placeablesOf(text)) {
    if (p.kind !== 'placeholder') continue;
    out += text.slice(at, p.start) + '\u0000'.repeat(p.end - p.start);
    at = p.end;
  }
  return at === 0 ? text : out + text.slice(at);
}

// ---- Final punctuation: characters of one class are the same mark in any script.

const PUNCTUATION_CLASS: Record<string, string> = {
  '.': '.',
  '。': '.',
  '．': '.',
  '।': '.',
  '?': '?',
  '？': '?',
  '؟': '?',
  '\u037e': '?',
  '!': '!',
  '！': '!',
  ':': ':',
  '：': ':',
  ';': ';',
  '；': ';',
  '…': '…',
};
/** Closing quotes and brackets after a sentence's final mark. */
const TRAILING_CLOSER = /[\s"'”“»«’‘›‹)\]」』）】]/u;

function finalMark(text: string): string | null {
  const trimmed = text.slice(
    0,
    trailingRun(text, (c) => TRAILING_CLOSER.test(c)),
  );
  if (trimmed.endsWith('...')) return '…';
  return PUNCTUATION_CLASS[trimmed.slice(-1)] ?? null;
}

function markName(mark: string | null): string {
  return mark === null ? 'no final punctuation' : `"${mark}"`;
}

// ---- Brackets and quotes.

const BRACKETS: [string, string][] = [
  ['(', ')'],
  ['[', ']'],
  ['{', '}'],
  ['（', '）'],
  ['「', '」'],
  ['『', '』'],
  ['【', '】'],
  ['〔', '〕'],
];

/** Where brackets fail to balance: the first unmatched one (an offset in text), or null. */
function unbalancedBracket(text: string): number | null {
  const closers = new Map(BRACKETS.map(([o, c]) => [c, o]));
  const openers = new Set(BRACKETS.map(([o]) => o));
  const stack: { char: string; at: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (openers.has(c)) stack.push({ char: c, at: i });
    else if (closers.has(c)) {
      if (stack.length === 0 || stack[stack.length - 1].char !== closers.get(c)) return i;
      stack.pop();
    }
  }
  return stack.length > 0 ? stack[0].at : null;
}

/**
 * Where quotes fail to balance, or null. Which marks open and close depends on the language's style:
 * German „…“ (or „…” in Polish), English “…”, French « … » (or German »…«, whichever comes first), and
 * straight double quotes in pairs.
 */
function unbalancedQuote(text: string): number | null {
  const pairs: [string, string[]][] = [];
  if (text.includes('„')) pairs.push(['„', ['“', '”']]);
  else pairs.push(['“', ['”']]);
  const guillemet = /[«»]/.exec(text)?.[0];
  if (guillemet === '»') pairs.push(['»', ['«']]);
  else pairs.push(['«', ['»']]);
  pairs.push(['‹', ['›']]);
  for (const [open, closes] of pairs) {
    let depth = 0;
    let firstOpen = -1;
    for (let i = 0; i < text.length; i++) {
      if (text[i] === open) {
        if (depth === 0) firstOpen = i;
        depth++;
      } else if (closes.includes(text[i])) {
        if (depth === 0) return i;
        depth--;
      }
    }
    if (depth > 0) return firstOpen;
  }
  const straight = [...text.matchAll(/"/g)];
  if (straight.length % 2 === 1) return straight[straight.length - 1].index;
  return null;
}

// ---- Spaces.

/** Spaces of any width, as leading/trailing/doubled space checks see them. */
const SPACE = '[ \\t\\u00a0\\u202f\\u2009\\u3000]';
const LEADING = new RegExp(`^${SPACE}+`);
const SPACE_CHAR = new RegExp(SPACE);
const isSpace = (c: string) => SPACE_CHAR.test(c);
const DOUBLED = new RegExp(`${SPACE}{2,}`, 'g');
/** French: a no-break space (U+00A0 or the narrow U+202F) before ; : ? ! and » and after «. */
const FRENCH_BEFORE = /(^|.)([;:?!»])/g;
const NO_BREAK = /[\u00a0\u202f]/;

interface Check {
  source: Runs;
  target: Runs;
  srcLang: string;
  trgLang: string;
  add(code: QaCode, message: string, at?: { start: number; end: number }): void;
}

/** A code element that stands for one placeholder (`<ph id="1">{{count}}</ph>`): checked as that placeholder. */
function isPlaceholder(part: TagPart): boolean {
  return part.form === 'code' && placeablesOf(part.raw)[0]?.kind === 'placeholder';
}

/** A tag of a text as a message names it, at the start of a sentence: `Tag 2 (<b>)`, `Closing tag /2`. */
function named(tags: readonly TagPart[], labels: readonly TagLabel[], index: number): string {
  const name = tagName(tags[index], labels[index]);
  return name[0].toUpperCase() + name.slice(1);
}

/**
 * Missing tags one by one, each named by its own pair as the editor's "Missing tags" names it (matched as
 * there: src/text/tag-labels.ts); extra ones — a tag the source has fewer of — and tags not properly paired,
 * named as their chips in the target read. Placeholders protected as codes are the placeholder check's.
 */
function checkTags(c: Check): void {
  const source = c.source.tags.filter((t) => !isPlaceholder(t.part));
  const target = c.target.tags.filter((t) => !isPlaceholder(t.part));
  const sourceParts = source.map((t) => t.part);
  const targetParts = target.map((t) => t.part);
  const sourceLabels = tagLabels(sourceParts);
  const targetLabels = tagLabels(targetParts);
  const match = matchSourceTags(sourceParts, targetParts);
  match.forEach((t, i) => {
    if (t === undefined)
      c.add(QA_CODES.tagMissing, `${named(sourceParts, sourceLabels, i)} of the source is missing`);
  });
  const inSource = new Map<string, number>();
  for (const part of sourceParts) inSource.set(tagIdentity(part), (inSource.get(tagIdentity(part)) ?? 0) + 1);
  const seen = new Map<string, number>();
  target.forEach((tag, i) => {
    const key = tagIdentity(tag.part);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > (inSource.get(key) ?? 0)) {
      c.add(QA_CODES.tagExtra, `${named(targetParts, targetLabels, i)} is not in the source`, tag);
    }
  });
  // Tags all there, but closed in the wrong order.
  const partners = pairTags(c.target.parts);
  target.forEach((tag, i) => {
    if ((tag.part.form === 'open' || tag.part.form === 'close') && !partners.has(tag.index)) {
      if (inSource.has(tagIdentity(tag.part)) && (seen.get(tagIdentity(tag.part)) ?? 0) <= 1) {
        c.add(QA_CODES.tagExtra, `${named(targetParts, targetLabels, i)} is not properly paired`, tag);
      }
    }
  });
}

function checkNumbers(c: Check, sourceText: string, targetText: string): void {
  const source = findNumbers(sourceText, c.srcLang);
  const target = findNumbers(targetText, c.trgLang);
  const pool = new Map<string, number>();
  for (const n of target) pool.set(n.value, (pool.get(n.value) ?? 0) + 1);
  for (const n of source) {
    const left = pool.get(n.value) ?? 0;
    if (left > 0) pool.set(n.value, left - 1);
    else c.add(QA_CODES.numberMissing, `Number ${n.text} of the source is missing or differs`);
  }
  const wanted = new Map<string, number>();
  for (const n of source) wanted.set(n.value, (wanted.get(n.value) ?? 0) + 1);
  for (const n of target) {
    const left = wanted.get(n.value) ?? 0;
    if (left > 0) wanted.set(n.value, left - 1);
    else c.add(QA_CODES.numberExtra, `Number ${n.text} is not in the source`, n);
  }
}

function checkLinks(c: Check): void {
  for (const [re, code, what] of [
    ['url', QA_CODES.urlMissing, 'URL'],
    ['email', QA_CODES.emailMissing, 'E-mail address'],
  ] as const) {
    const kept = new Set(links(c.target.text, re).map((l) => l.value));
    for (const link of links(c.source.text, re)) {
      if (!kept.has(link.value)) c.add(code, `${what} ${link.value} of the source is missing or changed`);
    }
  }
}

function checkSpaces(c: Check, sourceText: string, targetText: string): void {
  const src = c.source.text;
  const trg = c.target.text;
  const lead = (s: string) => LEADING.test(s);
  const trail = (s: string) => s.length > 0 && isSpace(s[s.length - 1]);
  if (lead(src) !== lead(trg)) {
    const m = LEADING.exec(trg);
    c.add(
      QA_CODES.leadingSpace,
      lead(src) ? 'The source begins with a space; the target does not' : 'The target begins with a space',
      m ? { start: 0, end: m[0].length } : undefined,
    );
  }
  if (trail(src) !== trail(trg)) {
    const run = trailingRun(trg, isSpace);
    c.add(
      QA_CODES.trailingSpace,
      trail(src) ? 'The source ends with a space; the target does not' : 'The target ends with a space',
      run < trg.length ? { start: run, end: trg.length } : undefined,
    );
  }
  if (!new RegExp(DOUBLED.source).test(sourceText.trim())) {
    const led = targetText.replace(LEADING, (s) => '\0'.repeat(s.length));
    const inner = led.slice(0, trailingRun(led, isSpace));
    for (const m of inner.matchAll(DOUBLED)) {
      c.add(QA_CODES.doubledSpace, 'Doubled space', { start: m.index, end: m.index + m[0].length });
    }
  }
  if (primary(c.trgLang) === 'fr') checkFrenchSpacing(c, targetText);
}

function checkFrenchSpacing(c: Check, text: string): void {
  for (const m of text.matchAll(FRENCH_BEFORE)) {
    const before = m[1];
    const mark = m[2];
    const at = m.index + before.length;
    const next = text[at + 1];
    // Not a sentence's mark: a time (10:30), a ratio, "?!" or "!!" (the space goes before the first).
    if (mark === ':' && /\d/.test(before) && /\d/.test(next ?? '')) continue;
    if (/[;:?!]/.test(before) || at === 0) continue;
    if (mark === '»' && before === '') continue;
    if (NO_BREAK.test(before)) continue;
    const message =
      before === ' '
        ? `Use a no-break space before "${mark}", not an ordinary one`
        : `French puts a no-break space before "${mark}"`;
    c.add(QA_CODES.frenchSpacing, message, { start: before === ' ' ? at - 1 : at, end: at + 1 });
  }
  for (const m of text.matchAll(/«(.)/g)) {
    if (!NO_BREAK.test(m[1])) {
      c.add(QA_CODES.frenchSpacing, 'French puts a no-break space after "«"', {
        start: m.index,
        end: m.index + 2,
      });
    }
  }
}

function checkPunctuationAndPairs(c: Check, sourceText: string, targetText: string): void {
  const srcMark = finalMark(sourceText);
  const trgMark = finalMark(targetText);
  if (srcMark !== trgMark) {
    c.add(
      QA_CODES.finalPunctuation,
      `The source ends with ${markName(srcMark)}, the target with ${markName(trgMark)}`,
    );
  }
  if (unbalancedBracket(sourceText) === null) {
    const at = unbalancedBracket(targetText);
    if (at !== null) c.add(QA_CODES.bracketUnbalanced, 'Unbalanced bracket', { start: at, end: at + 1 });
  }
  if (unbalancedQuote(sourceText) === null) {
    const at = unbalancedQuote(targetText);
    if (at !== null) c.add(QA_CODES.quoteUnbalanced, 'Unbalanced quotation mark', { start: at, end: at + 1 });
  }
}

/**
 * The issues of a translation: `source` and `target` are tagged text (src/text/inline-tags.ts). An empty
 * target has no issues unless the segment is confirmed (then it is one).
 */
export function checkSegment(source: string, target: string | null, options: QaOptions): QaIssue[] {
  const issues: QaIssue[] = [];
  const confirmed = options.status === 'confirmed' || options.status === 'reviewed';
  if (target === null || target.trim() === '') {
    if (confirmed) {
      issues.push({
        code: QA_CODES.targetEmpty,
        severity: QA_SEVERITY.TARGET_EMPTY,
        message: 'The segment is confirmed with an empty target',
      });
    }
    return issues;
  }
  const sourceRuns = runsOf(source);
  const targetRuns = runsOf(target);
  const check: Check = {
    source: sourceRuns,
    target: targetRuns,
    srcLang: options.srcLang,
    trgLang: options.trgLang,
    // Places are offsets in the joined text; they are answered as offsets in the tagged target.
    add(code, message, at) {
      const issue: QaIssue = { code, severity: QA_SEVERITY[code], message };
      if (at) {
        issue.start = targetRuns.offsets[at.start];
        issue.end = at.end > at.start ? targetRuns.offsets[at.end - 1] + 1 : issue.start;
      }
      issues.push(issue);
    },
  };
  // Tag and placeholder places are already offsets in the tagged target.
  const addInTarget = (code: QaCode, message: string, at?: { start?: number; end?: number }) => {
    issues.push({
      code,
      severity: QA_SEVERITY[code],
      message,
      ...(at?.start !== undefined && { start: at.start, end: at.end }),
    });
  };
  checkTags({ ...check, add: addInTarget });
  for (const issue of tagPairIssues(source, target)) addInTarget(issue.code, issue.message, issue);
  for (const difference of placeholderDifferences(source, target, options.placeholders)) {
    addInTarget(difference.code, difference.message, difference);
  }
  const sourceText = withoutLinks(sourceRuns.text);
  const targetText = withoutLinks(targetRuns.text);
  const sourceWords = withoutPlaceholders(sourceText);
  const targetWords = withoutPlaceholders(targetText);
  checkNumbers(check, sourceWords, targetWords);
  checkLinks(check);
  checkSpaces(check, sourceText, targetText);
  checkPunctuationAndPairs(check, sourceWords, targetWords);
  if (sourceRuns.text.trim() === targetRuns.text.trim() && /\p{L}/u.test(sourceRuns.text)) {
    check.add(QA_CODES.sameAsSource, 'The target is the same as the source');
  }
  return issues;
}
