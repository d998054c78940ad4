// Find and replace in tagged text: matches are looked for and replaced in the text runs between inline tags
// only, so a replacement never touches a tag (and a match never spans one).
import { errors } from '../../errors.ts';
import { startThread } from '../../tasks/threads.ts';
import { parseTagged } from '../../text/inline-tags.ts';

export interface ReplaceSpec {
  find: string;
  replace: string;
  /** `find` is a JavaScript regular expression; `replace` may then name groups ($1, $<name>). */
  regex: boolean;
  caseSensitive: boolean;
}

/** A function from tagged text to the replaced text; a bad expression is a 400 naming `find`. */
export function compileReplacer(spec: ReplaceSpec): (tagged: string) => string {
  if (spec.find === '') throw errors.missingParameter('find');
  const flags = `g${spec.caseSensitive ? '' : 'i'}u`;
  let pattern: RegExp;
  try {
    pattern = new RegExp(spec.regex ? spec.find : spec.find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  } catch (err) {
    throw errors.badParameter(
      `Parameter "find" is not a valid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
    );
  }
  const replaceRun = (text: string) =>
    text.replace(pattern, (...args) => {
      const match = args[0] as string;
      // An expression that matches empty text (a*, ^, \b) inserts nothing: replacing nothing is no change.
      if (match === '') return '';
      if (!spec.regex) return spec.replace;
      const named = typeof args[args.length - 1] === 'object' ? (args.pop() as Record<string, string>) : {};
      return expand(spec.replace, match, args.slice(1, -2) as (string | undefined)[], named);
    });
  return (tagged) => {
    if (tagged.indexOf('<') < 0) return replaceRun(tagged);
    let out = '';
    for (const part of parseTagged(tagged)) out += part.type === 'text' ? replaceRun(part.text) : part.raw;
    return out;
  };
}

/** How long a regular-expression replace over a document may take before it is refused. */
export const REGEX_DEADLINE_MS = 10_000;

/**
 * Each text replaced. A regular expression runs in a worker thread under a deadline (a pattern such as
 * (a+)+$ can backtrack for ever, and no JavaScript engine stops a match half-way); plain text runs here.
 */
export async function replaceAll(
  spec: ReplaceSpec,
  texts: readonly string[],
  deadlineMs = REGEX_DEADLINE_MS,
): Promise<string[]> {
  const replace = compileReplacer(spec);
  if (!spec.regex || texts.length === 0) return texts.map(replace);
  const worker = startThread(new URL('./replace-worker.ts', import.meta.url), { spec, texts });
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            errors.badParameter(
              `Parameter "find": the regular expression took longer than ${deadlineMs / 1000} s; simplify it`,
            ),
          ),
        deadlineMs,
      );
      worker.once('message', (answer: string[]) => {
        clearTimeout(timer);
        resolve(answer);
      });
      worker.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  } finally {
    void worker.terminate();
  }
}

/** A replacement's $-patterns expanded as String.prototype.replace does: $$, $&, $1…$99, $<name>. */
function expand(
  replacement: string,
  match: string,
  groups: readonly (string | undefined)[],
  named: Record<string, string | undefined>,
): string {
  return replacement.replace(/\$(\$|&|\d{1,2}|<([^>]*)>)/g, (token, what: string, name?: string) => {
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
  });
}
