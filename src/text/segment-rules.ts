// Per-language sentence segmentation rules, kept as data: abbreviations and SRX-style break/no-break rules.
//
// Intl.Segmenter (ICU, UAX #29) makes the first cut; these rules correct it. A rule's `before` and
// `after` are regular-expression sources (compiled with the `u` flag) matched against the text on each
// side of a position: `before` must end there, `after` must start there. A no-break rule removes a
// cut, a break rule adds one; no-break wins. Positions are right after the sentence's last character,
// before the whitespace that separates it from the next sentence.

export interface SegmentRule {
  break: boolean;
  before: string;
  after: string;
  /** Why the rule exists (kept with the data so a reviewer can judge it). */
  why: string;
}

export interface LanguageRules {
  /** No break after these; a space inside (`z. B.`) matches any whitespace or none (`z.B.`). */
  abbreviations?: string[];
  /** No break after these only when a number follows (`No. 5`, while `No.` alone can end a reply). */
  abbreviationsBeforeNumber?: string[];
  rules?: SegmentRule[];
}

const GERMAN_MONTHS =
  'Januar|Jänner|Februar|Feber|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember';

const GERMAN_ORDINAL_LEADS =
  '[Dd]er|[Dd]ie|[Dd]as|[Dd]en|[Dd]em|[Dd]es|[Aa]m|[Ii]m|[Vv]om|[Zz]um|[Zz]ur|[Bb]eim|[Ss]eit|[Bb]is';

// Chinese and Japanese write no space after 。！？, and a quotation's closing bracket belongs to the
// sentence it ends; ICU already breaks there, the rule makes it independent of the ICU version. The rule is
// tried only at the start of a run of stops: tried inside one too, a long run followed by a stop after its
// closing brackets (never a cut) was read again from every one of its characters — 60,000 of them took 29 s.
const CJK_RULES: SegmentRule[] = [
  {
    break: true,
    before: '(?<![。！？])[。！？]+[」』）】〉》〕］｝”’"\'\\)\\]]*',
    after: '(?![」』）】〉》〕］｝”’"\'\\)\\]。！？])',
    why: 'CJK full stops end a sentence without a following space',
  },
];

export const SEGMENT_RULES: Record<string, LanguageRules> = {
  en: {
    abbreviations: [
      'Dr.',
      'Mr.',
      'Mrs.',
      'Ms.',
      'Prof.',
      'Jr.',
      'Sr.',
      'St.',
      'e.g.',
      'i.e.',
      'etc.',
      'vs.',
      'cf.',
      'approx.',
      'Inc.',
      'Ltd.',
      'Fig.',
    ],
    abbreviationsBeforeNumber: ['No.', 'Nos.', 'p.', 'pp.', 'Vol.', 'Ch.'],
  },
  de: {
    abbreviations: [
      'z. B.',
      'd. h.',
      'u. a.',
      'o. ä.',
      'u. U.',
      'i. d. R.',
      'bzw.',
      'Nr.',
      'ggf.',
      'ca.',
      'Dr.',
      'Prof.',
      'Str.',
      'vgl.',
      'evtl.',
      'inkl.',
      'zzgl.',
      'Hr.',
      'Abb.',
    ],
    abbreviationsBeforeNumber: ['S.', 'Abs.', 'Bd.'],
    rules: [
      {
        break: false,
        before: '(?<![\\p{L}\\p{N}.])\\p{N}{1,4}\\.',
        after: `\\s+(?:\\p{Ll}|(?:${GERMAN_MONTHS})(?!\\p{L}))`,
        why: 'German ordinals: "am 3. Oktober", "der 2. und der 3. Versuch"',
      },
      {
        break: false,
        before: `(?<!\\p{L})(?:${GERMAN_ORDINAL_LEADS})\\s+\\p{N}{1,4}\\.`,
        after: '\\s+\\p{Lu}',
        why: 'after an article or preposition a number with a dot is an ordinal: "der 3. Platz", "zum 2. Mal"',
      },
    ],
  },
  fr: {
    abbreviations: [
      'M.',
      'MM.',
      'Mme.',
      'Mmes.',
      'Mlle.',
      'Dr.',
      'p. ex.',
      'etc.',
      'cf.',
      'env.',
      'av. J.-C.',
    ],
    abbreviationsBeforeNumber: ['p.', 'n°.', 'art.'],
    rules: [
      {
        break: false,
        before: '[.!?…]',
        after: '[\\s\\u00a0\\u202f]*»',
        why: 'French closing guillemets follow a space but still belong to the quoted sentence',
      },
      {
        break: true,
        before: '[.!?…][\\s\\u00a0\\u202f]*»',
        after: '\\s+\\p{Lu}',
        why: 'the sentence ends after the closing guillemet instead',
      },
    ],
  },
  ja: {
    rules: [
      ...CJK_RULES,
      {
        break: false,
        before: '[。！？]?[」』]',
        after: '(?:と|って)',
        why: 'a quotation followed by the quotative particle continues the sentence: 「はい。」と答えた。',
      },
    ],
  },
  zh: { rules: CJK_RULES },
};

/**
 * Opening brackets and quotes that ICU leaves at the end of a sentence when no space follows them
 * (UAX #29 counts them as "Close"); the segmenter moves them to the sentence they open.
 */
export const OPENING_PUNCTUATION = '[\\p{Ps}\\p{Pi}]';
