// Text → the tokens terms are recognized by: the matching engine's scan (src/matching/tokenize.ts: Unicode word
// boundaries, one token per character of the scripts written without spaces, tags and placeholders of tagged
// text) with each word lower-cased and stemmed by its language (stemmers.ts). Offsets stay those of the text as
// given, tags included, so that a match can be highlighted in the tagged source and a QA issue placed in the
// tagged target.
import {
  SPAN_NUMBER,
  SPAN_PLACEHOLDER,
  SPAN_PUNCT,
  SPAN_TAG,
  scanSpans,
  WIDE_DIGITS,
  wordReal,
} from '../matching/tokenize.ts';
import { primaryLanguage } from '../text/language-tags.ts';
import { lowerCaserOf, stemmerOf } from './stemmers.ts';

/**
 * What a token is to a term:
 * - `word`: a word or number, compared by its key (stem of the lower-cased word; digits for a number);
 * - `punct`: a punctuation mark, compared as written — a term that holds one (`C++`, `Save as…`) needs it, and
 *   one between two words ("translation, memory") keeps them from being one term;
 * - `barrier`: a placeholder — it stands for words of its own, so no term runs across it or holds it.
 * Tags are no tokens at all: a term runs across `<b>…</b>` and its match's offsets enclose the tags.
 */
export type TermTokenKind = 'word' | 'punct' | 'barrier';

export interface TermToken {
  kind: TermTokenKind;
  /** What tokens are compared by (empty for a barrier). */
  key: string;
  /** The token as written (case-sensitive terms compare it). */
  surface: string;
  /** UTF-16 offsets in the text as given. */
  start: number;
  end: number;
  /** A match may begin here: every token but the second and later syllables of a Korean word. */
  anchor: boolean;
}

export interface TermTokenizer {
  readonly lang: string;
  /** The key of a word as written (cached: the words of a language repeat). */
  keyOf(surface: string): string;
  tokens(text: string): TermToken[];
}

const HANGUL = /\p{scx=Hangul}/u;
/** Keys of words a tokenizer remembers before it starts again: a bound on its memory in a long-lived process. */
const KEY_CACHE_LIMIT = 100_000;

/**
 * The tokenizer of a language. Korean words carry their particles and endings (파일을 "the file" as an
 * object), which no stemmer here removes: a Korean word is cut into its syllables, a match may begin only at
 * a word's first one, and it may end inside a word — 파일 is found in 파일을 and 파일이, not in 프로파일.
 */
export function termTokenizer(lang: string): TermTokenizer {
  const stem = stemmerOf(lang);
  const lower = lowerCaserOf(lang);
  const korean = primaryLanguage(lang) === 'ko';
  const cache = new Map<string, string>();
  const keyOf = (surface: string): string => {
    let key = cache.get(surface);
    if (key === undefined) {
      // NFC so that a decomposed "é" is the composed one; the typographic apostrophe is the straight one the
      // stemmers know (English strips "'s").
      key = lower(surface.normalize('NFC')).replace(/\u2019/g, "'");
      if (stem) key = stem(key);
      if (cache.size >= KEY_CACHE_LIMIT) cache.clear();
      cache.set(surface, key);
    }
    return key;
  };
  const tokens = (text: string): TermToken[] => {
    const out: TermToken[] = [];
    scanSpans(text, (kind, start, end, flags) => {
      if (kind === SPAN_TAG) return;
      if (kind === SPAN_PLACEHOLDER) {
        out.push({ kind: 'barrier', key: '', surface: text.slice(start, end), start, end, anchor: false });
        return;
      }
      if (kind === SPAN_PUNCT) {
        const surface = text.slice(start, end);
        out.push({ kind: 'punct', key: surface.normalize('NFC'), surface, start, end, anchor: true });
        return;
      }
      if (kind === SPAN_NUMBER) {
        const surface = text.slice(start, end);
        const key = flags & WIDE_DIGITS ? wordReal(text, start, end, flags) : surface;
        out.push({ kind: 'word', key, surface, start, end, anchor: true });
        return;
      }
      const surface = text.slice(start, end);
      if (korean && HANGUL.test(surface)) {
        let at = start;
        for (const syllable of surface) {
          const key = syllable.normalize('NFC');
          out.push({
            kind: 'word',
            key,
            surface: syllable,
            start: at,
            end: at + syllable.length,
            anchor: at === start,
          });
          at += syllable.length;
        }
        return;
      }
      out.push({ kind: 'word', key: keyOf(surface), surface, start, end, anchor: true });
    });
    return out;
  };
  return { lang, keyOf, tokens };
}
