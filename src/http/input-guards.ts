// Guards every route's input the schemas alone would let through to the store: integers that are not safe
// integers (Ajv coerces "1e309" and "Infinity" to Infinity and skips its range checks for them), and the
// NUL character, which PostgreSQL cannot store in text. Both answer 400 naming the parameter.

import type { KeywordDefinition } from 'ajv';
import type { FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../errors.ts';
import type { App } from './types.ts';

/** The Ajv keyword every integer schema gets: a safe integer, finite and exact. */
export const SAFE_INTEGER_KEYWORD = 'x-safe-integer';

/**
 * For Fastify's `ajv.plugins`: registers the keyword. It declares no data type on purpose: Ajv runs the
 * keywords of type "number" only for finite numbers, which is the very case this one exists to catch.
 */
export function safeIntegerKeyword<A extends { addKeyword(definition: KeywordDefinition): unknown }>(
  ajv: A,
): A {
  ajv.addKeyword({
    keyword: SAFE_INTEGER_KEYWORD,
    schemaType: 'boolean',
    errors: false,
    validate: (_schema: boolean, data: unknown) => typeof data !== 'number' || Number.isSafeInteger(data),
  });
  return ajv;
}

/** Adds the keyword to every integer in a schema (in place; TypeBox schemas are plain objects). */
function markIntegers(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  if (node.type === 'integer') node[SAFE_INTEGER_KEYWORD] = true;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const item of value) markIntegers(item);
    else if (value && typeof value === 'object') markIntegers(value);
  }
}

/** The path of the first string holding NUL in parsed JSON or a parsed query; streams are not looked into. */
function findNul(value: unknown, path: string, parsed = false): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  // Upload routes' bodies are request streams: only plain JSON values are looked into (a parsed query is
  // plain whatever its prototype, which its parser sets to an empty one of its own).
  if (!parsed && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return undefined;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNul(item, `${path}.${i}`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findNul(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

export const inputGuardsPlugin = fp(async (app: App) => {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    for (const part of ['querystring', 'body', 'params', 'headers']) markIntegers(schema[part]);
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const inQuery = findNul(request.query, '', true);
    if (inQuery) throw errors.badParameter(`Parameter "${inQuery}" must not contain the NUL character`);
    const inBody = findNul(request.body, '');
    if (inBody) throw errors.badParameter(`Field "${inBody}" must not contain the NUL character`);
  });
});
