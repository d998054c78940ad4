// Export of a document: XLIFF 1.2 (streamed) or the original format with translations merged in.
// Refused with 409 DOCUMENT_BUSY while an import, a pre-translation or another export of it is under way.
import { Readable } from 'node:stream';
import { AppError, errors } from '../../errors.ts';
import { filterByFormat } from '../../formats/registry.ts';
import type { XliffState, XliffUnit } from '../../formats/xliff/xliff-writer.ts';
import { writeXliff } from '../../formats/xliff/xliff-writer.ts';
import type { Db } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import type { Principal } from '../users/service.ts';
import * as repo from './repository.ts';
import { requireDocument } from './service.ts';

const RETRY_AFTER_SECONDS = 5;

// XLIFF datatypes of the strict schema for our formats; others are written as x-<format>.
const DATATYPES: Record<string, string> = {
  text: 'plaintext',
  html: 'html',
  po: 'po',
  xliff: 'xml',
  android: 'xml',
};

function busyReason(doc: repo.DocumentRow): string | null {
  if (['uploading', 'pending', 'running'].includes(doc.import_state)) {
    return `Document ${doc.id} is being imported; retry when import_in_progress is false`;
  }
  if (doc.import_state === 'failed') return null;
  if (doc.pretranslate_state !== 'idle') {
    return `Document ${doc.id} is being pre-translated; retry when status.pretranslation is idle`;
  }
  return `Document ${doc.id} is being exported; retry when export_in_progress is false`;
}

/** Takes the document's export mark, or answers 409 saying what is under way. */
async function beginExport(db: Db, principal: Principal, id: number): Promise<repo.DocumentRow> {
  const doc = await requireDocument(db, principal, id);
  if (doc.import_state === 'failed') {
    throw new AppError(
      409,
      'DOCUMENT_NOT_IMPORTED',
      `Document ${id} could not be imported: ${doc.import_error}`,
    );
  }
  const now = nowSeconds();
  const { changes } = await db.run(
    `UPDATE documents SET export_started_at = ?
     WHERE id = ? AND import_state = 'succeeded' AND pretranslate_state = 'idle'
       AND (export_started_at IS NULL OR export_started_at < ?)`,
    [now, id, now - repo.EXPORT_MARK_SECONDS],
  );
  if (changes === 0) {
    const fresh = (await repo.documentById(db, id))!;
    throw errors.documentBusy(busyReason(fresh) ?? `Document ${id} is busy`, RETRY_AFTER_SECONDS);
  }
  return doc;
}

async function endExport(db: Db, id: number, error: string | null) {
  await db.run(
    'UPDATE documents SET export_started_at = NULL, export_succeeded = ?, export_error = ? WHERE id = ?',
    [error === null ? 1 : 0, error, id],
  );
}

function xliffState(row: repo.SegmentRow): XliffState | undefined {
  if (Number(row.is_reviewed) === 1) return 'signed-off';
  if (Number(row.is_confirmed) === 1) return 'translated';
  return row.target ? 'needs-review-translation' : undefined;
}

async function* xliffUnits(db: Db, documentId: number): AsyncGenerator<XliffUnit> {
  for (let after = -1; ; ) {
    const rows = await repo.segmentsPage(db, documentId, after, 5000);
    for (const row of rows) {
      yield {
        id: Number(row.id),
        source: row.source,
        target: row.target,
        state: xliffState(row),
        context: row.context ?? undefined,
        notes: row.notes ? (JSON.parse(row.notes) as string[]) : undefined,
      };
    }
    if (rows.length < 5000) return;
    after = Number(rows[rows.length - 1].position);
  }
}

/** Each unit's translation (null when none of its segments has a target), rebuilt from lead/trail text. */
async function unitTranslations(db: Db, documentId: number): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  let current = -1;
  let text = '';
  let translatedAny = false;
  const close = () => {
    if (current >= 0) out[current] = translatedAny ? text : null;
  };
  for (let after = -1; ; ) {
    const rows = await repo.segmentsPage(db, documentId, after, 5000);
    for (const row of rows) {
      if (Number(row.unit_index) !== current) {
        close();
        current = Number(row.unit_index);
        text = '';
        translatedAny = false;
        while (out.length < current) out.push(null);
      }
      const hasTarget = row.target !== null && row.target !== '';
      translatedAny ||= hasTarget;
      text += row.lead + (hasTarget ? row.target : row.source) + row.trail;
    }
    if (rows.length < 5000) break;
    after = Number(rows[rows.length - 1].position);
  }
  close();
  return out;
}

export interface ExportResult {
  body: Readable | Buffer;
  contentType: string;
  fileName: string;
}

export async function exportDocument(
  db: Db,
  principal: Principal,
  id: number,
  asXliff: boolean,
): Promise<ExportResult> {
  const doc = await beginExport(db, principal, id);
  try {
    if (asXliff) {
      const chunks = writeXliff({
        original: doc.name,
        srclang: doc.srclang,
        trglang: doc.trglang,
        datatype: DATATYPES[doc.format] ?? doc.format,
        units: xliffUnits(db, id),
      });
      const stream = Readable.from(chunks);
      // The mark is released once, when the stream ends, fails, or is closed by a client going away.
      let failure: string | null = null;
      stream.once('error', (err) => {
        failure = (err as Error).message;
      });
      stream.once('close', () => void endExport(db, id, failure));
      return {
        body: stream,
        contentType: 'application/xliff+xml; charset=utf-8',
        fileName: `${doc.name}.xlf`,
      };
    }
    const filter = filterByFormat(doc.format);
    if (!filter) throw errors.internal();
    const translations = await unitTranslations(db, id);
    const original = await repo.readOriginal(db, id);
    const body = await filter.merge(original, translations, { srclang: doc.srclang, trglang: doc.trglang });
    await endExport(db, id, null);
    return { body, contentType: filter.mediaType, fileName: doc.name };
  } catch (err) {
    await endExport(db, id, err instanceof AppError ? err.message : 'Export failed');
    throw err;
  }
}
