// Numbers of a text, read by the conventions of its language: `1,000.5` (en) and `1.000,5` (de) are one number.

import { primaryLanguage } from '../language-tags.ts';

/** Languages writing a decimal comma (and grouping with a point or a space). */
// biome-ignore format: a list of codes reads best packed
const DECIMAL_COMMA = new Set([
  'af', 'az', 'be', 'bg', 'bs', 'ca', 'cs', 'da', 'de', 'el', 'es', 'et', 'eu', 'fi', 'fo', 'fr', 'gl', 'hr',
  'hu', 'hy', 'id', 'is', 'it', 'ka', 'kk', 'ky', 'lb', 'lt', 'lv', 'mk', 'mn', 'nb', 'nl', 'nn', 'no', 'pl',
  'pt', 'ro', 'ru', 'sk', 'sl', 'sq', 'sr', 'sv', 'tr', 'uk', 'uz', 'vi',
]);

// A number: digits, optionally grouped by , . ' ’ or a (no-break, thin) space before three digits, with one
// decimal part. Plain spaces group only before exactly three digits, so "3 4" stays two numbers.
const NUMBER_RE = /\d+(?:(?:[.,'’\u00a0\u202f\u2009]| (?=\d{3}(?!\d)))\d+)*/g;

export interface FoundNumber {
  /** The number normalised: digits, with "." before the decimal part when there is one. */
  value: string;
  /** The characters as written, and where (offsets in the text searched). */
  text: string;
  start: number;
  end: number;
}

/** Full-width digits (Japanese, Chinese) read as ASCII ones; the length of the text is unchanged. */
function asciiDigits(text: string): string {
  return text.replace(/[\uff10-\uff19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}

function normalise(token: string, lang: string): string {
  const separators = [...token.matchAll(/[^\d]/g)].map((m) => ({ char: m[0], index: m.index }));
  if (separators.length === 0) return stripZeros(token, '');
  const digitsOnly = (s: string) => s.replace(/\D/g, '');
  const last = separators[separators.length - 1];
  const kinds = new Set(separators.map((s) => (s.char === '.' || s.char === ',' ? s.char : 'space')));
  let decimalAt: number | null = null;
  if (last.char === '.' || last.char === ',') {
    const after = token.length - last.index - 1;
    const sameBefore = separators.slice(0, -1).some((s) => s.char === last.char);
    if (sameBefore) decimalAt = null;
    else if (kinds.size > 1) decimalAt = last.index;
    else if (after !== 3) decimalAt = last.index;
    else {
      // "1,000" or "1.000": a group or a decimal part, as the language writes it.
      const decimal = DECIMAL_COMMA.has(lang) ? ',' : '.';
      decimalAt = last.char === decimal ? last.index : null;
    }
  }
  if (decimalAt === null) return stripZeros(digitsOnly(token), '');
  return stripZeros(digitsOnly(token.slice(0, decimalAt)), digitsOnly(token.slice(decimalAt + 1)));
}

function stripZeros(whole: string, fraction: string): string {
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  return f ? `${w}.${f}` : w;
}

/** Every number of the text, in order, read by the conventions of `lang` (ISO 639-1). */
export function findNumbers(text: string, lang: string): FoundNumber[] {
  const primary = primaryLanguage(lang);
  const found: FoundNumber[] = [];
  for (const m of asciiDigits(text).matchAll(NUMBER_RE)) {
    found.push({ value: normalise(m[0], primary), text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return found;
}
