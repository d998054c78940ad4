// What the documents module asks of the comments module, which sits above it (comments are written on
// documents and check them through the documents service): src/app.ts hands the comments service's functions
// over, so that no import cycle forms.
import type { XliffNote } from '../../formats/xliff/xliff-writer.ts';
import type { Queryable } from '../../store/db.ts';

export interface CommentsOfDocuments {
  /** The segments of a document with an unresolved comment thread (the segment list's filter). */
  unresolvedSegmentIds(db: Queryable, documentId: number): Promise<number[]>;
  /**
   * A document's comments as XLIFF notes: those of each segment by its id, and those on the whole document
   * under null (the export writes them in the file's header).
   */
  commentNotes(db: Queryable, documentId: number): Promise<Map<number | null, XliffNote[]>>;
}
