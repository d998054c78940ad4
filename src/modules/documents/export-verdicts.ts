// What the export of a document in its original format writes for each unit, and which confirmed segments it
// cannot write as they are: the one decision the export acts on (mark them fuzzy, or refuse the document) and
// document QA reports beforehand, so that the two agree by construction.
import type { UnitTranslation } from '../../formats/filter.ts';
import { filterByFormat } from '../../formats/registry.ts';
import type { Db } from '../../store/db.ts';
import { placeholderDifferences } from '../../text/qa/placeholder-differences.ts';
import { IMPORT_STATES } from './document-states.ts';
import { extractDocument, placeholderMismatches } from './document-thread.ts';
import * as repo from './repository.ts';
import { unitText } from './segment-plan.ts';
import * as segments from './segment-repository.ts';

/** The translation of each unit of the original, as the export merges it. */
export interface UnitTranslations {
  /** One per unit: null when none of its segments has a target. */
  translations: (UnitTranslation | null)[];
  /** Per unit: whether a segment of it with a target is confirmed (or reviewed) — work a person confirmed. */
  holdsConfirmed: boolean[];
}

/**
 * Each unit's translation (null when none of its segments has a target), rebuilt from lead/trail text: one
 * per unit of the original, also for units with no segment. Segments appended by hand belong to no unit of
 * the original and are left out (they travel in the XLIFF). A unit is confirmed when every segment of it
 * that has a target is confirmed (or signed off): one unreviewed sentence makes the whole unit a draft.
 */
export async function unitTranslations(
  db: Db,
  documentId: number,
  numUnits: number,
): Promise<UnitTranslations> {
  const translations: (UnitTranslation | null)[] = [];
  const holdsConfirmed: boolean[] = [];
  let current = -1;
  let text = '';
  let translatedAny = false;
  let confirmed = true;
  let confirmedAny = false;
  const close = () => {
    if (current < 0) return;
    translations[current] = translatedAny ? { text, confirmed } : null;
    holdsConfirmed[current] = confirmedAny;
  };
  for await (const rows of segments.segmentPages(db, documentId)) {
    for (const row of rows) {
      if (row.unit_index >= numUnits) continue;
      if (row.unit_index !== current) {
        close();
        current = row.unit_index;
        text = '';
        translatedAny = false;
        confirmed = true;
        confirmedAny = false;
        while (translations.length < current) {
          translations.push(null);
          holdsConfirmed.push(false);
        }
      }
      const hasTarget = row.target !== null && row.target !== '';
      const isConfirmed = row.is_confirmed === 1 || row.is_reviewed === 1;
      translatedAny ||= hasTarget;
      if (hasTarget && !isConfirmed) confirmed = false;
      confirmedAny ||= hasTarget && isConfirmed;
      // The skeleton's edge whitespace once, a target's never (unitText).
      text += unitText([row]);
    }
  }
  close();
  while (translations.length < numUnits) {
    translations.push(null);
    holdsConfirmed.push(false);
  }
  return { translations, holdsConfirmed };
}

/** A confirmed segment the export cannot write as it is. */
export interface ExportVerdict {
  segment_id: number;
  position: number;
  /** What is wrong, naming the placeholders as written. */
  problem: string;
  /** What the export does: writes it with the format's mark of a draft (PO `#, fuzzy`), or refuses. */
  export: 'fuzzy' | 'blocked';
}

/**
 * The confirmed segments whose target's placeholders the document's format cannot run
 * (FormatFilter.placeholders), in document order — none for a format whose placeholders do not execute.
 * The filter decides per unit (PO by each message's format flags and plural forms); a unit's verdict goes to
 * its segments whose own placeholders differ from their source's, or to all its segments with a target when
 * the difference is only in the unit as a whole.
 */
export async function exportVerdicts(
  db: Db,
  doc: repo.DocumentRow,
  original: Buffer,
  units: UnitTranslations,
): Promise<ExportVerdict[]> {
  const check = filterByFormat(doc.format)?.placeholders;
  if (!check) return [];
  // Only units holding confirmed work: a draft's placeholders are its draft's (PO marks it fuzzy anyway;
  // the other formats leave the source).
  const confirmed = units.translations.map((t, i) => (units.holdsConfirmed[i] ? t : null));
  const mismatches = await placeholderMismatches(original, confirmed, doc);
  if (mismatches.length === 0) return [];
  const problems = new Map(mismatches.map((m) => [m.unit, m.problem]));
  const byUnit = new Map<number, segments.SegmentRow[]>();
  for await (const rows of segments.segmentPages(db, doc.id)) {
    for (const row of rows) {
      if (!problems.has(row.unit_index) || row.target === null || row.target === '') continue;
      byUnit.set(row.unit_index, [...(byUnit.get(row.unit_index) ?? []), row]);
    }
  }
  const verdicts: ExportVerdict[] = [];
  for (const [unit, rows] of byUnit) {
    const differing = rows.filter(
      (r) => placeholderDifferences(r.source, r.target!, check.syntaxes).length > 0,
    );
    for (const row of differing.length > 0 ? differing : rows) {
      verdicts.push({
        segment_id: row.id,
        position: row.position,
        problem: problems.get(unit)!,
        export: check.mismatch,
      });
    }
  }
  return verdicts.sort((a, b) => a.position - b.position);
}

/** The verdicts of a document as it is now: what GET /v2/documents/qa reports before an export. */
export async function currentExportVerdicts(db: Db, doc: repo.DocumentRow): Promise<ExportVerdict[]> {
  if (!filterByFormat(doc.format)?.placeholders || doc.import_state !== IMPORT_STATES.succeeded) return [];
  const original = await repo.readOriginal(db, doc.id);
  // Documents imported before num_units was kept: count the units the way the import did.
  const numUnits = doc.num_units || (await extractDocument(original, doc)).units;
  return exportVerdicts(db, doc, original, await unitTranslations(db, doc.id, numUnits));
}
