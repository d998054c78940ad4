// Export of a document: XLIFF 1.2 (streamed) or the original format with translations merged in.
// Refused with 409 DOCUMENT_BUSY while an import, a pre-translation or another export of it is under way.
import { Readable } from 'node:stream';
import { AppError, errors } from '../../errors.ts';
import { filterByFormat } from '../../formats/registry.ts';
import type { XliffNote, XliffState, XliffUnit } from '../../formats/xliff/xliff-writer.ts';
import { writeXliff } from '../../formats/xliff/xliff-writer.ts';
import type { Attachment } from '../../http/attachments.ts';
import type { Principal } from '../../http/principal.ts';
import { paced } from '../../pacing.ts';
import type { Db } from '../../store/db.ts';
import { withoutEdges } from '../../text/edge-whitespace.ts';
import { targetTag, translatedFileName } from '../../text/file-names.ts';
import type { CommentsOfDocuments } from './comments-of-documents.ts';
import { busyReason, IMPORT_STATES } from './document-states.ts';
import { extractDocument, mergeDocument } from './document-thread.ts';
import { type ExportVerdict, exportVerdicts, unitTranslations } from './export-verdicts.ts';
import * as repo from './repository.ts';
import * as segments from './segment-repository.ts';
import { type DocumentDeps, requireDocument, retryAfter } from './service.ts';

// XLIFF datatypes of the strict schema for our formats; others are written as x-<format>.
const DATATYPES: Record<string, string> = {
  text: 'plaintext',
  html: 'html',
  po: 'po',
  xliff: 'xml',
  android: 'xml',
};

/** Takes the document's export mark, or answers 409 saying what is under way. */
async function beginExport(
  db: Db,
  principal: Principal,
  id: number,
  owner: string,
): Promise<repo.DocumentRow> {
  const doc = await requireDocument(db, principal, id);
  if (doc.import_state === IMPORT_STATES.failed) {
    throw errors.documentNotImported(id, doc.import_error);
  }
  if (!(await repo.takeExportMark(db, id, owner))) {
    const fresh = (await repo.documentById(db, id))!;
    throw errors.documentBusy(busyReason(fresh) ?? `Document ${id} is busy`, await retryAfter(db, fresh));
  }
  return doc;
}

function xliffState(row: segments.SegmentRow): XliffState | undefined {
  if (row.is_reviewed === 1) return 'signed-off';
  if (row.is_confirmed === 1) return 'translated';
  return row.target ? 'needs-review-translation' : undefined;
}

async function* xliffUnits(
  db: Db,
  documentId: number,
  comments: Map<number | null, XliffNote[]>,
): AsyncGenerator<XliffUnit> {
  for await (const rows of segments.segmentPages(db, documentId)) {
    for (const row of rows) {
      const fileNotes: (string | XliffNote)[] = row.notes ? (JSON.parse(row.notes) as string[]) : [];
      const notes = [...fileNotes, ...(comments.get(row.id) ?? [])];
      yield {
        id: row.id,
        source: row.source,
        target: row.target === null ? null : withoutEdges(row.target),
        state: xliffState(row),
        context: row.context ?? undefined,
        notes: notes.length > 0 ? notes : undefined,
      };
    }
  }
}

/**
 * The original file with the translations merged in (untranslated units left in the source language), as
 * the document's format filter writes it. Confirmed targets whose placeholders the format cannot run are
 * written with its mark of a draft, or — in a format without one — the document is refused (422
 * EXPORT_BLOCKED naming the segments): confirmed work never leaves the file silently.
 */
export async function mergedOriginal(db: Db, doc: repo.DocumentRow): Promise<Attachment & { body: Buffer }> {
  const filter = filterByFormat(doc.format);
  if (!filter) throw errors.internal();
  const original = await repo.readOriginal(db, doc.id);
  // Documents imported before num_units was kept: count the units the way the import did.
  const numUnits = doc.num_units || (await extractDocument(original, doc)).units;
  const units = await unitTranslations(db.background(), doc.id, numUnits);
  const blocked = (await exportVerdicts(db.background(), doc, original, units)).filter(
    (v) => v.export === 'blocked',
  );
  if (blocked.length > 0) throw blockedError(doc, blocked);
  const body = await mergeDocument(original, units.translations, doc);
  return { body, contentType: filter.mediaType, fileName: doc.name };
}

/** The 422 naming the segments by number, as the editor numbers them (from 1). */
function blockedError(doc: repo.DocumentRow, blocked: readonly ExportVerdict[]) {
  const numbers = blocked.map((v) => v.position + 1);
  const list = numbers.length === 1 ? `segment ${numbers[0]}` : `segments ${numbers.join(', ')}`;
  return errors.exportBlocked(
    `Document ${doc.id} (${doc.name}) cannot be exported in its format: the placeholders of confirmed ${list} ` +
      `would not run (${blocked[0].problem}${blocked.length > 1 ? '; …' : ''}), and the format has no mark ` +
      'for a draft. Correct them (GET /v2/documents/qa lists them) or export XLIFF',
    blocked.map(({ segment_id, position, problem }) => ({ segment_id, position, problem })),
  );
}

/** GET /v2/documents/files: the document as XLIFF 1.2 or in its original format, as an attachment. */
export async function exportDocument(
  deps: Pick<DocumentDeps, 'db' | 'instanceId' | 'projects'> & { comments: CommentsOfDocuments },
  principal: Principal,
  id: number,
  asXliff: boolean,
): Promise<Attachment> {
  const { db } = deps;
  const doc = await beginExport(db, principal, id, deps.instanceId);
  try {
    if (asXliff) {
      // Comments travel as notes: each segment's in its trans-unit, the document's in the file's header.
      const comments = await deps.comments.commentNotes(db, id);
      const chunks = writeXliff({
        original: doc.name,
        srclang: doc.srclang,
        trglang: doc.trglang,
        datatype: DATATYPES[doc.format] ?? doc.format,
        notes: comments.get(null),
        units: xliffUnits(db.background(), id, comments),
      });
      // Paced: reading, writing and sending the file would otherwise run as one long task.
      const stream = Readable.from(paced(chunks));
      // The mark is released once, when the stream ends, fails, or is closed by a client going away.
      let failure: string | null = null;
      stream.once('error', (err) => {
        failure = (err as Error).message;
      });
      stream.once('close', () => void repo.releaseExportMark(db, id, failure));
      return {
        body: stream,
        contentType: 'application/xliff+xml; charset=utf-8',
        fileName: `${doc.name}.xlf`,
      };
    }
    const merged = await mergedOriginal(db, doc);
    await repo.releaseExportMark(db, id, null);
    // Named with its target language, as localisation tools expect (manual.html → manual.de-DE.html).
    const project = await deps.projects.findProject(db, doc.project_id, principal.organizationId);
    const tag = targetTag(doc.trglang, project?.trglocale ?? null);
    return { ...merged, fileName: translatedFileName(doc.name, doc.srclang, tag) };
  } catch (err) {
    await repo.releaseExportMark(db, id, err instanceof AppError ? err.message : 'Export failed');
    throw err;
  }
}
