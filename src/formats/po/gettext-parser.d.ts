// Types for the part of gettext-parser (which ships none) that the PO filter reads with.

declare module 'gettext-parser' {
  export interface PoComments {
    translator?: string;
    extracted?: string;
    reference?: string;
    flag?: string;
    previous?: string;
  }

  export interface PoTranslation {
    msgctxt?: string;
    msgid: string;
    msgid_plural?: string;
    msgstr: string[];
    comments?: PoComments;
  }

  export interface PoData {
    charset: string;
    headers?: Record<string, string>;
    /** Context ("" for none) → msgid → entry. */
    translations: Record<string, Record<string, PoTranslation>>;
    obsolete?: Record<string, Record<string, PoTranslation>>;
  }

  export const po: {
    parse(input: string | Buffer, options?: { defaultCharset?: string; validation?: boolean }): PoData;
  };
}
