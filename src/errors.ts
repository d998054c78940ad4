// The catalogue of errors: every error the API can answer (AppError, with its status and stable code), the
// errors of reading a file (FormatError, XmlError) that tasks and services recognise by type, and the reason
// a background task fails with (TaskFailure), which GET /v2/tasks shows.
// Services throw AppErrors; only the error handler (src/http/error-handler.ts) turns them into responses.

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
    /** Extra fields of the JSON body beside message and code (e.g. the current state of a conflict). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const errors = {
  /** A client error Fastify itself raised that has no name of its own here (its status is kept). */
  badRequest: (status: number, message: string) => new AppError(status, 'BAD_REQUEST', message),
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
  /** A sign-in form's answer: JSON, so that the page can say what went wrong. */
  badCredentials: () =>
    new AppError(401, 'BAD_CREDENTIALS', 'Wrong username or password, or an unknown API key'),
  csrfRefused: () =>
    new AppError(
      403,
      'CROSS_SITE_REQUEST',
      'A request signed in by cookie must come from this server’s own pages (its Origin does not match)',
    ),
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
  /** An edit based on a segment someone changed meanwhile: the answer carries the segment as it is now. */
  segmentConflict: (id: number, current: unknown) =>
    new AppError(
      409,
      'SEGMENT_CONFLICT',
      `Segment ${id} was changed by someone else since expected_updated_at; see "current"`,
      {},
      { current },
    ),
  /** A join of segments that are not adjacent parts of one paragraph or entry of the file. */
  segmentsNotJoinable: (message: string) => new AppError(409, 'SEGMENTS_NOT_JOINABLE', message),
  /** A change of a segment a project manager locked, or one a reviewer signed off (docs/API.md, Workflow). */
  segmentLocked: (id: number, why: string) =>
    new AppError(409, 'SEGMENT_LOCKED', `Segment ${id} is locked: ${why}`),
  /** A translator or reviewer changing a document outside the workflow stage assigned to them. */
  notYourStage: (id: number, stage: string, mine: readonly string[]) =>
    new AppError(
      409,
      'NOT_YOUR_STAGE',
      `Document ${id} is in its ${stage} stage; you are assigned to ${mine.length === 0 ? 'no stage' : mine.join(' and ')} of it`,
    ),
  /** A hand-off (done) the document is not ready for: what is missing, said in the message. */
  workflowCheckFailed: (message: string, details: Record<string, unknown>) =>
    new AppError(409, 'WORKFLOW_CHECK_FAILED', message, {}, details),
  batchConflict: (message: string) => new AppError(409, 'BATCH_CONFLICT', message),
  // Sign-in names are unique across the server (Basic user:password carries no organization), so a taken
  // name must be refused — with the same answer whichever organization holds it.
  usernameTaken: (username: string) =>
    new AppError(409, 'USERNAME_TAKEN', `Username "${username}" is not available; choose another`),
  memoryBusy: (id: number, retryAfterSeconds: number) =>
    new AppError(409, 'MEMORY_BUSY', `Memory ${id} is importing a file; retry when is_processing is false`, {
      'Retry-After': String(retryAfterSeconds),
    }),
  memoryInUse: (id: number, projects: readonly { id: number; name: string }[]) =>
    new AppError(
      409,
      'MEMORY_IN_USE',
      `Memory ${id} is the memory of ${projects.length === 1 ? 'project' : 'projects'} ${projects
        .map((p) => `${p.id} (${JSON.stringify(p.name)})`)
        .join(', ')}; delete those projects first`,
    ),
  documentBusy: (message: string, retryAfterSeconds: number) =>
    new AppError(409, 'DOCUMENT_BUSY', message, { 'Retry-After': String(retryAfterSeconds) }),
  /** A document whose import failed: it has nothing to export. */
  documentNotImported: (id: number, importError: string | null) =>
    new AppError(409, 'DOCUMENT_NOT_IMPORTED', `Document ${id} could not be imported: ${importError}`),
  /**
   * A document whose format has no mark for a draft (JSON, YAML, Android) and which holds confirmed targets
   * whose placeholders would not run: writing it would drop them or ship them broken.
   */
  exportBlocked: (message: string, segments: unknown) =>
    new AppError(422, 'EXPORT_BLOCKED', message, {}, { segments }),
  /** A file translation (POST /v2/translate/file) still running, or failed: it has no file to download. */
  translationNotReady: (id: number, status: string, errorMsg: string | null) =>
    status === 'Failed'
      ? new AppError(409, 'TRANSLATION_FAILED', `Translation ${id} failed: ${errorMsg}`)
      : new AppError(409, 'TRANSLATION_IN_PROGRESS', `Translation ${id} is still in progress`, {
          'Retry-After': '2',
        }),
  jobBusy: (message: string) => new AppError(409, 'JOB_BUSY', message, { 'Retry-After': '2' }),
  /** A job with a file that could not be imported: it has no translated files to export. */
  jobNotCreated: (id: number, failed?: { name: string; error: string }) =>
    new AppError(
      409,
      'JOB_NOT_CREATED',
      `Job ${id} has a file that could not be imported${failed ? ` (${failed.name}: ${failed.error})` : ''}`,
    ),
  payloadTooLarge: (limit: number) =>
    new AppError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than the limit of ${limit} bytes`),
  /** A body whose Content-Type the route does not read. */
  unsupportedContentType: () =>
    new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type for this route'),
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
  tooManyFailures: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'TOO_MANY_FAILED_SIGN_INS',
      `Too many failed sign-in attempts; retry in ${retryAfterSeconds} s`,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  tooManyTakenUsernames: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'TOO_MANY_TAKEN_USERNAMES',
      `Too many user names refused as taken lately; retry in ${retryAfterSeconds} s`,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  /** A user already runs as many finds and replaces as one may at once, or the server all it runs. */
  tooManyReplaces: (message: string, retryAfterSeconds: number) =>
    new AppError(429, 'TOO_MANY_REPLACES', message, { 'Retry-After': String(retryAfterSeconds) }),
  /** A regular expression of a find and replace ran past its time (it backtracks without end, or nearly). */
  regexTimeout: (seconds: number) =>
    new AppError(
      400,
      'REGEX_TIMEOUT',
      `Parameter "find": the regular expression took longer than ${seconds} s over this document; simplify it`,
    ),
  /** A project's own segmentation rules ran past their time over a probe text (they backtrack without end). */
  segmentationTimeout: (seconds: number) =>
    new AppError(
      400,
      'REGEX_TIMEOUT',
      `Segmentation rules: their regular expressions took longer than ${seconds} s over a probe text; simplify them`,
    ),
  internal: () => new AppError(500, 'INTERNAL_ERROR', 'Internal server error'),
  unavailable: (message: string) => new AppError(503, 'UNAVAILABLE', message),
  /**
   * The store's connection was lost (a restart or failover of PostgreSQL, a network cut): the request did
   * nothing that committed, and the next one opens a new connection.
   */
  storeUnavailable: (detail: string) =>
    new StoreUnavailableError(`The database connection was lost (${detail}); retry the request`),
} as const;

/**
 * The store could not be reached, or its connection broke mid-statement: retryable, by a client (503 with
 * Retry-After) or by the task worker (the task goes back to the queue).
 */
export class StoreUnavailableError extends AppError {
  override name = 'StoreUnavailableError';
  constructor(message: string) {
    super(503, 'STORE_UNAVAILABLE', message, { 'Retry-After': '2' });
  }
}

/** True when err, or an error it wraps (cause), is the store's connection lost. */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StoreUnavailableError) return true;
  }
  return false;
}

/** A file that cannot be read as its format; line and column are 1-based when known. */
export class FormatError extends Error {
  override name = 'FormatError';
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line !== undefined ? `${message} at line ${line}, column ${column ?? 1}` : message);
  }
}

/**
 * A file over one of the limits that bound what reading it may cost (its size once decompressed, a line, an
 * XML text or unit): refused with its own code, FILE_LIMIT_EXCEEDED, rather than read at any cost.
 */
export class FileLimitError extends FormatError {
  override name = 'FileLimitError';
  readonly code = 'FILE_LIMIT_EXCEEDED';
}

/** A file that is not well-formed XML (or is refused); line and column are 1-based. */
export class XmlError extends FormatError {
  override name = 'XmlError';
  constructor(
    readonly detail: string,
    line: number,
    column: number,
    kind = 'Malformed XML',
  ) {
    super(kind, line, column);
    this.message = `${kind} at line ${line}, column ${column}: ${detail}`;
  }
}

/**
 * An error a worker thread posted as plain data (its name and message), rebuilt as the kind callers recognise
 * by type: a file over a limit, a file that cannot be read, or anything else.
 */
export function errorFromThread({ name, message }: { name: string; message: string }): Error {
  if (name === 'FileLimitError') return new FileLimitError(message);
  if (name === 'FormatError' || name === 'XmlError') return new FormatError(message);
  return new Error(message);
}

/**
 * Why a background task failed, meant for the client (a malformed file, a missing resource): the worker
 * fails the task with its message and code. FormatErrors and AppErrors thrown by a task are such reasons too.
 */
export class TaskFailure extends Error {
  override name = 'TaskFailure';
  constructor(
    message: string,
    /** The stable code the task shows beside the message. */
    readonly code = 'TASK_FAILED',
  ) {
    super(message);
  }
}
