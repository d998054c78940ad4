// TypeBox schemas and helpers shared by every module's routes; a module's own shapes stay in its schemas.ts.
import { type TSchema, Type } from 'typebox';

/** The value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `?id=` of one resource. */
export const IdQuery = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** The answer of a DELETE. */
export const Deleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });
