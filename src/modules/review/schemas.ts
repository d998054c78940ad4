// TypeBox schemas of review (extension): the translator's versions review mode shows tracked changes against,
// and a project's words confirmed and reviewed per user.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.ts';

export const DocumentQuery = Type.Object({ document_id: Type.Integer({ minimum: 1 }) });
export const ProjectQuery = Type.Object({ project_id: Type.Integer({ minimum: 1 }) });

export const ReviewBaselines = Type.Object({
  document_id: Type.Integer(),
  /** Per segment that has one, its newest confirmed version (docs/EDITOR.md, Review mode). */
  baselines: Type.Array(
    Type.Object({
      segment_id: Type.Integer(),
      version: Type.Integer(),
      target: Nullable(Type.String()),
      /** Who confirmed it. */
      user: Nullable(Type.String()),
      created_at: Type.Integer(),
    }),
  ),
});

const UserWords = Type.Object({
  /** The user's name; null for confirmations older than segment history. */
  user: Nullable(Type.String()),
  /** Words of the segments whose current confirmation the user made (reviewed ones included). */
  words_confirmed: Type.Integer(),
  /** Words of the segments whose current review the user made. */
  words_reviewed: Type.Integer(),
  segments_confirmed: Type.Integer(),
  segments_reviewed: Type.Integer(),
});

export const ReviewProgress = Type.Object({
  project_id: Type.Integer(),
  /** Per user over the project's documents, most words confirmed first. */
  users: Type.Array(UserWords),
  documents: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      /** Source words of the document. */
      words: Type.Integer(),
      users: Type.Array(UserWords),
    }),
  ),
});
