// What a termbase file holds, whatever its format (TBX v2 or v3, Lilt's CSV): concepts, each with its terms.
// The readers give these, the writers take them; the terms module stores them.

/** How a term may be used, from best to worst. `forbidden` must never appear in a translation. */
export const TERM_STATUSES = ['preferred', 'admitted', 'deprecated', 'forbidden'] as const;
export type TermStatus = (typeof TERM_STATUSES)[number];

/** A term a file gives no status is preferred: a glossary lists the words to use. */
export interface TermRecord {
  /** A language tag as the file writes it (`en`, `en-US`). */
  lang: string;
  text: string;
  status: TermStatus;
  caseSensitive: boolean;
  partOfSpeech?: string;
  /** The definition of the term's language section (or of its concept, when the file gives only that). */
  definition?: string;
  /** An example of the term in use. */
  context?: string;
  note?: string;
}

export interface ConceptRecord {
  /** The id the file gave the concept (TBX's conceptEntry/termEntry id). */
  externalId?: string;
  /** The subject field. */
  domain?: string;
  note?: string;
  terms: TermRecord[];
  /** Where the concept starts in the file, for messages. */
  line?: number;
  column?: number;
}

/**
 * A status written in a file to ours. TBX-Basic's administrativeStatus (`preferredTerm-admn-sts`…), TBX-Default's
 * normativeAuthorization (`standardizedTerm`, `deprecatedTerm`…), and the plain words tools write in a usage
 * status (`forbidden`, `not recommended`, `obsolete`). Undefined for a value that names no status.
 */
export function statusFromFile(value: string): TermStatus | undefined {
  const word = value
    .trim()
    .toLowerCase()
    .replace(/-admn-sts$/, '')
    .replace(/[\s_-]+/g, '')
    .replace(/term$/, '');
  switch (word) {
    case 'preferred':
    case 'standardized':
    case 'legal':
    case 'regulated':
      return 'preferred';
    case 'admitted':
    case 'allowed':
    case 'approved':
      return 'admitted';
    case 'deprecated':
    case 'superseded':
    case 'obsolete':
    case 'notrecommended':
      return 'deprecated';
    case 'forbidden':
    case 'prohibited':
    case 'donotuse':
      return 'forbidden';
    default:
      return undefined;
  }
}
