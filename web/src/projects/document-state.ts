// What a document is busy with, in words: the one place that decides when its exports are refused.
import type { TesseraDocument } from '../api/types.ts';

/** The operation under way, or null when the document is idle (the server's 409 DOCUMENT_BUSY cases). */
export function busyWith(doc: TesseraDocument): string | null {
  if (doc.import_in_progress) return 'Importing';
  if (doc.is_pretranslating)
    return doc.status.pretranslation === 'pending' ? 'Pre-translation queued' : 'Pre-translating';
  if (doc.export_in_progress) return 'Exporting';
  return null;
}

/** Why an export button is disabled, or null when it is not. */
export function exportBlockedBecause(doc: TesseraDocument): string | null {
  if (!doc.import_in_progress && !doc.import_succeeded) return 'The document could not be imported';
  const busy = busyWith(doc);
  return busy ? `Not while the document is busy: ${busy.toLowerCase()}` : null;
}
