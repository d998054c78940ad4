// Structured logs (pino): secrets never reach them, at any level. The API key is cut from logged URLs by the
// decoded name of its parameter (so `?k%65y=` is caught as well as `?key=`), and the headers that carry
// credentials are censored wherever an object holding headers is logged (plugins log theirs at trace).
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

const CENSOR = '[REDACTED]';

/** The URL with the value of every parameter whose decoded name is `key` replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // Undecodable: it may still be how a client spells "key"; keep nothing of its value.
        return eq < 0 ? pair : `${rawName}=${CENSOR}`;
      }
      return name.trim().toLowerCase() === 'key' && eq >= 0 ? `${rawName}=${CENSOR}` : pair;
    })
    .join('&');
  return `${url.slice(0, q + 1)}${redacted}${hash < 0 ? '' : url.slice(hash)}`;
}

const SECRET_HEADERS = ['authorization', 'cookie', '"set-cookie"', '"proxy-authorization"'];

/** Redaction paths: the secret headers of any logged `headers` object, up to three levels down. */
function redactPaths(): string[] {
  const prefixes = ['headers', '*.headers', '*.*.headers', '*.*.*.headers'];
  return prefixes.flatMap((prefix) =>
    SECRET_HEADERS.map((h) => (h.startsWith('"') ? `${prefix}[${h}]` : `${prefix}.${h}`)),
  );
}

export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: redactPaths(), censor: CENSOR },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        };
      },
    },
  };
}

/**
 * The access log: one line a request, when it is answered — method, URL (its key redacted), address, status
 * and milliseconds. Fastify's default writes two, one on arrival that the answer's line then needs to be
 * read with (the answer's line holds no URL): measured in one process, logging took 0.09 ms of a 0.19 ms
 * `/healthz`. Only those two lines change; Fastify's error lines (a failed answer, the default error
 * handler's, a 404) stay as they are.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
