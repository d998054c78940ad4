// gettext plural rules: the Plural-Forms of common target languages, and which rule a catalog uses.
//
// A merged catalog must carry exactly nplurals msgstr[n] lines per plural entry and a Plural-Forms header
// that says so (msgfmt --check), so extract and merge take the number of forms from the same place.

export interface PluralRule {
  nplurals: number;
  /** The C expression of the Plural-Forms header, giving the form index for n. */
  plural: string;
}

const ONE: PluralRule = { nplurals: 1, plural: '0' };
const NOT_ONE: PluralRule = { nplurals: 2, plural: '(n != 1)' };
const ABOVE_ONE: PluralRule = { nplurals: 2, plural: '(n > 1)' };
const EAST_SLAVIC: PluralRule = {
  nplurals: 3,
  plural: '(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)',
};
const CZECH: PluralRule = { nplurals: 3, plural: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' };

/** The rules gettext's own documentation and the major catalogs (GNOME, Debian) use. */
const PLURAL_RULES: Record<string, PluralRule> = {
  ...Object.fromEntries(['ja', 'zh', 'ko', 'vi', 'th', 'id', 'ms', 'lo', 'km', 'my'].map((l) => [l, ONE])),
  ...Object.fromEntries(
    [
      'en',
      'de',
      'nl',
      'sv',
      'da',
      'nb',
      'nn',
      'no',
      'fi',
      'et',
      'it',
      'es',
      'pt',
      'el',
      'hu',
      'bg',
      'ca',
      'eu',
      'gl',
      'he',
      'af',
      'sq',
      'az',
      'eo',
      'tr',
      'ur',
      'hi',
      'bn',
      'ta',
      'te',
      'ml',
      'mr',
      'kn',
      'gu',
      'sw',
      'fy',
      'fo',
      'nds',
      'ast',
      'kk',
      'ky',
      'mn',
      'ne',
      'pa',
      'si',
    ].map((l) => [l, NOT_ONE]),
  ),
  ...Object.fromEntries(
    ['fr', 'pt-br', 'oc', 'br', 'fil', 'ak', 'am', 'ln', 'mg', 'ti', 'wa'].map((l) => [l, ABOVE_ONE]),
  ),
  ...Object.fromEntries(['ru', 'uk', 'be', 'sr', 'hr', 'bs'].map((l) => [l, EAST_SLAVIC])),
  cs: CZECH,
  sk: CZECH,
  pl: { nplurals: 3, plural: '(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)' },
  lt: { nplurals: 3, plural: '(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2)' },
  lv: { nplurals: 3, plural: '(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2)' },
  ro: { nplurals: 3, plural: '(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2)' },
  is: { nplurals: 2, plural: '(n%10!=1 || n%100==11)' },
  sl: { nplurals: 4, plural: '(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3)' },
  ga: { nplurals: 5, plural: '(n==1 ? 0 : n==2 ? 1 : n<7 ? 2 : n<11 ? 3 : 4)' },
  cy: { nplurals: 4, plural: '(n==1) ? 0 : (n==2) ? 1 : (n != 8 && n != 11) ? 2 : 3' },
  ar: {
    nplurals: 6,
    plural: '(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5)',
  },
};

const DEFAULT_PLURAL_RULE = NOT_ONE;

/**
 * The most plural forms a header may declare. No language has more than six (CLDR); each form of each plural
 * message is a unit to translate, so a 130-byte catalog declaring nplurals=100000 made 100,000 units (1 s on
 * the server's thread, and ten times that per extra zero). More is read as a malformed header.
 */
export const MAX_PLURAL_FORMS = 10;

/** Parses a Plural-Forms header value; undefined when it is the template's placeholder or malformed. */
export function parsePluralForms(header: string | undefined): PluralRule | undefined {
  const m = /nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?/.exec(header ?? '');
  if (!m || Number(m[1]) < 1 || Number(m[1]) > MAX_PLURAL_FORMS || !compilePlural(m[2].trim()))
    return undefined;
  return { nplurals: Number(m[1]), plural: m[2].trim() };
}

/** The table's rule for a language tag (region first: pt-BR differs from pt), if it has one. */
export function knownPluralRule(lang: string): PluralRule | undefined {
  const tag = lang.toLowerCase().replace(/_/g, '-');
  return PLURAL_RULES[tag] ?? PLURAL_RULES[tag.split('-')[0]];
}

/**
 * The rule a catalog is translated with: its own header when it is already a catalog of the target
 * language, else the table's rule for the target, else its header, else "n != 1".
 */
export function catalogPluralRule(headers: Record<string, string>, trglang: string): PluralRule {
  const own = parsePluralForms(headers['Plural-Forms']);
  const primary = (lang: string) => lang.toLowerCase().split(/[-_@.]/)[0];
  const language = headers.Language ?? '';
  if (own && language && primary(language) === primary(trglang)) return own;
  return knownPluralRule(trglang) ?? own ?? DEFAULT_PLURAL_RULE;
}

/** Some n that select the given form, for the translator's note, e.g. [2, 3, 4, 22]. */
export function examplesForForm(rule: PluralRule, form: number, count = 4): number[] {
  const select = compilePlural(rule.plural);
  const out: number[] = [];
  for (let n = 0; select && n <= 1000 && out.length < count; n++) if (select(n) === form) out.push(n);
  return out;
}

// Plural expressions are C over n and integers; one made of nothing else is safe to evaluate as JS.
// Division is left out: C's is integral, JS's is not, and no common rule uses it.
function compilePlural(expression: string): ((n: number) => number) | undefined {
  if (!/^[\sn0-9?:|&=!<>%()+*-]+$/.test(expression)) return undefined;
  try {
    const f = new Function('n', `return Number(${expression});`) as (n: number) => number;
    return Number.isInteger(f(1)) ? f : undefined;
  } catch {
    return undefined;
  }
}
