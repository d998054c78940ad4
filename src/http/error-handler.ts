// The one place errors become HTTP answers: AppErrors as {message, code}, 401 as plain text, 5xx hidden.
import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, errors } from '../errors.ts';
import { parameterError } from './parameter-errors.ts';
import type { ErrorBody } from './schemas.ts';
import type { App } from './types.ts';

/** Maps Fastify's own errors to the catalogue. */
function toAppError(error: FastifyError, limit: number): AppError {
  if (error instanceof AppError) return error;
  if (error.validation?.[0]) {
    return parameterError(error.validation[0], error.validationContext === 'body' ? 'body' : 'parameters');
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(limit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedContentType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.badParameter('Body must be a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.badParameter('Body is not valid JSON');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    if (error.statusCode === 413) return errors.payloadTooLarge(limit);
    return errors.badRequest(error.statusCode, error.message);
  }
  return errors.internal();
}

export const errorHandlerPlugin = fp(async (app: App, options: { bodyLimit: number }) => {
  // path → methods, to tell "no such route" (404) from "no such method here" (405).
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = methodsByPath.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    methodsByPath.set(route.url, set);
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    // A client that went away mid-request (an aborted upload) is no server failure: nothing to answer,
    // a plain line in the log.
    if (request.raw.aborted || request.raw.socket?.destroyed) {
      request.log.info({ code: error.code ?? error.message }, 'client closed the connection');
      return reply.hijack();
    }
    const appError = toAppError(error, options.bodyLimit);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    reply.headers(appError.headers);
    // The API's 401 (docs/API.md): plain text with a challenge. A sign-in form's 401 stays JSON.
    if (appError.code === 'UNAUTHORIZED') {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Basic realm="tessera"')
        .type('text/plain; charset=utf-8')
        .send('Unauthorized');
    }
    return reply
      .code(appError.status)
      .type('application/json; charset=utf-8')
      .send({
        ...appError.details,
        message: appError.message,
        code: appError.code,
      } satisfies ErrorBody);
  });

  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0];
    const methods = methodsByPath.get(path);
    if (methods && !methods.has(request.method)) {
      throw errors.methodNotAllowed(
        request.method,
        request.url,
        [...methods].filter((m) => m !== 'HEAD'),
      );
    }
    throw errors.routeNotFound(request.method, request.url);
  });
});
