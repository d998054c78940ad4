// Sends a JSON answer made once for the life of the process (GET /v2/languages): the bytes as they are,
// gzip-compressed when the client accepts it, and 304 when the client already holds them (If-None-Match).
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface ConstantBody {
  /** UTF-8 bytes: a string would be encoded again for every request. */
  json: Buffer;
  gzip: Buffer;
  /** A strong entity tag, quoted. */
  etag: string;
}

// Few distinct Accept-Encoding headers exist in practice; the cache keeps the negotiation's parse off each request.
const encodings = new Negotiator({ supportedValues: ['gzip', 'identity'], cache: new Map() });

/** Whether an If-None-Match header names this tag (a list, `*`, or the weak form of the same tag). */
function holds(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

export function sendConstantJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: ConstantBody,
): FastifyReply {
  // The answer depends on the request's credentials being valid, not on whose they are: private to the
  // client, revalidated each time (cheap: a 304 carries no body).
  reply
    .header('etag', body.etag)
    .header('cache-control', 'private, no-cache')
    .header('vary', 'accept-encoding');
  if (holds(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const accept = request.headers['accept-encoding'];
  // A client refusing both (`identity;q=0`) gets the plain bytes: a 406 would help nobody here.
  if (accept !== undefined && encodings.negotiate(accept) === 'gzip') {
    return reply.header('content-encoding', 'gzip').send(body.gzip);
  }
  return reply.send(body.json);
}
