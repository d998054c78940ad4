// The contract every document format filter implements (extract translatable units, merge translations), and
// what every merge shares: the check of the translations against the units, and splicing into the original.
//
// A filter is stateless and deterministic: merge() re-reads the original bytes (kept in the store) and
// puts each unit's translation in place, so no separate skeleton needs storing. Units are whole
// paragraphs/entries; sentence segmentation (src/text/segment.ts) runs on them afterwards.
import type { PlaceholderSyntax } from '../text/placeables.ts';

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

/** What merge writes for one unit: its translation, and whether a person confirmed it. */
export interface UnitTranslation {
  /** Tagged text. */
  text: string;
  /**
   * False for a draft nobody confirmed (an unreviewed pre-translation): formats that can say so keep it
   * marked (PO `#, fuzzy`, XLIFF `needs-review-translation`) so that their builds do not ship it as final.
   */
  confirmed: boolean;
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
  /**
   * Whether a unit's context identifies it — a key path, msgctxt, resname, resource name — rather than
   * naming the kind of element it is in (HTML's `p`, a Markdown heading, a Word style). Only an identifying
   * context is part of a segment's context in the memory (docs/MATCHING.md §2.6).
   */
  contextIsKey: boolean;
  /**
   * How the format's units are segmented unless the project says otherwise: `entry` for software strings
   * (PO, JSON, YAML, Android, bilingual XLIFF), whose unit is one message a program shows whole and a memory
   * holds whole, so it stays one segment; `sentence` for prose (text, Markdown, HTML, DOCX), whose unit is a
   * paragraph cut into sentences (src/modules/documents/segment-plan.ts).
   */
  segmentation: 'entry' | 'sentence';
  /**
   * The parser's time is not linear in what a hostile file can hold (Markdown: 8 KB of nested list markers
   * take seconds, nested emphasis grows with its square), so even a small file is read in a thread, under
   * the reading deadline, never on the server's own.
   */
  slowOnHostileInput?: true;
  /** Reads the file. Throws FormatError (with line and column for XML) on a malformed file. */
  extract(original: Buffer, options: ExtractOptions): Promise<ExtractedUnit[]>;
  /**
   * Writes the file back with translations[i] (or null for "leave the source") in place of unit i of
   * extract(original). With every translation null the result is byte-identical to original. A translation
   * whose placeholders do not correspond to its source, in a format whose placeholders execute, is what
   * `placeholders` says.
   */
  merge(
    original: Buffer,
    translations: ReadonlyArray<UnitTranslation | null>,
    options: ExtractOptions,
  ): Promise<Buffer>;
  /**
   * Formats whose placeholders execute — a program interpolates them (PO, JSON, YAML, Android): a translation
   * whose placeholders do not correspond to its source's (src/text/placeables.ts placeholdersCorrespond) is a
   * file their own tools refuse, or a program that crashes. Absent for formats whose text is not a program's.
   */
  placeholders?: ExecutingPlaceholders;
}

export interface ExecutingPlaceholders {
  /** The syntaxes a translation is checked in (PO narrows them per message by its format flags). */
  syntaxes: readonly PlaceholderSyntax[];
  /**
   * What merge does with a translation whose placeholders do not correspond. `fuzzy`: it writes it with the
   * format's own mark of a draft and a comment naming the problem (PO: `#, fuzzy` and a translator comment;
   * msgfmt leaves it out of the build). `blocked`: the format has no such mark — a draft keeps the source,
   * and a confirmed translation cannot be written: the export refuses the document before merging (422
   * EXPORT_BLOCKED), and merge throws if asked to.
   */
  mismatch: 'fuzzy' | 'blocked';
  /** The units whose translation does not correspond, with the problem: the decision merge takes. */
  mismatches(
    original: Buffer,
    translations: ReadonlyArray<UnitTranslation | null>,
    options: ExtractOptions,
  ): Promise<PlaceholderMismatch[]>;
}

/** A unit whose translation's placeholders do not correspond to its source's. */
export interface PlaceholderMismatch {
  unit: number;
  /** What is wrong, naming the placeholders as written (`Placeholder %s of the source is missing`). */
  problem: string;
}

