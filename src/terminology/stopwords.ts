// The function words of a language ("the", "to", "of"; "der", "zu", "von"), which are never terms: the
// stopword package's lists, keyed by ISO 639-3, found from a BCP 47 tag's primary subtag.
import { iso6393 } from 'iso-639-3';
import * as lists from 'stopword';
import { primaryLanguage } from '../text/language-tags.ts';

const THREE = new Map<string, string>();
for (const l of iso6393) if (l.iso6391) THREE.set(l.iso6391, l.iso6393);
// The package's own names where they are not the ISO 639-3 code of the language's tag.
const SPECIAL: Record<string, string> = { pt: 'por', no: 'nob', nb: 'nob', fa: 'fas', ms: 'msa', zh: 'zho' };

/** The stopwords of a language tag, lower-cased; empty for a language the package has no list of. */
export function stopwordsOf(lang: string): ReadonlySet<string> {
  const primary = primaryLanguage(lang);
  const code = SPECIAL[primary] ?? THREE.get(primary) ?? primary;
  const list = (lists as unknown as Record<string, unknown>)[code];
  return new Set(Array.isArray(list) ? list.map((w: string) => w.toLowerCase()) : []);
}
