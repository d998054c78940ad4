// ISO 639-1 codes and their English names, read from the runtime's ICU data rather than a hand-kept table.

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

function computeCodes(): string[] {
  const codes: string[] = [];
  for (let a = 97; a <= 122; a++) {
    for (let b = 97; b <= 122; b++) {
      const code = String.fromCharCode(a, b);
      // ICU names deprecated aliases too (iw → Hebrew); keep only canonical codes.
      if (names.of(code) && Intl.getCanonicalLocales(code)[0] === code) codes.push(code);
    }
  }
  return codes;
}

/** Every ISO 639-1 code ICU knows, sorted. */
export const ISO_639_1_CODES: readonly string[] = Object.freeze(computeCodes());
const CODE_SET = new Set(ISO_639_1_CODES);

export function isLanguageCode(code: string): boolean {
  return CODE_SET.has(code);
}

export function languageName(code: string): string {
  return names.of(code) ?? code;
}
