// File uploads: a raw body (parameters in the LILT-API header, individual headers or the query) or a
// multipart form with one file field. Bodies are streamed, never buffered whole; parameters are checked
// against the route's TypeBox schema like any other route's query.
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { errors } from '../errors.ts';
import { parameterError } from './parameter-errors.ts';
import type { App } from './types.ts';

/**
 * Registers upload routes in a scope of their own, where every body arrives as a stream (raw or multipart)
 * instead of going through the JSON parser.
 */
export async function uploadRoutes(app: App, maxBytes: number, register: (uploads: App) => void) {
  await app.register(async (uploads: App) => {
    uploads.removeAllContentTypeParsers();
    // preservePath: a file name with a path is refused as such, not silently cut to its last part.
    await uploads.register(multipart, {
      limits: { fileSize: maxBytes, files: 1, fields: 20 },
      preservePath: true,
    });
    uploads.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    register(uploads);
  });
}

export interface Upload<T> {
  params: T;
  /** The file's bytes; iterating past the size limit throws 413. */
  file: AsyncIterable<Buffer>;
}

/**
 * The upload's parameters, checked against `schema`, and its body. Parameters merge, later winning: query,
 * individual headers, the LILT-API JSON header, then multipart fields (and the file part's own name as `name`).
 */
export async function readUpload<S extends TObject>(
  request: FastifyRequest,
  schema: S,
  maxBytes: number,
): Promise<Upload<Static<S>>> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw errors.payloadTooLarge(maxBytes);

  const names = Object.keys(schema.properties);
  const raw: Record<string, string> = {};
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const name of names) {
    if (typeof query[name] === 'string') raw[name] = query[name] as string;
    const header = request.headers[name.toLowerCase()];
    if (typeof header === 'string') raw[name] = header;
  }
  Object.assign(raw, liltApiHeader(request, names));

  let file: AsyncIterable<Buffer>;
  if (request.isMultipart()) {
    const part = await request.file();
    if (!part) throw errors.missingParameter('file');
    for (const [key, field] of Object.entries(part.fields)) {
      const value = (Array.isArray(field) ? field[0] : field) as
        | { type?: string; value?: unknown }
        | undefined;
      if (value?.type === 'field' && names.includes(key)) raw[key] = String(value.value);
    }
    if (!raw.name && part.filename && names.includes('name')) raw.name = part.filename;
    file = limited(part.file, maxBytes);
  } else {
    file = request.body as AsyncIterable<Buffer>;
  }
  return { params: checkParams(schema, raw), file };
}

function liltApiHeader(request: FastifyRequest, names: readonly string[]): Record<string, string> {
  const header = request.headers['lilt-api'];
  if (typeof header !== 'string' || header.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    throw errors.badParameter('Header "LILT-API" must be a JSON object');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.badParameter('Header "LILT-API" must be a JSON object');
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (names.includes(key) && value !== null && value !== undefined) out[key] = String(value);
  }
  return out;
}

/** A multipart file stream that fails with 413 when the parser cut it at the size limit. */
async function* limited(
  stream: AsyncIterable<Buffer> & { truncated: boolean },
  maxBytes: number,
): AsyncGenerator<Buffer> {
  for await (const chunk of stream) yield chunk;
  if (stream.truncated) throw errors.payloadTooLarge(maxBytes);
}

/** Text parameters to the schema's types: an empty value is absent; flags read true/1/yes and false/0/no. */
function checkParams<S extends TObject>(schema: S, raw: Record<string, string>): Static<S> {
  const params: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(raw)) {
    if (text === '') continue;
    params[name] = coerce(schema.properties[name], text);
  }
  const [issue] = Value.Errors(schema, params);
  if (!issue) return params as Static<S>;
  const allowed = literalsOf(schema.properties[issue.instancePath.slice(1)]);
  if (allowed.length > 0) {
    throw errors.badParameter(
      `Parameter "${issue.instancePath.slice(1)}" must be one of: ${allowed.join(', ')}`,
    );
  }
  throw parameterError(issue, 'parameters');
}

function coerce(schema: TSchema, text: string): unknown {
  const s = schema as { type?: string; anyOf?: TSchema[] };
  const options = s.anyOf ?? [schema];
  for (const option of options as { type?: string; const?: unknown }[]) {
    if (typeof option.const === 'string' && option.const.toLowerCase() === text.toLowerCase())
      return option.const;
    if (option.type === 'boolean' && /^(true|1|yes)$/i.test(text)) return true;
    if (option.type === 'boolean' && /^(false|0|no)$/i.test(text)) return false;
    if (option.type === 'integer' && /^\d+$/.test(text) && Number.isSafeInteger(Number(text)))
      return Number(text);
  }
  return text;
}

/** The values a union of literals (and booleans) allows, for an error message that lists them. */
function literalsOf(schema: TSchema | undefined): string[] {
  const options = (schema as { anyOf?: { const?: unknown; type?: string }[] } | undefined)?.anyOf;
  if (!options) return [];
  return options.flatMap((o) =>
    o.const !== undefined ? [String(o.const)] : o.type === 'boolean' ? ['true', 'false'] : [],
  );
}
