// Placeables — inline tags, numbers and placeholders — of tagged text: auto-propagated into a memory match's
// target, and compared between a source and its translation before a filter lets the translation execute.
//
// The interfaces used outside src/text:
//   placeablesOf(tagged): Placeable[]
//     every placeable in text order, as the scorer tokenizes (src/matching/tokenize.ts), with offsets.
//   repairTarget(matchSource, matchTarget, source): { target, repairs: Repair[] } | null
//     the pre-translation task calls it before writing a fuzzy match: the match's target with the source's
//     placeables put where the match source's were; null when that cannot be done without guessing (the
//     caller then writes the match as it is — still unconfirmed).
//   placeholdersCorrespond(source, target, syntaxes?, { allowMissing? }): boolean
//     the format filters' check of each translation before merging it into a file whose placeholders
//     execute (PO, JSON, YAML, Android), through placeholderProblem (src/text/qa/placeholder-differences.ts,
//     which names what is wrong); false means the translation would fail its ecosystem's checker or crash
//     at run time.
//   sameFormatArguments(source, target)
//     for QA's comparison of placeholders (src/text/qa/placeholder-differences.ts).
//
// Placeholders are the scorer's placeholder tokens (src/matching/tokenize.ts, docs/MATCHING.md §1): one
// recogniser, so that what the editor protects, QA checks and a match is scored by are the same. A
// placeholder is recognised in both forms a tagged text holds it in: as text (`%d`, as PO keeps it) and as a
// code element a filter protected it with (`<ph id="1">{{count}}</ph>`, as JSON and YAML keep it); both give
// the same key. A code element whose native code is not one placeholder (Android's
// `<xliff:g>%1$s</xliff:g>`, an ICU plural's `} other {`) is a tag, and the placeholders inside it still
// count for placeholdersCorrespond.

import { scanTokens, type TokenType } from '../matching/tokenize.ts';
import { nativeCode, parseTagged } from './inline-tags.ts';

export type PlaceableKind = 'tag' | 'number' | 'placeholder';

/**
 * printf: `%s` `%1$s` `%.*s` `%lu` `%@` (C, PHP, Java, Objective-C, Android); python: `%(name)s`; brace:
 * `{0}` `{name}` `{n, number}` and `{n, plural, …}` (ICU, Python str.format, C#); i18next: `{{count}}`
 * `{{- var}}`; ruby: `%{count}` `%<count>d` (Rails); shell: `$VAR` `${VAR}`; entity: HTML character
 * references `&amp;` `&nbsp;` `&#160;` in strings that hold markup as text (PO, JSON, YAML, plain text; the
 * HTML, Markdown and XML filters decode them, so their text holds none).
 */
export type PlaceholderSyntax = 'printf' | 'python' | 'brace' | 'i18next' | 'ruby' | 'shell' | 'entity';

export const PLACEHOLDER_SYNTAXES: readonly PlaceholderSyntax[] = [
  'printf',
  'python',
  'brace',
  'i18next',
  'ruby',
  'shell',
  'entity',
];

export interface Placeable {
  kind: PlaceableKind;
  /** Its characters in the tagged text: a whole `<ph>…</ph>` when a filter protected the placeholder. */
  text: string;
  /**
   * What it is, however it is written: the number's digits (NFKC), the placeholder in one spelling — the
   * scorer's token norm (`{{count}}` for `{{ count }}` and for `<ph id="3">{{count}}</ph>`), the tag as
   * written.
   */
  key: string;
  /** Placeholders only. */
  syntax?: PlaceholderSyntax;
  /** UTF-16 offsets of `text` in the tagged text. */
  start: number;
  end: number;
}

/** One substitution repairTarget made: every `from` of the match's target became `to`. */
export interface Repair {
  from: string;
  to: string;
  /** What `to` is. */
  kind: PlaceableKind;
}

/** The placeables of tagged text in order. */
export function placeablesOf(tagged: string): Placeable[] {
  const found: Placeable[] = [];
  scan(tagged, 0, tagged.length, found);
  return found;
}

/** The syntax of a placeholder, from its key (the scorer's token norm). */
function syntaxOfKey(key: string): PlaceholderSyntax {
  if (key.startsWith('%(')) return 'python';
  if (key.startsWith('%{') || key.startsWith('%<')) return 'ruby';
  if (key[0] === '%') return 'printf';
  if (key[0] === '$') return 'shell';
  if (key[0] === '&') return 'entity';
  return key.startsWith('{{') ? 'i18next' : 'brace';
}

