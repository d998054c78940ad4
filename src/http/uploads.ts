// File uploads: a raw body (parameters in the LILT-API header, individual headers or the query) or a
// multipart form with one file field. Bodies are streamed, never buffered whole.
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { errors } from '../errors.ts';
import type { App } from './types.ts';

/** Makes every route of this (encapsulated) scope receive its body as a stream. */
export async function acceptFileBodies(app: App, maxBytes: number) {
  app.removeAllContentTypeParsers();
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 20 } });
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
}

export interface Upload {
  params: Record<string, string>;
  body: AsyncIterable<Buffer>;
  /** True when the multipart file went past the limit (known only after it was read). */
  truncated(): boolean;
}

/**
 * The upload's parameters and body. Parameters merge, later winning: query, individual headers,
 * the LILT-API JSON header, then multipart fields (and the file part's own file name as `name`).
 */
export async function readUpload(
  request: FastifyRequest,
  names: readonly string[],
  maxBytes: number,
): Promise<Upload> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw errors.payloadTooLarge(maxBytes);

  const params: Record<string, string> = {};
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const name of names) {
    if (typeof query[name] === 'string') params[name] = query[name] as string;
    const header = request.headers[name.toLowerCase()];
    if (typeof header === 'string') params[name] = header;
  }
  const liltApi = request.headers['lilt-api'];
  if (typeof liltApi === 'string' && liltApi.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(liltApi);
    } catch {
      throw errors.badParameter('Header "LILT-API" must be a JSON object');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw errors.badParameter('Header "LILT-API" must be a JSON object');
    }
    for (const [key, value] of Object.entries(parsed)) {
      if (names.includes(key) && value !== null && value !== undefined) params[key] = String(value);
    }
  }

  if (request.isMultipart()) {
    const file = await request.file();
    if (!file) throw errors.missingParameter('file');
    for (const [key, field] of Object.entries(file.fields)) {
      const value = (Array.isArray(field) ? field[0] : field) as
        | { type?: string; value?: unknown }
        | undefined;
      if (value?.type === 'field' && names.includes(key)) params[key] = String(value.value);
    }
    if (!params.name && file.filename) params.name = file.filename;
    return { params, body: file.file, truncated: () => file.file.truncated };
  }
  return { params, body: request.body as AsyncIterable<Buffer>, truncated: () => false };
}

/** A file name as uploaded: no path part, no `..`, no control characters. */
export function requireFileName(name: string | undefined): string {
  if (name === undefined || name.trim() === '') throw errors.missingParameter('name');
  if (/[/\\]/.test(name) || name.includes('..') || /[\u0000-\u001f\u007f]/.test(name) || name.length > 255) {
    throw errors.badParameter(
      `Parameter "name" must be a plain file name (no path, "..", or control characters)`,
    );
  }
  return name;
}

/** A positive integer id parameter. */
export function requireId(name: string, value: string | undefined): number {
  if (value === undefined || value === '') throw errors.missingParameter(name);
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw errors.badParameter(`Parameter "${name}" must be a positive integer`);
  }
  return Number(value);
}
