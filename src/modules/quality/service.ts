// The quality evaluation (MQM): a reviewer annotates an error on a document segment with an MQM-Core category
// and a severity; the document's score is its penalty points per 1,000 source words, passing at or below its
// project's threshold. The report and its CSV are what a client reads.
//
// Permission points (for the roles policy): annotating (create, update, delete) is a reviewer's, a project
// manager's or an admin's; the threshold is a project manager's or an admin's; reading annotations, score and
// report is anyone's who may open the document. Each goes through requireDocument, the documents module's
// lookup for the principal, so that a document not assigned to the caller is a 404 wherever it enforces that.
import type { Static } from 'typebox';
import { errors } from '../../errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Db } from '../../store/db.ts';
import {
  DEFAULT_PASS_THRESHOLD,
  MQM_CATEGORIES,
  MQM_CATEGORY_LABELS,
  MQM_PENALTIES,
  MQM_SEVERITIES,
  mqmScore,
} from '../../text/qa/mqm.ts';
import * as documentSegments from '../documents/segment-service.ts';
import { requireDocument, wordsByStatus } from '../documents/service.ts';
import { projectAccess } from '../projects/service.ts';
import { qualityCsv } from './quality-csv.ts';
import * as repo from './repository.ts';
import type {
  CreateAnnotationBody,
  ListAnnotationsQuery,
  QualityReport,
  UpdateAnnotationBody,
  UpdateQualitySettingsBody,
} from './schemas.ts';

