// Sends a file as a download: its type and a Content-Disposition that keeps non-ASCII names (RFC 6266).

import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export interface Attachment {
  body: Readable | Buffer;
  contentType: string;
  fileName: string;
}

export function sendAttachment(reply: FastifyReply, attachment: Attachment) {
  const name = attachment.fileName;
  // A plain ASCII name goes as it is; any other gets an ASCII fallback plus the exact name in filename*.
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const disposition =
    ascii === name
      ? `attachment; filename="${name}"`
      : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
  return reply.type(attachment.contentType).header('Content-Disposition', disposition).send(attachment.body);
}
