// Words of a segment as the scorer counts them (docs/MATCHING.md §1): words and numbers; placeholders, tags and
// punctuation are not words, and CJK text counts a word per character — what leverage analyses are billed by.
// A placeholder is content to the score (a missing one costs a match as a missing word does) but not a word
// of work: it is copied, not translated, as CAT tools count placeables.
import { scanTokens } from './tokenize.ts';

export function countWords(tagged: string): number {
  let words = 0;
  scanTokens(tagged.normalize('NFC'), (type) => {
    if (type === 'word' || type === 'number') words++;
  });
  return words;
}
