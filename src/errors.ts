// The catalogue of application errors: every error the API can answer, with its status and stable code.
// Services throw these; only the error handler (src/http/error-handler.ts) turns them into responses.

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const errors = {
  badParameter: (message: string) => new AppError(400, 'BAD_PARAMETER', message),
  missingParameter: (name: string) =>
    new AppError(400, 'MISSING_PARAMETER', `Parameter "${name}" is required`),
  unknownLanguage: (name: string, code: string) =>
    new AppError(
      400,
      'UNKNOWN_LANGUAGE',
      `Parameter "${name}": language "${code}" is not supported or not enabled`,
    ),
  malformedFile: (message: string) => new AppError(400, 'MALFORMED_FILE', message),
  unauthorized: () => new AppError(401, 'UNAUTHORIZED', 'Unauthorized'),
  forbidden: (message = 'This operation needs the admin role') => new AppError(403, 'FORBIDDEN', message),
  notFound: (what: string, id?: number | string) =>
    new AppError(404, 'NOT_FOUND', id === undefined ? `${what} not found` : `${what} ${id} not found`),
  routeNotFound: (method: string, url: string) =>
    new AppError(404, 'ROUTE_NOT_FOUND', `No route ${method} ${url.split('?')[0]}`),
  methodNotAllowed: (method: string, url: string, allowed: string[]) =>
    new AppError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${url.split('?')[0]}`, {
      Allow: allowed.join(', '),
    }),
  conflict: (message: string) => new AppError(409, 'CONFLICT', message),
  documentBusy: (message: string, retryAfterSeconds: number) =>
    new AppError(409, 'DOCUMENT_BUSY', message, { 'Retry-After': String(retryAfterSeconds) }),
  payloadTooLarge: (limit: number) =>
    new AppError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than the limit of ${limit} bytes`),
  unsupportedMediaType: (name: string, supported: readonly string[]) =>
    new AppError(
      415,
      'UNSUPPORTED_FILE_TYPE',
      `File "${name}" has an unsupported type; supported: ${supported.join(', ')}`,
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'RATE_LIMITED', `Rate limit exceeded; retry in ${retryAfterSeconds} s`, {
      'Retry-After': String(retryAfterSeconds),
    }),
  internal: () => new AppError(500, 'INTERNAL_ERROR', 'Internal server error'),
  unavailable: (message: string) => new AppError(503, 'UNAVAILABLE', message),
} as const;
