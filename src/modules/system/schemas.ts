// TypeBox schema of the API root (docs/API.md).
import { Type } from 'typebox';

export const ApiRoot = Type.Object({ api_name: Type.String(), api_root: Type.String() });