// The head of an ICU plural or select: its argument. What follows it up to the closing brace is branches.
const ICU_HEAD = /\{\s*([\p{L}\p{N}_]+)\s*,\s*(plural|select|selectordinal)\s*,/uy;
// One branch's selector and opening brace: `=0 {`, `one {`, `offset:1 other {`.
const SELECTOR = /\s*(?:offset:\s*\d+\s+)?(=\d+|[\w-]+)\s*\{/y;
const SLOT = '\u0000';
// How deep plurals and selects are read for the placeables in their branches; one nested deeper is a
// placeholder alone. Each level is a call of scan and a pass over its branches: a segment of 40,000 characters
// of nested plurals ran out of stack (a segment's source is as long as a file's paragraph), and 256 KB of them
// took 3 s. The JSON filter protects no deeper messages either (src/formats/json/message-tags.ts).
export const MAX_ICU_NESTING = 32;

interface Token {
  type: TokenType;
  norm: string;
  real: string;
  start: number;
  end: number;
}

/**
 * Appends the placeables of text[from, to) to `found` and, when given, the text between them to
 * `skeleton`: the scorer's token norms (lower-cased words, punctuation) with one SLOT per placeable.
 */
function scan(
  text: string,
  from: number,
  to: number,
  found: Placeable[],
  skeleton?: string[],
  depth = 0,
): void {
  const tokens: Token[] = [];
  scanTokens(text.slice(from, to), (type, norm, real, start, end) => {
    tokens.push({ type, norm, real, start: from + start, end: from + end });
  });
  const add = (p: Placeable) => {
    found.push(p);
    skeleton?.push(SLOT);
  };
  for (const t of tokens) {
    const raw = text.slice(t.start, t.end);
    if (t.type === 'word') skeleton?.push(t.norm.normalize('NFC'));
    else if (t.type === 'number') add({ kind: 'number', text: raw, key: t.real, start: t.start, end: t.end });
    else if (t.type === 'punct') skeleton?.push(t.norm);
    else if (t.type === 'tag') add({ kind: 'tag', text: raw, key: raw, start: t.start, end: t.end });
    else {
      const head = raw[0] === '{' && raw[1] !== '{' ? sticky(ICU_HEAD, text, t.start, t.end) : null;
      if (head && head[0].length < raw.length && depth < MAX_ICU_NESTING) {
        // A plural or select: its head is the argument, its branches are text with placeables of their own.
        add(placeholder(t.norm, head[0], t.start));
        scanBranches(text, t.start + head[0].length, t.end, found, depth + 1, skeleton);
      } else add(placeholder(t.norm, raw, t.start));
    }
  }
}

/** The branches `one {…} other {…}` of an ICU plural or select from `at` (after its head) to `end`. */
function scanBranches(
  text: string,
  at: number,
  end: number,
  found: Placeable[],
  depth: number,
  skeleton?: string[],
): void {
  for (let m = sticky(SELECTOR, text, at, end); m; m = sticky(SELECTOR, text, at, end)) {
    const open = at + m[0].length;
    let unclosed = 1;
    let close = open;
    for (; close < end && unclosed > 0; close++) {
      const c = text.charCodeAt(close);
      if (c === 0x7b) unclosed++;
      else if (c === 0x7d) unclosed--;
    }
    if (unclosed > 0) return;
    skeleton?.push(m[1]);
    scan(text, open, close - 1, found, skeleton, depth);
    at = close;
  }
}

function placeholder(key: string, text: string, start: number): Placeable {
  return { kind: 'placeholder', syntax: syntaxOfKey(key), key, text, start, end: start + text.length };
}

function sticky(re: RegExp, text: string, at: number, to: number): RegExpExecArray | null {
  re.lastIndex = at;
  const m = re.exec(text);
  return m && at + m[0].length <= to ? m : null;
}

// ——— repair ———

/**
 * Auto-propagation of placeables (memoQ, Trados): `matchTarget` translates `matchSource`; `source` is the
 * text being translated. When the two sources' placeables differ, each placeable of matchSource is mapped
 * to the one at the same position in source, and every occurrence of a changed one in matchTarget is
 * replaced by its counterpart (all at once, so that swapped `%1$s`/`%2$s` swap).
 *
 * How strict: the sources must have as many placeables. When their text apart from placeables is the same
 * to the scorer — words compared lower-cased, whitespace ignored, punctuation as written — a slot's
 * placeable may change its kind (`3` → `%d`, `%1$s` → `<xliff:g>` code), since the identical words pin
 * down what the slot is; only an open tag must stay an open tag and a close tag a close tag. When the words
 * differ too, placeables are still repaired, but only kind for kind (a number for a number, a placeholder
 * for a placeholder, a tag for a tag of the same role): that is what memoQ does for numbers, and a fuzzy
 * match's words are reviewed by the translator anyway, while a stale placeholder is what crashes programs.
 *
 * Null (never a guess) when the placeables cannot be paired: different counts, kinds that do not pair,
 * one placeable of matchSource paired with two different ones of source, or a changed placeable that
 * occurs in matchTarget a different number of times than in matchSource.
 */
export function repairTarget(
  matchSource: string,
  matchTarget: string,
  source: string,
): { target: string; repairs: Repair[] } | null {
  const oldSkeleton: string[] = [];
  const newSkeleton: string[] = [];
  const before: Placeable[] = [];
  const after: Placeable[] = [];
  scan(matchSource, 0, matchSource.length, before, oldSkeleton);
  scan(source, 0, source.length, after, newSkeleton);
  if (before.length !== after.length) return null;
  if (before.every((p, i) => p.key === after[i].key)) return { target: matchTarget, repairs: [] };

  const sameWords =
    oldSkeleton.length === newSkeleton.length && oldSkeleton.every((w, i) => w === newSkeleton[i]);
  const pairs = new Map<string, Placeable>();
  for (let i = 0; i < before.length; i++) {
    const [a, b] = [before[i], after[i]];
    const pairable = sameWords
      ? role(a) === role(b)
      : a.kind === b.kind && (a.kind !== 'tag' || role(a) === role(b));
    if (!pairable) return null;
    const earlier = pairs.get(a.key);
    if (earlier && earlier.key !== b.key) return null;
    pairs.set(a.key, b);
  }
  const changes = new Map([...pairs].filter(([key, b]) => key !== b.key));

  const inTarget = placeablesOf(matchTarget);
  const count = (list: Placeable[], key: string) => list.filter((p) => p.key === key).length;
  for (const key of changes.keys()) if (count(before, key) !== count(inTarget, key)) return null;
  let target = '';
  let at = 0;
  for (const p of inTarget) {
    const b = changes.get(p.key);
    if (!b) continue;
    target += matchTarget.slice(at, p.start) + b.text;
    at = p.end;
  }
  target += matchTarget.slice(at);
  const repairs = [...changes].map(([key, b]) => ({
    from: before.find((p) => p.key === key)!.text,
    to: b.text,
    kind: b.kind,
  }));
  return { target, repairs };
}

/** What a placeable does in its text: opens or closes a span, or stands alone (numbers, placeholders). */
function role(p: Placeable): 'open' | 'close' | 'alone' {
  if (p.kind !== 'tag') return 'alone';
  const [part] = parseTagged(p.text);
  if (part.type === 'text') {
    // HTML markup written as text (PO, Android CDATA): the tokenizer knows <br> from <b>.
    let form = '';
    scanTokens(p.text, (_type, norm) => {
      form ||= norm.split(':')[1];
    });
    return form === 'open' ? 'open' : form === 'close' ? 'close' : 'alone';
  }
  if (part.form === 'open' || part.name === 'bpt' || part.name === 'bx') return 'open';
  if (part.form === 'close' || part.name === 'ept' || part.name === 'ex') return 'close';
  return 'alone';
}

// ——— correspondence ———

/**
 * Whether `target` holds the executable placeholders of `source` (numbers and tags do not execute), of the
 * given syntaxes (default: all), as the ecosystems check them:
 *   printf and python: by argument, the way `msgfmt -c` does. Unnumbered `%s %d` are arguments 1, 2…, so
 *     their order matters; numbered `%2$s %1$d` may be reordered and repeated; each argument's type must be
 *     the same (`%d` = `%i`, `%e` = `%g`, but `%d` ≠ `%x` ≠ `%ld`), named `%(n)s` by name. A string that mixes
 *     numbered and unnumbered arguments, or skips a number, is no format string at all: false.
 *   brace, i18next, ruby, shell: the same set of names (repeating a name is fine, as at run time).
 * allowMissing: the target may leave arguments out, but not add or change any — gettext's rule for a
 * plural form used for a single n ("one file" for "%d files").
 */
export function placeholdersCorrespond(
  source: string,
  target: string,
  syntaxes: readonly PlaceholderSyntax[] = PLACEHOLDER_SYNTAXES,
  options: { allowMissing?: boolean } = {},
): boolean {
  const ours = executablePlaceholders(source).filter((p) => syntaxes.includes(p.syntax!));
  const theirs = executablePlaceholders(target).filter((p) => syntaxes.includes(p.syntax!));
  const within = (a: Map<string, string>, b: Map<string, string>) =>
    [...a].every(([ref, type]) => b.get(ref) === type);
  const agree = (s: Map<string, string> | null, t: Map<string, string> | null) =>
    s !== null && t !== null && within(t, s) && (options.allowMissing || within(s, t));
  if (!agree(printfArguments(ours), printfArguments(theirs))) return false;
  return (['brace', 'i18next', 'ruby', 'shell'] as const).every((syntax) =>
    agree(names(ours, syntax), names(theirs, syntax)),
  );
}

/**
 * Whether two lists of placeholders read the same printf and Python arguments, as msgfmt -c compares them
 * (`%s %d` and `%2$d %1$s` do; `%s %d` and `%d %s` do not); other syntaxes are ignored.
 */
export function sameFormatArguments(source: readonly Placeable[], target: readonly Placeable[]): boolean {
  const a = printfArguments(source);
  const b = printfArguments(target);
  return a !== null && b !== null && a.size === b.size && [...a].every(([ref, type]) => b.get(ref) === type);
}

/** Placeholders of tagged text, those inside code elements' native code included. */
function executablePlaceholders(tagged: string): Placeable[] {
  return placeablesOf(tagged).flatMap((p) => {
    if (p.kind === 'placeholder') return [p];
    const [part] = p.kind === 'tag' ? parseTagged(p.text) : [];
    return part?.type === 'tag' && part.form === 'code' ? executablePlaceholders(nativeCode(part)) : [];
  });
}

const PRINTF_PARTS =
  /^%(?:(\d+)\$)?(?:\(([^()]*)\))?[-+#0']*(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|L|q|j|z|t)?(.)$/;

/**
 * printf arguments (reference → type), keyed "1", "2"… or by name; null for a string that is not a valid
 * format string: numbered and unnumbered (or named) arguments mixed, a number skipped, one argument given
 * two types.
 */
function printfArguments(placeholders: readonly Placeable[]): Map<string, string> | null {
  const args = new Map<string, string>();
  let unnumbered = 0;
  let numbered = false;
  let named = false;
  let valid = true;
  const add = (ref: string, type: string) => {
    if (args.has(ref) && args.get(ref) !== type) valid = false;
    args.set(ref, type);
  };
  for (const p of placeholders) {
    if (p.syntax !== 'printf' && p.syntax !== 'python') continue;
    const [, number, name, width, precision, size, conversion] = PRINTF_PARTS.exec(p.key)!;
    const type = argumentType(size ?? '', conversion);
    if (name !== undefined) {
      named = true;
      add(`(${name})`, type);
    } else if (number !== undefined) {
      numbered = true;
      // `%1$*s` takes its width from an unnumbered argument: mixed.
      if (width === '*' || precision === '*') valid = false;
      add(number, type);
    } else {
      if (width === '*') add(String(++unnumbered), 'int');
      if (precision === '*') add(String(++unnumbered), 'int');
      add(String(++unnumbered), type);
    }
  }
  if (Number(numbered) + Number(named) + Number(unnumbered > 0) > 1) return null;
  if (numbered && [...args.keys()].some((ref) => Number(ref) > args.size)) return null;
  return valid ? args : null;
}

/** The C type an argument is read as: what printf and msgfmt compare (sizes count, spellings do not). */
function argumentType(size: string, conversion: string): string {
  const length = size === 'q' ? 'll' : size;
  if ('di'.includes(conversion)) return `${length}int`;
  if ('ouxX'.includes(conversion)) return `${length}unsigned`;
  if ('eEfFgGaA'.includes(conversion)) return `${length}double`;
  if (conversion === 'C') return 'lchar';
  if (conversion === 'S') return 'lstring';
  if (conversion === 'c') return `${length}char`;
  if (conversion === 's') return `${length}string`;
  if (conversion === 'n') return `${length}count`;
  return conversion === 'p' ? 'pointer' : 'object';
}

/** The names a syntax's placeholders refer to (each with the same dummy type, for `agree`). */
function names(placeholders: readonly Placeable[], syntax: PlaceholderSyntax): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of placeholders) if (p.syntax === syntax) out.set(nameOf(p), syntax);
  return out;
}

function nameOf(p: Placeable): string {
  switch (p.syntax) {
    case 'i18next':
      // {{- var}} unescaped, {{var, format}} formatted: the variable is `var` either way.
      return p.key.slice(2, -2).replace(/^-\s*/, '').split(',')[0].trim();
    case 'ruby':
      return /^%[{<]([^}>]+)/.exec(p.key)![1];
    case 'shell':
      return p.key.slice(1);
    default:
      // {n}, {n,number}, {n,plural}: the argument n.
      return p.key.slice(1).split(/[,}]/)[0];
  }
}
