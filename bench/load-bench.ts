// A bounded load run: 32 connections for 30 s on loopback, memory queries mixed with segment confirmations
// (each a write into the memory), against the bench memory. Reports throughput, latency percentiles, errors
// and the server's RSS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { LabelledQuery } from './corpus.ts';
import { type Api, withServer } from './http-bench.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LoadOptions {
  dataDir: string;
  workDir: string;
  memoryId: number;
  apiKey: string;
  queries: LabelledQuery[];
  connections?: number;
  seconds?: number;
  log?: (line: string) => void;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  requests_per_s: number;
  confirmations: number;
  errors: number;
  non_2xx: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  rss_before_mb: number;
  rss_after_mb: number;
}

/** A document of `n` segments to confirm, on a project of the memory; answers the segment ids. */
async function segmentsToConfirm(api: Api, opts: LoadOptions, n: number): Promise<number[]> {
  const project = await api.json<{ id: number }>('POST', '/v2/projects', {
    name: 'Load',
    memory_id: opts.memoryId,
  });
  const file = join(opts.workDir, 'load.txt');
  writeFileSync(
    file,
    `${Array.from({ length: n }, (_, i) => `Load test sentence number ${i} to confirm.`).join('\n\n')}\n`,
  );
  const { id } = await api.upload<{ id: number }>('/v2/documents/files', file, {
    name: 'load.txt',
    project_id: project.id,
  });
  for (;;) {
    const doc = await api.json<{ import_in_progress: boolean; segments?: { id: number }[] }>(
      'GET',
      `/v2/documents?id=${id}&with_segments=true`,
    );
    if (!doc.import_in_progress) return (doc.segments ?? []).map((s) => s.id);
    await sleep(50);
  }
}

export async function runLoadBench(opts: LoadOptions): Promise<LoadResult> {
  const log = opts.log ?? (() => {});
  const connections = opts.connections ?? 32;
  const seconds = opts.seconds ?? 30;
  return withServer({ dataDir: opts.dataDir, apiKey: opts.apiKey }, async (server, api) => {
    const base = await server.listening();
    for (;;) {
      if ((await fetch(`${base}/readyz`)).status === 200) break;
      await sleep(100);
    }
    const ids = await segmentsToConfirm(api, opts, 5000);
    const queries = opts.queries.map((q) => q.query).filter((q) => q.trim() !== '');
    const rssBefore = server.memory().rssMb;
    log(
      `load: ${connections} connections for ${seconds} s, queries with a confirmation in every five requests`,
    );
    let next = 0;
    let confirmations = 0;
    const auth = { authorization: `Bearer ${opts.apiKey}` };
    const result = await autocannon({
      url: base,
      connections,
      duration: seconds,
      requests: [
        {
          // A whole new request each time: autocannon keeps the headers of the request it is handed, and a
          // GET inheriting a PUT's Content-Length would be malformed.
          setupRequest: () => {
            const n = next++;
            if (n % 5 === 4) {
              confirmations++;
              return {
                method: 'PUT',
                path: '/v2/segments',
                headers: { ...auth, 'content-type': 'application/json' },
                body: JSON.stringify({
                  id: ids[n % ids.length],
                  target: `Lasttest-Satz ${n}.`,
                  is_confirmed: true,
                }),
              };
            }
            return {
              method: 'GET',
              path: `/v2/memories/query?id=${opts.memoryId}&n=10&query=${encodeURIComponent(queries[n % queries.length])}`,
              headers: auth,
            };
          },
        },
      ],
    });
    const rssAfter = server.memory().rssMb;
    return {
      connections,
      seconds,
      requests: result.requests.total,
      requests_per_s: result.requests.average,
      confirmations,
      errors: result.errors + result.timeouts,
      non_2xx: result.non2xx,
      latency_p50_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
      latency_max_ms: result.latency.max,
      rss_before_mb: rssBefore,
      rss_after_mb: rssAfter,
    };
  });
}
