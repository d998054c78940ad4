// Small TypeBox helpers shared by the route schemas.
import { type TSchema, Type } from 'typebox';

/** The value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
