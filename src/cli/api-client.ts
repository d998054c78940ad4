// The HTTP client behind the API commands: TESSERA_URL and TESSERA_API_KEY, errors as one line.
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';

export class ApiClient {
  readonly base: string;
  private readonly auth: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const key = env.TESSERA_API_KEY;
    if (!key) throw new Error('TESSERA_API_KEY must be set to an API key for the API commands');
    this.base = (env.TESSERA_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    this.auth = `Bearer ${key}`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(
      method,
      path,
      body === undefined ? {} : { body: JSON.stringify(body), type: 'application/json' },
    );
    return (await res.json()) as T;
  }

  /**
   * Uploads a file as the raw body, parameters in the LILT-API header. `onSent` hears the bytes handed to
   * the connection so far: fetch pulls the stream only as fast as the socket drains, so this is the upload's
   * progress give or take a buffer.
   */
  async upload<T>(
    path: string,
    file: string,
    params: Record<string, unknown>,
    onSent: (sent: number, size: number) => void = () => {},
  ): Promise<T> {
    const size = statSync(file).size;
    let sent = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        onSent(sent, size);
        controller.enqueue(chunk);
      },
    });
    const res = await this.fetch('POST', path, {
      body: (Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>).pipeThrough(counter),
      type: 'application/octet-stream',
      headers: { 'LILT-API': JSON.stringify(params), 'Content-Length': String(size) },
    });
    return (await res.json()) as T;
  }

  async fetch(
    method: string,
    path: string,
    options: { body?: RequestInit['body']; type?: string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(this.base + path, {
        method,
        headers: {
          authorization: this.auth,
          ...(options.type ? { 'content-type': options.type } : {}),
          ...options.headers,
        },
        body: options.body,
        ...(options.body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (err) {
      throw new Error(
        `cannot reach ${this.base}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`,
      );
    }
    if (!res.ok) {
      const text = await res.text();
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {}
      throw new Error(`${method} ${path.split('?')[0]} answered ${res.status}: ${message}`);
    }
    return res;
  }
}
