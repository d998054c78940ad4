// The contract every document format filter implements: extract translatable units, merge translations.
//
// A filter is stateless and deterministic: merge() re-reads the original bytes (kept in the store) and
// puts each unit's translation in place, so no separate skeleton needs storing. Units are whole
// paragraphs/entries; sentence segmentation (src/text/segment.ts) runs on them afterwards.

export interface ExtractedUnit {
  /** The unit's source as tagged text (src/text/inline-tags.ts): inline markup as protected tags. */
  source: string;
  /** Where the unit lives: a key path, msgctxt, resname, element path. Shown to translators. */
  context?: string;
  /** Translator notes and comments that travel with the unit. */
  notes?: string[];
  /** Bilingual formats only: the existing translation as tagged text. */
  target?: string;
  /** Bilingual formats only: the existing state of the target. */
  state?: 'new' | 'needs-review-translation' | 'translated' | 'signed-off';
  /** False when the unit must stay one segment (it has a target, or its format forbids splitting). */
  segmentable: boolean;
}

export interface ExtractOptions {
  srclang: string;
  trglang: string;
}

export interface FormatFilter {
  /** Short format name stored on the document, e.g. "po". */
  name: string;
  /** Lower-case extensions with the dot, e.g. [".po", ".pot"]; Android uses the full name "strings.xml". */
  extensions: string[];
  /** Content-Type for the merged file. */
  mediaType: string;
  /** Reads the file. Throws FormatError (with line and column for XML) on a malformed file. */
  extract(original: Buffer, options: ExtractOptions): Promise<ExtractedUnit[]>;
  /**
   * Writes the file back with translations[i] (tagged text, or null for "leave the source") in place of
   * unit i of extract(original). With every translation null the result is byte-identical to original.
   */
  merge(
    original: Buffer,
    translations: ReadonlyArray<string | null>,
    options: ExtractOptions,
  ): Promise<Buffer>;
}

/** A file that cannot be read as its format; line and column are 1-based when known. */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line !== undefined ? `${message} at line ${line}, column ${column ?? 1}` : message);
    this.name = 'FormatError';
  }
}
