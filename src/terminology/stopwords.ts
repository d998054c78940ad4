// The function words of a language ("the", "to", "of"; "der", "zu", "von"), which are never terms: the
// stopword package's lists, keyed by ISO 639-3, found from a BCP 47 tag's primary subtag.
import * as lists from 'stopword';
import { threeLetterCode } from '../text/iso-639.ts';
import { primaryLanguage } from '../text/language-tags.ts';

// Where the package's name is not the ISO 639-3 code of the tag: Norwegian (`nor`) has Bokmål's list.
const SPECIAL: Record<string, string> = { no: 'nob' };

/** The stopwords of a language tag, lower-cased; empty for a language the package has no list of. */
export function stopwordsOf(lang: string): ReadonlySet<string> {
  const primary = primaryLanguage(lang);
  const code = SPECIAL[primary] ?? threeLetterCode(primary) ?? primary;
  const list = (lists as unknown as Record<string, unknown>)[code];
  return new Set(Array.isArray(list) ? list.map((w: string) => w.toLowerCase()) : []);
}