function publicAnnotation(row: repo.AnnotationRow) {
  return {
    id: row.id,
    document_id: row.document_id,
    segment_id: row.segment_id,
    category: row.category,
    severity: row.severity,
    note: row.note,
    target: row.target,
    user: row.username,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** GET /v2/quality/annotations: a document's annotations, or one segment's. */
export async function listAnnotations(
  db: Db,
  principal: Principal,
  query: Static<typeof ListAnnotationsQuery>,
) {
  const doc = await requireDocument(db, principal, query.document_id);
  return (await repo.annotationsOf(db, doc.id, query.segment_id)).map(publicAnnotation);
}

/** POST /v2/quality/annotations: an error on a segment, with the target it was found in. */
export async function createAnnotation(
  db: Db,
  principal: Principal,
  input: Static<typeof CreateAnnotationBody>,
) {
  const segment = await documentSegments.findSegment(db, input.segment_id, principal.organizationId);
  if (!segment) throw errors.notFound('Segment', input.segment_id);
  // The document lookup for the principal: a document the caller may not open is missing for them.
  await requireDocument(db, principal, segment.document_id);
  const id = await repo.insertAnnotation(db, {
    organization_id: principal.organizationId,
    document_id: segment.document_id,
    segment_id: segment.id,
    category: input.category,
    severity: input.severity,
    note: (input.note ?? '').trim(),
    target: segment.target,
    created_by: principal.userId,
    username: principal.username,
  });
  return publicAnnotation((await repo.findAnnotation(db, id, principal.organizationId))!);
}

async function requireAnnotation(db: Db, principal: Principal, id: number) {
  const row = await repo.findAnnotation(db, id, principal.organizationId);
  if (!row) throw errors.notFound('Annotation', id);
  await requireDocument(db, principal, row.document_id);
  return row;
}

/** PUT /v2/quality/annotations: another category, severity or note. */
export async function updateAnnotation(
  db: Db,
  principal: Principal,
  input: Static<typeof UpdateAnnotationBody>,
) {
  await requireAnnotation(db, principal, input.id);
  const { category, severity, note } = input;
  if (category === undefined && severity === undefined && note === undefined) {
    throw errors.badParameter('Parameter "category", "severity" or "note" is required');
  }
  await repo.updateAnnotation(db, input.id, { category, severity, note: note?.trim() });
  return publicAnnotation((await repo.findAnnotation(db, input.id, principal.organizationId))!);
}

export async function deleteAnnotation(db: Db, principal: Principal, id: number) {
  await requireAnnotation(db, principal, id);
  await repo.deleteAnnotation(db, id);
  return { id, deleted: true };
}

async function thresholdOf(db: Db, projectId: number) {
  const threshold = await repo.findThreshold(db, projectId);
  return { threshold: threshold ?? DEFAULT_PASS_THRESHOLD, is_default: threshold === undefined };
}

/** GET /v2/quality/settings: the project's pass threshold. */
export async function qualitySettings(db: Db, principal: Principal, projectId: number) {
  const project = await projectAccess(db, principal, projectId);
  return { project_id: project.id, ...(await thresholdOf(db, project.id)) };
}

/** PUT /v2/quality/settings: the project's pass threshold. */
export async function updateQualitySettings(
  db: Db,
  principal: Principal,
  input: Static<typeof UpdateQualitySettingsBody>,
) {
  const project = await projectAccess(db, principal, input.project_id);
  if (!Number.isFinite(input.threshold)) throw errors.badParameter('Parameter "threshold" must be a number');
  await repo.saveThreshold(db, project.id, principal.userId, input.threshold);
  return qualitySettings(db, principal, project.id);
}

function countBySeverity(annotations: readonly { severity: repo.AnnotationRow['severity'] }[]) {
  const counts = { minor: 0, major: 0, critical: 0 };
  for (const a of annotations) counts[a.severity]++;
  return counts;
}

/** GET /v2/quality/score: the document's penalty points per 1,000 words and whether it passes. */
export async function qualityScore(db: Db, principal: Principal, documentId: number) {
  const doc = await requireDocument(db, principal, documentId);
  const annotations = await repo.annotationsOf(db, doc.id);
  const words = (await wordsByStatus(db, doc.id)).total;
  const { threshold } = await thresholdOf(db, doc.project_id);
  return {
    document_id: doc.id,
    ...mqmScore(annotations, words, threshold),
    errors: countBySeverity(annotations),
  };
}

/** GET /v2/quality/report: the score with its categories and every annotation in document order. */
export async function qualityReport(
  db: Db,
  principal: Principal,
  documentId: number,
): Promise<Static<typeof QualityReport>> {
  const doc = await requireDocument(db, principal, documentId);
  const score = await qualityScore(db, principal, documentId);
  const annotations = await repo.annotationsOf(db, doc.id);
  const segments = new Map(
    (
      await documentSegments.segmentsByIds(db, doc.id, [...new Set(annotations.map((a) => a.segment_id))])
    ).map((s) => [Number(s.id), s]),
  );
  const categories = MQM_CATEGORIES.map((category) => {
    const of = annotations.filter((a) => a.category === category);
    const counts = countBySeverity(of);
    return {
      category,
      label: MQM_CATEGORY_LABELS[category],
      ...counts,
      penalty_points: MQM_SEVERITIES.reduce((n, s) => n + counts[s] * MQM_PENALTIES[s], 0),
    };
  });
  const rows = annotations
    .filter((a) => segments.has(Number(a.segment_id)))
    .map((a) => {
      const segment = segments.get(Number(a.segment_id))!;
      return {
        ...publicAnnotation(a),
        segment_number: Number(segment.position) + 1,
        source: segment.source,
        penalty_points: MQM_PENALTIES[a.severity],
      };
    })
    .sort((a, b) => a.segment_number - b.segment_number || a.id - b.id);
  return {
    ...score,
    document_name: doc.name,
    project_id: doc.project_id,
    srclang: doc.srclang,
    trglang: doc.trglang,
    penalties: { ...MQM_PENALTIES },
    categories,
    annotations: rows,
  };
}

/** GET /v2/quality/report.csv: the report as a spreadsheet reads it. */
export async function qualityReportCsv(db: Db, principal: Principal, documentId: number) {
  const report = await qualityReport(db, principal, documentId);
  return {
    body: Buffer.from(qualityCsv(report), 'utf8'),
    contentType: 'text/csv; charset=utf-8',
    fileName: `${report.document_name.replace(/\.[^.]+$/, '')}.quality.csv`,
  };
}
