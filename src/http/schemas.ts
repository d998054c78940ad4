// TypeBox schemas and helpers shared by every module's routes; a module's own shapes stay in its schemas.ts.
import { type Static, type TSchema, Type } from 'typebox';

/**
 * The value or null, as a type list (`type: ['string', 'null']`) where the schema has one type: an anyOf
 * would make the response serializer (fast-json-stringify) compile an Ajv schema at its first use, which
 * held the server's thread 30–45 ms in the middle of serving.
 */
export const Nullable = <T extends TSchema>(schema: T) => {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') return Type.Union([schema, Type.Null()]);
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
};

/** One of these strings: an enum, not an anyOf of literals, for the reason Nullable gives. */
export const StringEnum = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

/** `?id=` of one resource. */
export const IdQuery = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/**
 * The JSON body of every refusal (docs/API.md, Errors): the message for people, the stable code for programs,
 * and the fields some codes add (a conflict's `current`). The error handler sends it; the web reads it.
 */
export const ErrorBody = Type.Object({ message: Type.String(), code: Type.String() });
export type ErrorBody = Static<typeof ErrorBody> & Record<string, unknown>;

/** The answer of a DELETE. */
export const Deleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });
