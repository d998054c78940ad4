// Server-Sent Events: a hijacked response that stays open, with keepalive comments, until the client goes
// away or the server closes (every open stream is ended first, so that closing never waits on one).
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { App } from './types.ts';

/** Comments sent while nothing happens, so that proxies and browsers keep the connection. */
const KEEPALIVE_MS = 15_000;

/** Where events go: `send` writes one; the source's `stop` is called once when the stream ends. */
export interface EventSink {
  send(event: string, data: unknown): void;
}

export interface EventSource {
  start(sink: EventSink): Promise<() => void> | (() => void);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers the request with the source's events, until either side closes. */
    eventStream(reply: FastifyReply, source: EventSource): Promise<void>;
  }
}

export const eventStreamPlugin = fp(async (app: App) => {
  const open = new Set<() => void>();

  app.decorate('eventStream', async (reply: FastifyReply, source: EventSource) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    let stopSource: (() => void) | undefined;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepalive);
      open.delete(end);
      stopSource?.();
      res.end();
    };
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    open.add(end);
    res.on('close', end);
    const sink: EventSink = {
      send(event, data) {
        if (!ended) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
    };
    try {
      const stop = await source.start(sink);
      if (ended) stop();
      else stopSource = stop;
    } catch (err) {
      reply.log.error({ err }, 'event stream failed to start');
      end();
    }
  });

  // Before the server stops accepting: a stream never ends by itself, and close would wait for it.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });
});
