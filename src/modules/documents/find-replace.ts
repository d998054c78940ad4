// Find and replace in tagged text: matches are looked for and replaced in the text runs between inline tags
// only, so a replacement never touches a tag (and a match never spans one). The result is built under a
// length bound: a replacement that would make a text longer than the bound stops as soon as it passes it,
// so that a short pattern with a long replacement (every "e" of a large document → 5,000 characters) never
// asks for gigabytes of strings before being refused. A regular expression's replacement is expanded under
// what is left of the bound too: "$&" 2,500 times over a paragraph of a million characters would otherwise
// be built whole (past V8's longest string, a RangeError) before the bound is looked at.
import { errors } from '../../errors.ts';
import { parseTagged } from '../../text/inline-tags.ts';

export interface ReplaceSpec {
  find: string;
  replace: string;
  /** `find` is a JavaScript regular expression; `replace` may then name groups ($1, $<name>). */
  regex: boolean;
  caseSensitive: boolean;
}

/** The bad expression as a 400 naming `find`; answers the pattern otherwise. */
export function compilePattern(spec: ReplaceSpec): RegExp {
  if (spec.find === '') throw errors.missingParameter('find');
  const flags = `g${spec.caseSensitive ? '' : 'i'}u`;
  try {
    return new RegExp(spec.regex ? spec.find : spec.find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  } catch (err) {
    throw errors.badParameter(
      `Parameter "find" is not a valid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
    );
  }
}

/**
 * Pieces of a result and its length. Past `max` no piece is kept any more (`over`): the length only grows
 * as pieces are appended, so the result can no longer be within the bound.
 */
class BoundedText {
  private readonly parts: string[] = [];
  length = 0;
  over = false;
  constructor(private readonly max: number) {}

  add(piece: string): void {
    this.length += piece.length;
    if (this.length > this.max) this.over = true;
    else if (piece !== '') this.parts.push(piece);
  }

  /** Characters that may still be added within the bound. */
  room(): number {
    return this.max - this.length;
  }

  /** A piece known to pass the bound, never built. */
  overflow(): void {
    this.over = true;
  }

  text(): string {
    return this.parts.join('');
  }
}

/**
 * A function from tagged text to the replaced text, or to null when the result would be longer than
 * `maxLength` (it is then not built: the replacing stops as soon as the result passes the bound). The text
 * itself is answered when nothing matched, whatever its length. A bad expression is a 400 naming `find`.
 */
export function compileReplacer(
  spec: ReplaceSpec,
  maxLength = Number.POSITIVE_INFINITY,
): (tagged: string) => string | null {
  const pattern = compilePattern(spec);
  /** Appends the run with its matches replaced; answers how many so far, or null once past the bound. */
  const replaceRun = (text: string, out: BoundedText, replaced: number): number | null => {
    pattern.lastIndex = 0;
    let last = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const match = m[0];
      if (match === '') {
        // An expression that matches empty text (a*, ^, \b) inserts nothing: replacing nothing is no change.
        // Step over the empty match by a code point, as String.prototype.replace does with the u flag.
        const code = text.codePointAt(pattern.lastIndex);
        pattern.lastIndex += code !== undefined && code > 0xffff ? 2 : 1;
        continue;
      }
      out.add(text.slice(last, m.index));
      const piece = spec.regex
        ? expand(spec.replace, match, m.slice(1), m.groups ?? {}, out.room())
        : spec.replace;
      if (piece === null) out.overflow();
      else out.add(piece);
      last = m.index + match.length;
      replaced++;
      if (out.over) return null;
    }
    out.add(text.slice(last));
    return replaced > 0 && out.over ? null : replaced;
  };
  return (tagged) => {
    const out = new BoundedText(maxLength);
    let replaced: number | null = 0;
    if (tagged.indexOf('<') < 0) replaced = replaceRun(tagged, out, 0);
    else {
      for (const part of parseTagged(tagged)) {
        if (part.type === 'tag') out.add(part.raw);
        else replaced = replaceRun(part.text, out, replaced);
        if (replaced === null || (replaced > 0 && out.over)) return null;
      }
    }
    if (replaced === null) return null;
    return replaced === 0 ? tagged : out.text();
  };
}

/**
 * A replacement's $-patterns expanded as String.prototype.replace does: $$, $&, $1…$99, $<name>; null when
 * the expansion would be longer than `room` characters (it is then not built: once past, every further
 * token expands to nothing, so what is built stays within room and the replacement's own length).
 */
function expand(
  replacement: string,
  match: string,
  groups: readonly (string | undefined)[],
  named: Record<string, string | undefined>,
  room: number,
): string | null {
  let inserted = 0;
  let over = false;
  const expanded = replacement.replace(
    /\$(\$|&|\d{1,2}|<([^>]*)>)/g,
    (token, what: string, name?: string) => {
      if (over) return '';
      const piece = tokenValue(token, what, name, match, groups, named);
      inserted += piece.length;
      if (inserted > room) over = true;
      return over ? '' : piece;
    },
  );
  return over || expanded.length > room ? null : expanded;
}

/** What one $-pattern of a replacement stands for. */
function tokenValue(
  token: string,
  what: string,
  name: string | undefined,
  match: string,
  groups: readonly (string | undefined)[],
  named: Record<string, string | undefined>,
): string {
  if (what === '$') return '$';
  if (what === '&') return match;
  if (name !== undefined) return named[name] ?? '';
  let n = Number(what);
  // "$12" with only one group is $1 followed by "2".
  if (n > groups.length && what.length === 2) {
    n = Number(what[0]);
    return n >= 1 && n <= groups.length ? (groups[n - 1] ?? '') + what[1] : token;
  }
  return n >= 1 && n <= groups.length ? (groups[n - 1] ?? '') : token;
}
