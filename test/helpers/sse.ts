// Reads Server-Sent Events of a GET on a listening app, as they arrive (a small EventSource for tests): by API
// key or, with a cookie, by session; waits for an event matching a test, or for the server to end the stream.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../src/http/types.ts';

export interface ReceivedEvent {
  event: string;
  data: Record<string, unknown>;
}

/** An EventSource of sorts: the events of a GET on a listening app, parsed as they arrive. */
export async function openEventStream(app: App, path: string, key: string, cookie?: string) {
  const address = app.server.address() as AddressInfo;
  const events: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  let raw = '';
  const request = http.get({
    host: '127.0.0.1',
    port: address.port,
    path,
    headers: cookie
      ? { cookie, accept: 'text/event-stream' }
      : { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
  });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  });
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    raw += chunk;
    for (let end = raw.indexOf('\n\n'); end >= 0; end = raw.indexOf('\n\n')) {
      const block = raw.slice(0, end);
      raw = raw.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) });
    }
    for (const wake of waiters) wake();
  });
  response.on('error', () => {});
  return {
    response,
    status: response.statusCode,
    events,
    /** The first event (from `from` on) that satisfies the test; fails after the timeout. */
    async next(test: (e: ReceivedEvent) => boolean, timeoutMs = 8000, from = 0): Promise<ReceivedEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(from).find(test);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no such event; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    /** Resolves with the milliseconds the server took to end the stream; fails after the timeout. */
    ended(timeoutMs = 5000): Promise<number> {
      const started = Date.now();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the stream is still open')), timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve(Date.now() - started);
        };
        if (response.complete) done();
        else response.on('end', done);
      });
    },
    close() {
      request.destroy();
    },
  };
}
