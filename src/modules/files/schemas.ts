// TypeBox schemas of Lilt's Files resource (docs/FILES-AND-JOBS.md): SourceFile, and the files routes' parameters.
import { Type } from 'typebox';

export const SourceFile = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  file_hash: Type.String(),
  /** ISO 639-1; "zxx" when detection was not asked for, "und" when undetermined. */
  detected_lang: Type.String(),
  detected_lang_confidence: Type.Number(),
  category: Type.String(),
  labels: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** POST /v2/files: from the query (Lilt's clients), the LILT-API header, individual headers or multipart. */
export const FileUploadParams = Type.Object({
  name: Type.String(),
  file_hash: Type.Optional(Type.String({ maxLength: 200 })),
  langId: Type.Optional(Type.Boolean()),
  project_id: Type.Optional(Type.Integer({ minimum: 1 })),
  category: Type.Optional(Type.Union([Type.Literal('API'), Type.Literal('REFERENCE')])),
  labels: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const ListFilesQuery = Type.Object({
  id: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Comma separated: a file must carry all of them. */
  labels: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const LabelQuery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
});

export const LabelBody = Type.Optional(Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })) }));
