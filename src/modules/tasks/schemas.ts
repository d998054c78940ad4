// TypeBox schema of a task as GET /v2/tasks answers it (extension).
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.ts';

export const Task = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  state: Type.String(),
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  result: Type.Unknown(),
  error: Nullable(Type.String()),
  /** Why it failed, as a stable code (UNSUPPORTED_FILE_TYPE, MALFORMED_FILE, NOT_FOUND, INTERNAL_ERROR…). */
  error_code: Nullable(Type.String()),
  created_at: Type.Integer(),
  started_at: Nullable(Type.Integer()),
  finished_at: Nullable(Type.Integer()),
});
