// The document_import job: filter → units → sentence segments, stored in one transaction (re-runnable).
import type { ExtractedUnit } from '../../formats/filter.ts';
import { filterByFormat } from '../../formats/registry.ts';
import { insertJob, type JobRow } from '../../jobs/queue.ts';
import type { JobContext } from '../../jobs/worker.ts';
import { JobFailure } from '../../jobs/worker.ts';
import type { SqlParam } from '../../store/db.ts';
import { nowSeconds } from '../../store/db.ts';
import { segmentSentences } from '../../text/segment.ts';
import * as repo from './repository.ts';
import type { PretranslateOptions } from './service.ts';

interface ImportParams extends PretranslateOptions {
  pretranslate: boolean;
}

export interface PlannedSegment {
  unitIndex: number;
  lead: string;
  trail: string;
  source: string;
  target: string | null;
  status: string;
  isConfirmed: boolean;
  isReviewed: boolean;
  context: string | null;
  notes: string | null;
}

/** Splits units into segments; lead/trail keep the text between sentences so merges rebuild units exactly. */
export function planSegments(units: readonly ExtractedUnit[], srclang: string): PlannedSegment[] {
  const planned: PlannedSegment[] = [];
  units.forEach((unit, unitIndex) => {
    const context = unit.context ?? null;
    const notes = unit.notes?.length ? JSON.stringify(unit.notes) : null;
    const hasTarget = unit.target !== undefined && unit.target !== '';
    if (!unit.segmentable || hasTarget) {
      if (unit.source.trim() === '') return;
      const confirmed = hasTarget && (unit.state === 'translated' || unit.state === 'signed-off');
      planned.push({
        unitIndex,
        lead: '',
        trail: '',
        source: unit.source,
        target: hasTarget ? unit.target! : null,
        status:
          unit.state === 'signed-off' ? 'reviewed' : confirmed ? 'confirmed' : hasTarget ? 'draft' : 'new',
        isConfirmed: confirmed,
        isReviewed: unit.state === 'signed-off',
        context,
        notes,
      });
      return;
    }
    const spans = segmentSentences(unit.source, srclang);
    let previousEnd = 0;
    spans.forEach((span, i) => {
      planned.push({
        unitIndex,
        lead: unit.source.slice(previousEnd, span.start),
        trail: i === spans.length - 1 ? unit.source.slice(span.end) : '',
        source: unit.source.slice(span.start, span.end),
        target: null,
        status: 'new',
        isConfirmed: false,
        isReviewed: false,
        context,
        notes,
      });
      previousEnd = span.end;
    });
  });
  return planned;
}

const COLUMNS = [
  'id',
  'document_id',
  'position',
  'unit_index',
  'lead',
  'trail',
  'source',
  'target',
  'status',
  'is_confirmed',
  'is_reviewed',
  'context',
  'notes',
  'created_at',
  'updated_at',
] as const;

export async function runDocumentImport(job: JobRow, ctx: JobContext): Promise<void> {
  const { db } = ctx;
  const doc = await repo.documentById(db, Number(job.document_id));
  if (!doc) throw new JobFailure(`Document ${job.document_id} no longer exists`);
  const params = JSON.parse(job.params) as ImportParams;
  const filter = filterByFormat(doc.format);
  if (!filter) throw new JobFailure(`No filter for format ${doc.format}`);
  await db.run("UPDATE documents SET import_state = 'running' WHERE id = ?", [doc.id]);

  let units: ExtractedUnit[];
  try {
    units = await filter.extract(await repo.readOriginal(db, Number(doc.id)), {
      srclang: doc.srclang,
      trglang: doc.trglang,
    });
  } catch (err) {
    const readable = (err as Error).name === 'FormatError' || (err as Error).name === 'XmlError';
    if (ctx.signal.aborted) {
      await db.run("UPDATE documents SET import_state = 'pending' WHERE id = ?", [doc.id]);
      throw err;
    }
    const message = readable
      ? `${doc.name}: ${(err as Error).message}`
      : `${doc.name}: the file could not be read`;
    await db.run(
      "UPDATE documents SET import_state = 'failed', import_error = ?, updated_at = ? WHERE id = ?",
      [message, nowSeconds(), doc.id],
    );
    if (!readable) throw err;
    throw new JobFailure(message);
  }
  const planned = planSegments(units, doc.srclang);
  await ctx.progress(0, planned.length);

  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM document_segments WHERE document_id = ?', [doc.id]);
    const ids = await repo.allocateSegmentIds(db, tx, planned.length);
    const now = nowSeconds();
    const rows: SqlParam[][] = planned.map((s, i) => [
      ids[i],
      doc.id,
      i,
      s.unitIndex,
      s.lead,
      s.trail,
      s.source,
      s.target,
      s.status,
      s.isConfirmed ? 1 : 0,
      s.isReviewed ? 1 : 0,
      s.context,
      s.notes,
      now,
      now,
    ]);
    await tx.insertMany('document_segments', COLUMNS, rows);
    await tx.run(
      `UPDATE documents SET import_state = 'succeeded', import_error = NULL, num_segments = ?, updated_at = ?,
         pretranslate_state = CASE WHEN ? THEN 'pending' ELSE pretranslate_state END
       WHERE id = ?`,
      [planned.length, now, params.pretranslate ? 1 : 0, doc.id],
    );
    if (params.pretranslate) {
      await insertJob(tx, {
        organizationId: Number(doc.organization_id),
        type: 'pretranslate',
        documentId: Number(doc.id),
        params: {
          auto_accept: params.auto_accept,
          case_sensitive: params.case_sensitive,
          attribute_to_creator: false,
          username: params.username,
        },
      });
    }
    await tx.run('UPDATE jobs SET progress_done = ?, progress_total = ? WHERE id = ?', [
      planned.length,
      planned.length,
      job.id,
    ]);
    await ctx.complete(tx, { segments: planned.length, units: units.length });
  });
}
