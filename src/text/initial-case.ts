// A fuzzy match whose source starts in lower case where the segment's starts with a capital — "could not
// open file" stored, "Could not open file" being translated — starts its target as the stored text did: a
// fragment's lower case ("konnte Datei … nicht öffnen") where the segment is a sentence. The target's first
// letter is then raised to upper case, as the translator would. Only upward: lowering a target's capital
// would be wrong wherever the language capitalises the word itself (German nouns: "Datei konnte …").
import { plainText } from './inline-tags.ts';

const FIRST_LETTER = /\p{L}/u;

/** The first character of the text, when it is a letter (nothing before it: no tag, digit or punctuation). */
function leadingLetter(text: string): string | undefined {
  const first = String.fromCodePoint(text.codePointAt(0) ?? 0);
  return FIRST_LETTER.test(first) ? first : undefined;
}

/**
 * matchTarget with its first letter in upper case when the segment's source starts with an upper-case letter,
 * the match's source with a lower-case one, and matchTarget with a lower-case letter; else matchTarget as it
 * is. Sources are compared as plain text (tags aside); the target must start
 * with the letter itself, not a tag or a placeholder.
 */
export function raiseInitialCase(
  matchSource: string,
  matchTarget: string,
  source: string,
  targetLanguage?: string,
): string {
  const was = leadingLetter(plainText(matchSource));
  const is = leadingLetter(plainText(source));
  if (!was || !is) return matchTarget;
  const lower = (c: string) => c.toLowerCase() === c && c.toUpperCase() !== c;
  const upper = (c: string) => c.toUpperCase() === c && c.toLowerCase() !== c;
  if (!lower(was) || !upper(is)) return matchTarget;
  const first = leadingLetter(matchTarget);
  if (!first) return matchTarget;
  const raised = first.toLocaleUpperCase(targetLanguage);
  if (raised === first || first.toLocaleLowerCase(targetLanguage) !== first) return matchTarget;
  return raised + matchTarget.slice(first.length);
}
