// TypeBox schemas of an organization's machine translation settings (extension: Lilt has none): its
// engines, the kinds an admin may add with the fields each asks for, the monthly limits and the month's usage.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.ts';

const MAX_SETTING_LENGTH = 4000;
const MAX_LIMIT = 1_000_000_000_000;

/** A field's value as sent: plain fields and secrets alike, by the field's name. */
const SettingsIn = Type.Record(
  Type.String({ maxLength: 100 }),
  Type.String({ maxLength: MAX_SETTING_LENGTH }),
);

export const EngineParams = Type.Object({ engineId: Type.Integer({ minimum: 1 }) });

export const CreateEngineBody = Type.Object({
  /** One of the kinds GET /v2/translate/engines lists. */
  kind: Type.String({ minLength: 1, maxLength: 100 }),
  /** What suggestions are labelled with; the kind's name when absent. */
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  /** The kind's fields by name, secrets included; every required field must be given. */
  settings: Type.Optional(SettingsIn),
  enabled: Type.Optional(Type.Boolean()),
  /** Characters the engine may be sent in a calendar month (UTC); null or absent for no limit. */
  monthly_limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_LIMIT }))),
});

export const UpdateEngineBody = Type.Object({
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  /**
   * Fields to change, by name. A secret field left out (or sent empty) keeps its stored value; a plain
   * field sent empty is cleared (refused when the kind requires it).
   */
  settings: Type.Optional(SettingsIn),
  enabled: Type.Optional(Type.Boolean()),
  monthly_limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_LIMIT }))),
});

export const EngineOrderBody = Type.Object({
  /** Every engine of the organization, each once, in the order they are to be asked. */
  ids: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 }),
});

export const LimitBody = Type.Object({
  /** Characters all the organization's engines may be sent in a calendar month (UTC); null for no limit. */
  monthly_limit: Nullable(Type.Integer({ minimum: 0, maximum: MAX_LIMIT })),
});

/** One engine as answered: its secrets never, only which of them are set. */
export const Engine = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  /** The kind's name as people know it ("Apertium"). */
  kind_label: Type.String(),
  label: Type.String(),
  /** 1 is asked first. */
  position: Type.Integer(),
  enabled: Type.Boolean(),
  /** The plain fields' values by name. */
  settings: Type.Record(Type.String(), Type.String()),
  /** The names of the secret fields that have a stored value. */
  secrets_set: Type.Array(Type.String()),
  monthly_limit: Nullable(Type.Integer()),
  /** Characters sent to it this calendar month (UTC). */
  used_this_month: Type.Integer(),
  /** Why this server process does not ask it now (paused after failures), or null. */
  paused: Nullable(Type.String()),
  /** Why it cannot be used at all (its secrets cannot be read, an unknown kind), or null. */
  broken: Nullable(Type.String()),
  updated_at: Type.Integer(),
});

export const EngineKindField = Type.Object({
  name: Type.String(),
  label: Type.String(),
  help: Type.String(),
  required: Type.Boolean(),
  /** Stored encrypted, shown as set or not, never answered. */
  secret: Type.Boolean(),
});

export const EngineKind = Type.Object({
  kind: Type.String(),
  label: Type.String(),
  fields: Type.Array(EngineKindField),
});

export const EnginesAnswer = Type.Object({
  /** The organization's engines, in the order they are asked. */
  engines: Type.Array(Engine),
  /** The operator's default engines (server settings), asked after the organization's; read-only. */
  defaults: Type.Array(
    Type.Object({ kind: Type.String(), label: Type.String(), paused: Nullable(Type.String()) }),
  ),
  /** The kinds an engine may be of, with the fields the form asks for. */
  kinds: Type.Array(EngineKind),
  /** The organization's limit over all engines and this month's usage. */
  limit: Type.Object({
    monthly_limit: Nullable(Type.Integer()),
    used_this_month: Type.Integer(),
    /** The calendar month (UTC) counted, 'YYYY-MM'. */
    month: Type.String(),
  }),
  /** This month's usage per engine (engine_id 0 is an operator default), removed engines included. */
  usage: Type.Array(
    Type.Object({
      engine_id: Type.Integer(),
      engine: Type.String(),
      characters: Type.Integer(),
      cached_characters: Type.Integer(),
      requests: Type.Integer(),
    }),
  ),
});

export const EngineTestAnswer = Type.Object({
  ok: Type.Boolean(),
  /** How many language pairs the engine listed. */
  pairs: Type.Integer(),
  /** The sample translated, its pair and the engine's answer; absent when it could not be translated. */
  sample: Type.Optional(
    Type.Object({
      source_lang: Type.String(),
      target_lang: Type.String(),
      source: Type.String(),
      translation: Type.String(),
    }),
  ),
  /** What went wrong, never quoting a secret; null when ok. */
  error: Nullable(Type.String()),
  elapsed_ms: Type.Integer(),
});
