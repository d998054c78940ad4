// TypeBox schemas of the quality evaluation (extension): MQM annotations of a document's segments, the
// document's score and report, and a project's pass threshold.
import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.ts';
import { MQM_CATEGORIES, MQM_SEVERITIES } from '../../text/qa/mqm.ts';

export const MqmCategory = StringEnum(MQM_CATEGORIES);
export const MqmSeverity = StringEnum(MQM_SEVERITIES);

export const Annotation = Type.Object({
  id: Type.Integer(),
  document_id: Type.Integer(),
  segment_id: Type.Integer(),
  category: MqmCategory,
  severity: MqmSeverity,
  /** What the reviewer says of the error (may be empty). */
  note: Type.String(),
  /** The segment's target when the error was annotated. */
  target: Nullable(Type.String()),
  /** Who annotated it. */
  user: Nullable(Type.String()),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

export const ListAnnotationsQuery = Type.Object({
  document_id: Type.Integer({ minimum: 1 }),
  segment_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const CreateAnnotationBody = Type.Object({
  segment_id: Type.Integer({ minimum: 1 }),
  category: MqmCategory,
  severity: MqmSeverity,
  note: Type.Optional(Type.String({ maxLength: 5000 })),
});

export const UpdateAnnotationBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  category: Type.Optional(MqmCategory),
  severity: Type.Optional(MqmSeverity),
  note: Type.Optional(Type.String({ maxLength: 5000 })),
});

export const DocumentQuery = Type.Object({ document_id: Type.Integer({ minimum: 1 }) });
export const ProjectQuery = Type.Object({ project_id: Type.Integer({ minimum: 1 }) });

const Counts = Type.Object({
  minor: Type.Integer(),
  major: Type.Integer(),
  critical: Type.Integer(),
});

export const QualityScore = Type.Object({
  document_id: Type.Integer(),
  /** Source words of the document, as the analysis counts them. */
  words: Type.Integer(),
  /** The sum of the annotations' penalties (minor 1, major 5, critical 25). */
  penalty_points: Type.Integer(),
  points_per_1000_words: Type.Number(),
  /** The project's pass threshold, in points per 1,000 words. */
  threshold: Type.Number(),
  pass: Type.Boolean(),
  /** Annotations by severity. */
  errors: Counts,
});

export const QualityReport = Type.Object({
  ...QualityScore.properties,
  document_name: Type.String(),
  project_id: Type.Integer(),
  srclang: Type.String(),
  trglang: Type.String(),
  /** Penalty points of each severity. */
  penalties: Counts,
  /** Every category of MQM-Core, annotated or not, with its errors by severity and its points. */
  categories: Type.Array(
    Type.Object({
      category: MqmCategory,
      label: Type.String(),
      ...Counts.properties,
      penalty_points: Type.Integer(),
    }),
  ),
  /** The annotations in document order, with their segment's number and source. */
  annotations: Type.Array(
    Type.Object({
      ...Annotation.properties,
      /** The segment's number in the document, from 1. */
      segment_number: Type.Integer(),
      source: Type.String(),
      penalty_points: Type.Integer(),
    }),
  ),
});

export const QualitySettings = Type.Object({
  project_id: Type.Integer(),
  /** Points per 1,000 words at or below which a document passes. */
  threshold: Type.Number(),
  /** Whether the threshold is the default (the project set none). */
  is_default: Type.Boolean(),
});

export const UpdateQualitySettingsBody = Type.Object({
  project_id: Type.Integer({ minimum: 1 }),
  threshold: Type.Number({ minimum: 0, maximum: 1000 }),
});
