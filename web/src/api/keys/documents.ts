// Query keys of a document and its QA report.
import type { TesseraDocument } from '../types.ts';

export const documentKey = (documentId: number) => ['document', documentId] as const;
/** A document's words by status as of its confirmed count: the editor's header reads them again when it moves. */
export const documentWordsKey = (documentId: number, confirmed: number) =>
  ['document-words', documentId, confirmed] as const;
export const qaKey = (documentId: number) => ['qa', documentId] as const;
/** The QA report as of the document's last change: the project page's row reads it again when that changes. */
export const qaAsOfKey = (doc: TesseraDocument) =>
  [...qaKey(doc.id), doc.updated_at, doc.num_confirmed] as const;
