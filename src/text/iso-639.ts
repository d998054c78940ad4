// ISO 639-1 ⇄ ISO 639-3 language codes (`en` ⇄ `eng`), for the services and lists keyed by the three-letter
// codes (Apertium's pairs, the stopword lists). Kept apart from language-tags.ts: the table is large, and the
// web application bundles that file.
import { iso6393 } from 'iso-639-3';

const TO_THREE = new Map<string, string>();
const TO_TWO = new Map<string, string>();
for (const l of iso6393) {
  if (l.iso6391) {
    TO_THREE.set(l.iso6391, l.iso6393);
    TO_TWO.set(l.iso6393, l.iso6391);
  }
}

/** The ISO 639-3 code of a two-letter one (`en` → `eng`); undefined for a code it does not know. */
export function threeLetterCode(two: string): string | undefined {
  return TO_THREE.get(two);
}

/** The two-letter code of an ISO 639-3 one (`eng` → `en`); undefined when the language has none. */
export function twoLetterCode(three: string): string | undefined {
  return TO_TWO.get(three);
}
