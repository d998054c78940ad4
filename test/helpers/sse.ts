// Reads Server-Sent Events of a GET on a listening app, as they arrive (a small EventSource for tests).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../src/http/types.ts';

export interface ReceivedEvent {
  event: string;
  data: Record<string, unknown>;
}

export async function openEventStream(app: App, path: string, key: string) {
  const address = app.server.address() as AddressInfo;
  const events: ReceivedEvent[] = [];
  let raw = '';
  const request = http.get({
    host: '127.0.0.1',
    port: address.port,
    path,
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
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
  });
  response.on('error', () => {});
  return {
    status: response.statusCode,
    events,
    /** The first event satisfying the test; fails after the timeout naming what did arrive. */
    async next(test: (e: ReceivedEvent) => boolean, timeoutMs = 8000): Promise<ReceivedEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(test);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close() {
      request.destroy();
    },
  };
}
