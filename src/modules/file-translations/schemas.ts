// TypeBox schemas of Lilt's Instant Translate (its TranslateApi's file methods, as Lilt's SDKs send and read
// them): POST /v2/translate/file, GET /v2/translate/file (monitor), GET /v2/translate/files (download).
import { Type } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';

/** Lilt's statuses. `Completed` is accepted as a filter; Tessera reports a finished translation as ReadyForDownload. */
export const TRANSLATION_STATUS_NAMES = ['InProgress', 'ReadyForDownload', 'Completed', 'Failed'] as const;

/** POST /v2/translate/file: all in the query, as Lilt's SDKs send it (no body). */
export const TranslateFileQuery = Type.Object({
  /** File ids (POST /v2/files), comma separated: one translation per file. */
  fileId: Type.String({ minLength: 1, maxLength: 2000 }),
  /** The memory whose matches are used (withTM) and whose languages the file is translated between. */
  memoryId: Type.Integer({ minimum: 1 }),
  /**
   * Use the memory's matches (default true): a segment whose best match scores 100 takes it (repaired to the
   * segment's placeables), the others are machine translated. False: machine translation alone.
   */
  withTM: Type.Optional(Type.Boolean()),
  /** Lilt's import configuration: not supported (a 400 says so). */
  configId: Type.Optional(Type.Integer()),
  /** Lilt's third-party model: not supported (a 400 says so); the organization's engines translate. */
  externalModelId: Type.Optional(Type.Integer()),
});

/** A time in seconds far past any translation's (the year 5138), within what every store compares. */
const MAX_TIME = 99_999_999_999;

/** GET /v2/translate/file: at least one filter (as Lilt requires). */
export const MonitorQuery = Type.Object({
  /** Translation ids, comma separated; an id that is not the organization's is a 404. */
  translationIds: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  status: Type.Optional(StringEnum(TRANSLATION_STATUS_NAMES)),
  /** Translations started at this time or later, in seconds since the Unix epoch (a fraction allowed). */
  fromTime: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_TIME })),
  /** Translations started before this time, in seconds since the Unix epoch. */
  toTime: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_TIME })),
});

/** Lilt's TranslationInfo (camelCase on the wire), and what Tessera adds after its fields. */
export const TranslationInfo = Type.Object({
  id: Type.Integer(),
  fileId: Type.Integer(),
  /** InProgress, then ReadyForDownload or Failed. */
  status: StringEnum(['InProgress', 'ReadyForDownload', 'Failed'] as const),
  /** When the translation was started, in seconds since the Unix epoch. */
  createdAt: Type.Integer(),
  /** Why it failed: present when status is Failed. */
  errorMsg: Type.Optional(Type.String()),
  /** (ext.) The memory used. */
  memoryId: Type.Integer(),
  /** (ext.) Whether memory matches were used. */
  withTM: Type.Boolean(),
  /** (ext.) Once ready: the file's segments, those taken from the memory, and those machine translated. */
  segments: Type.Integer(),
  tmSegments: Type.Integer(),
  mtSegments: Type.Integer(),
  /**
   * (ext.) Segments left in the source language: the engine's translation lost their tags, or its
   * placeholders would not run in a format that has no mark for a draft.
   */
  sourceSegments: Type.Integer(),
});
