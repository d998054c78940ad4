// Structured logs (pino): secrets never reach them — key= is cut from URLs, Authorization is not logged.
import type { FastifyRequest } from 'fastify';

/** The URL with the value of every `key` query parameter replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]key=)[^&#]*/gi, '$1[REDACTED]');
}

export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
      censor: '[REDACTED]',
    },
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
