// How a project's documents are segmented (its `segmentation` setting), and what each mode does with a
// unit — a paragraph of prose or an entry of a software-string file — of a given format.

export const SEGMENTATIONS = Object.freeze(['auto', 'sentence', 'paragraph'] as const);
/**
 * `auto`: each format's own default — software strings (PO, JSON, YAML, Android, XLIFF) one segment per
 * entry, prose (text, Markdown, HTML, DOCX) by sentence, and a unit whose whole text the project's memory
 * holds word for word kept whole (TM-driven segmentation). `sentence`: every format by sentence, by the rules
 * alone. `paragraph`: one segment per unit in every format.
 */
export type Segmentation = (typeof SEGMENTATIONS)[number];

/** How the units of one document are cut. */
export interface UnitCut {
  /** By sentence, or one segment per unit. */
  by: 'sentence' | 'unit';
  /** Sentences of one unit are joined again when the memory holds the whole unit exactly. */
  tmDriven: boolean;
}

/** What a project's setting means for a format whose default (FormatFilter.segmentation) is `formatDefault`. */
export function unitCut(setting: Segmentation, formatDefault: 'entry' | 'sentence'): UnitCut {
  if (setting === 'paragraph') return { by: 'unit', tmDriven: false };
  if (setting === 'sentence') return { by: 'sentence', tmDriven: false };
  return formatDefault === 'entry' ? { by: 'unit', tmDriven: false } : { by: 'sentence', tmDriven: true };
}
