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

/**
 * How deep a JSON body or parsed query may nest. No route's input goes past five or six levels; a deeper one
 * is refused before anything walks it: this walk recursed once per level and ran out of stack at a million
 * nested arrays (a 2 MB body, a 500), and a handler that stringifies what it was given would too.
 */
export const MAX_INPUT_DEPTH = 64;

/** What findProblem found: a NUL in a string at `path`, or a value nested too deeply below `path`. */
type InputProblem = { kind: 'nul' | 'deep'; path: string };

/** Whether the walk looks into a value: plain JSON containers only (see findProblem). */
function isWalked(value: unknown, parsed: boolean): value is object {
  if (value === null || typeof value !== 'object') return false;
  // Upload routes' bodies are request streams: only plain JSON values are looked into (a parsed query is
  // plain whatever its prototype, which its parser sets to an empty one of its own).
  if (parsed || Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The first string holding NUL in parsed JSON or a parsed query (depth first, in order), or the first value
 * nested more than MAX_INPUT_DEPTH deep; streams are not looked into. A loop over a stack of its own, so no
 * input, however deep, reaches the engine's stack.
 */
function findProblem(root: unknown, parsed = false): InputProblem | undefined {
  const stack: { value: unknown; path: string; depth: number; top: boolean }[] = [
    { value: root, path: '', depth: 0, top: true },
  ];
  while (stack.length > 0) {
    const { value, path, depth, top } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { kind: 'nul', path };
      continue;
    }
    if (!isWalked(value, top && parsed)) continue;
    if (depth >= MAX_INPUT_DEPTH) return { kind: 'deep', path };
    const children = Array.isArray(value)
      ? value.map((item, i) => ({ item, path: `${path}.${i}` }))
      : Object.entries(value).map(([key, item]) => ({ item, path: path ? `${path}.${key}` : key }));
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ value: children[i].item, path: children[i].path, depth: depth + 1, top: false });
    }
  }
  return undefined;
}

function refuse(problem: InputProblem | undefined, what: 'Parameter' | 'Field'): void {
  if (!problem) return;
  if (problem.kind === 'nul') {
    throw errors.badParameter(`${what} "${problem.path}" must not contain the NUL character`);
  }
  // Named by the top-level field it is under (its full path is 64 levels long); a body that is an array
  // itself has none.
  const field = problem.path.split('.')[0];
  const where = field === '' ? 'The request body' : `${what} "${field}"`;
  throw errors.badParameter(`${where} is nested more than ${MAX_INPUT_DEPTH} levels deep`);
}

export const inputGuardsPlugin = fp(async (app: App) => {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    for (const part of ['querystring', 'body', 'params', 'headers']) markIntegers(schema[part]);
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    refuse(findProblem(request.query, true), 'Parameter');
    refuse(findProblem(request.body), 'Field');
  });
});
