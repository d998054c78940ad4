// TypeBox schema of GET /v2/languages (docs/API.md).
import { Type } from 'typebox';

export const LanguagesAnswer = Type.Object({
  source_to_target: Type.Record(Type.String(), Type.Record(Type.String(), Type.Boolean())),
  code_to_name: Type.Record(Type.String(), Type.String()),
});
