// Small helpers for integration tests through app.inject.
import assert from 'node:assert/strict';
import type { App } from '../../src/http/types.ts';

export function client(app: App, key: string) {
  const headers = { authorization: `Bearer ${key}` };
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers }),
    delete: (url: string) => app.inject({ method: 'DELETE', url, headers }),
    post: (url: string, payload: unknown) =>
      app.inject({ method: 'POST', url, headers, payload: payload as object }),
    put: (url: string, payload: unknown) =>
      app.inject({ method: 'PUT', url, headers, payload: payload as object }),
    /** Any method, with a payload (an object as JSON, a Buffer as given) and extra headers. */
    inject: (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      payload?: unknown,
      extra: Record<string, string> = {},
    ) => app.inject({ method, url, headers: { ...headers, ...extra }, payload: payload as object }),
    upload: (url: string, body: Buffer | string, extra: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/octet-stream', ...extra },
        payload: body,
      }),
    /** Uploads a document into a project (Lilt's POST /v2/documents/files) and waits for its import; answers its id. */
    async uploadDocument(projectId: number, name: string, body: Buffer | string) {
      const res = await app.inject({
        method: 'POST',
        url: '/v2/documents/files',
        headers: {
          ...headers,
          'content-type': 'application/octet-stream',
          'lilt-api': JSON.stringify({ name, project_id: projectId }),
        },
        payload: body,
      });
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().id as number;
      const started = Date.now();
      for (;;) {
        const doc = (await app.inject({ method: 'GET', url: `/v2/documents?id=${id}`, headers })).json();
        if (!doc.import_in_progress) return id;
        if (Date.now() - started > 120_000) throw new Error(`the import of ${name} never ended`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    /** Polls GET /v2/tasks until the task has ended; answers it. */
    async waitForTask(jobId: number, timeoutMs = 120_000) {
      const started = Date.now();
      for (;;) {
        const res = await app.inject({ method: 'GET', url: `/v2/tasks?id=${jobId}`, headers });
        assert.equal(res.statusCode, 200, res.body);
        const task = res.json();
        if (task.state === 'succeeded' || task.state === 'failed') return task;
        if (Date.now() - started > timeoutMs) throw new Error(`task ${jobId} still ${task.state}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

/** A multipart/form-data body with fields and one file. */
export function multipartBody(fields: Record<string, string>, file: { name: string; data: Buffer }) {
  const boundary = `----tessera${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
