// Answers in the contract's {message, code} shape for the requests that never reach a route: a URL that is
// not valid percent-encoding, and what Node's HTTP parser refuses (headers too large, a malformed
// Content-Length, a request that timed out). Nothing of the request is echoed back: its URL may hold a key.

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

function body(message: string, code: string): string {
  return JSON.stringify({ message, code });
}

/** Fastify's `frameworkErrors`: errors it raises before routing (FST_ERR_BAD_URL). */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply
      .code(400)
      .type('application/json; charset=utf-8')
      .send(body('The URL is not valid: a "%" must start a percent-encoded byte', 'BAD_URL'));
  }
  return reply.code(400).type('application/json; charset=utf-8').send(body('Bad request', 'BAD_REQUEST'));
}

const PARSER_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'HEADERS_TOO_LARGE',
    'The request line and headers are larger than the server accepts',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request was not received in time'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'BAD_CONTENT_LENGTH', 'The Content-Length header is not valid'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'BAD_CONTENT_LENGTH', 'The Content-Length header is not valid'],
};

/** Fastify's `clientErrorHandler`: writes the answer on the socket itself, as no request object exists. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (!socket.writable) return socket.destroy();
  const [status, code, message] = PARSER_ERRORS[error.code ?? ''] ?? [
    400,
    'BAD_REQUEST',
    'The request is malformed',
  ];
  const payload = body(message, code);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
  );
}
