// Response schemas are serialized by fast-json-stringify, which compiles an Ajv validator for every anyOf
// or oneOf at its first use — 30–45 ms of the server's thread in the middle of serving (issue 8). Nullable
// and StringEnum (src/http/schemas.ts) write type lists and enums instead; a union of object shapes stays
// only where a route answers one of several resources.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

/** Routes whose answer is one of several object shapes (a segment of a document or of a memory). */
const UNIONS_ALLOWED = new Set([
  'PUT /v2/segments',
  'GET /v2/segments',
  'POST /v2/segments',
  'POST /v2/segments/restore',
]);

function unionPaths(schema: unknown, path = ''): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'anyOf' || key === 'oneOf') found.push(`${path}.${key}`);
    found.push(...unionPaths(value, `${path}.${key}`));
  }
  return found;
}

test('response schemas hold no anyOf or oneOf the serializer would compile while serving', async () => {
  const [sqlite] = await storeTargets();
  const ctx = await createContext(sqlite);
  try {
    // The OpenAPI document holds every route's response schemas (Nullable's type lists become nullable).
    const spec = (await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses?: unknown }>>;
    };
    const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        route: `${method.toUpperCase()} ${path}`,
        unions: unionPaths(op.responses),
      })),
    );
    assert.ok(routes.length > 50, `routes seen: ${routes.length}`);
    const offending = routes.filter((r) => r.unions.length > 0 && !UNIONS_ALLOWED.has(r.route));
    assert.deepEqual(offending, []);
  } finally {
    await ctx.close();
  }
});