/**
 * The mismatches of the units that have a translation; `problemOf` answers null for a translation whose
 * placeholders correspond.
 */
export function placeholderMismatches<U>(
  units: readonly U[],
  translations: ReadonlyArray<UnitTranslation | null>,
  problemOf: (unit: U, translation: UnitTranslation) => string | null,
): PlaceholderMismatch[] {
  const found: PlaceholderMismatch[] = [];
  units.forEach((unit, i) => {
    const translation = translations[i];
    const problem = translation === null ? null : problemOf(unit, translation);
    if (problem !== null) found.push({ unit: i, problem });
  });
  return found;
}

/**
 * What the merge of a `blocked` format does with a translation whose placeholders do not correspond: a
 * draft leaves the source (null); a confirmed one throws, since the export should have refused the
 * document (mismatches) rather than drop confirmed work from the file.
 */
export function leaveDraftSource(format: string, translation: UnitTranslation, problem: string): null {
  if (translation.confirmed) {
    throw new Error(`${format} merge: a confirmed translation cannot be written (${problem})`);
  }
  return null;
}

/** What a filter's merge reads from the original before writing translations in. */
export interface MergeTarget {
  /** How many units extract() gives for the file. */
  units: number;
  /** The file with translations[i] in place of unit i; there is one translation per unit, not all null. */
  write(translations: ReadonlyArray<UnitTranslation | null>): Buffer | Promise<Buffer>;
}

/**
 * The merge every filter shares around its own reading and writing. With every translation null the upload
 * itself comes back: byte-identical by construction (a re-written zip never is) and nothing parsed. Otherwise
 * there must be one translation per unit: a list made for another version of the file is refused rather than
 * written into the wrong places.
 */
export function checkedMerge(
  format: string,
  read: (original: Buffer, options: ExtractOptions) => MergeTarget | Promise<MergeTarget>,
): FormatFilter['merge'] {
  return async (original, translations, options) => {
    if (translations.every((t) => t === null)) return original;
    const target = await read(original, options);
    if (target.units !== translations.length) {
      throw new Error(`${format} merge: ${translations.length} translations for ${target.units} units`);
    }
    return target.write(translations);
  };
}

export interface Range {
  start: number;
  end: number;
}

/** A replacement of [start, end) of the original: a text, or one built from the original's nested edits. */
export type Edit = Range &
  (
    | { text: string }
    /** `render` gives any range of the original with the edits inside it applied. */
    | { replace(render: (range: Range) => string): string }
  );

/**
 * The edits of the units that have a translation, made by `edit`; units[i] is translated by translations[i].
 * `edit` answers null to leave its unit as it is.
 */
export function unitEdits<U>(
  units: readonly U[],
  translations: ReadonlyArray<UnitTranslation | null>,
  edit: (unit: U, translation: UnitTranslation) => Edit | null,
): Edit[] {
  const edits: Edit[] = [];
  units.forEach((unit, i) => {
    const translation = translations[i];
    const made = translation === null ? null : edit(unit, translation);
    if (made !== null) edits.push(made);
  });
  return edits;
}

/**
 * The original with every edit applied. An edit inside another edit's range is applied only through that
 * edit's render; an insertion (an empty range) where another edit starts is written before it.
 */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort(
    (a, b) => a.start - b.start || Number(b.end === b.start) - Number(a.end === a.start) || b.end - a.end,
  );
  const firstAtOrAfter = (pos: number) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid].start < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Edits before `after` in the order are outside the one being rendered (the insertions at its start).
  const render = (range: Range, after: number): string => {
    let out = '';
    let at = range.start;
    for (let i = Math.max(firstAtOrAfter(range.start), after + 1); i < sorted.length; i++) {
      const e = sorted[i];
      if (e.start >= range.end) break;
      if (e.start < at || e.end > range.end) continue;
      out += text.slice(at, e.start) + ('text' in e ? e.text : e.replace((r) => render(r, i)));
      at = e.end;
    }
    return out + text.slice(at, range.end);
  };
  // One past the end, so that an insertion at the very end of the text is inside the range.
  return render({ start: 0, end: text.length + 1 }, -1);
}
