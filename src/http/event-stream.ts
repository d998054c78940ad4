// Server-Sent Events: a hijacked response that stays open, with keepalive comments, until the client goes
// away, the credentials it was opened with end, or the server closes (every open stream is ended first, so
// that closing never waits on one).
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Principal } from './principal.ts';
import type { App } from './types.ts';

/** Comments sent while nothing happens, so that proxies and browsers keep the connection. */
const KEEPALIVE_MS = 15_000;
/**
 * How often the credentials of every open stream are checked against the store: a stream ends at most this
 * long (and one query's time) after its user is disabled, its key revoked or its session signed out — on
 * whichever instance that happened, since the store is asked.
 */
export const STREAM_RECHECK_MS = 1000;

/** Answers, for each principal, whether its credentials still stand (in one batch, however many). */
export type CredentialCheck = (principals: readonly Principal[]) => Promise<boolean[]>;

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
    /**
     * Ends at once the open streams whose credentials no longer stand. Called by what ends credentials on
     * this instance (revocation, disabling, sign-out), so that no event reaches such a stream after the
     * change is answered; the timer catches what other instances and the command line do.
     */
    recheckEventStreams(): Promise<void>;
  }
}

export const eventStreamPlugin = fp(async (app: App, options: { stillValid: CredentialCheck }) => {
  /** Every open stream's end, with the principal it was opened with. */
  const open = new Map<() => void, Principal | null>();

  // One check for all open streams, not one per stream: three small queries a second per process.
  const check = async () => {
    const streams = [...open].filter((entry): entry is [() => void, Principal] => entry[1] !== null);
    if (streams.length === 0) return;
    try {
      const valid = await options.stillValid(streams.map(([, principal]) => principal));
      streams.forEach(([end], i) => {
        if (!valid[i]) end();
      });
    } catch (err) {
      // The store cannot answer now (a restart, a failover): the next round asks again.
      app.log.warn({ err }, 'checking the credentials of open event streams failed');
    }
  };
  let running: Promise<void> | undefined;
  /** A check that starts after any in flight, which may have read the store before the change asking. */
  const recheck = async () => {
    while (running) await running;
    running = check().finally(() => {
      running = undefined;
    });
    await running;
  };
  const recheckTimer = setInterval(() => {
    if (!running) void recheck();
  }, STREAM_RECHECK_MS);
  recheckTimer.unref();
  app.decorate('recheckEventStreams', recheck);

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
    open.set(end, reply.request.principal);
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
    clearInterval(recheckTimer);
    for (const end of [...open.keys()]) end();
  });
});
