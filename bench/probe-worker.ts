// Worker thread of the responsiveness bench: probes /healthz every 20 ms and sends memory queries back to
// back, on connections of its own, until told to stop; its own event loop keeps the bench thread's work
// (uploads, downloads) out of the latencies it measures.
import { Agent, request as httpRequest } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

interface ProbeData {
  base: string;
  apiKey: string;
  memoryId: number;
  queries: string[];
}

const { base, apiKey, memoryId, queries } = workerData as ProbeData;
const url = new URL(base);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let done = false;
parentPort!.on('message', () => {
  done = true;
});

function timedGet(agent: Agent, path: string, key?: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        agent,
        headers: key ? { authorization: `Bearer ${key}` } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const queryAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const health: number[] = [];
const query: number[] = [];
await Promise.all([
  (async () => {
    while (!done) {
      health.push(await timedGet(healthAgent, '/healthz'));
      await sleep(20);
    }
  })(),
  (async () => {
    for (let i = 0; !done; i++) {
      const path = `/v2/memories/query?id=${memoryId}&n=10&query=${encodeURIComponent(queries[i % queries.length])}`;
      query.push(await timedGet(queryAgent, path, apiKey));
      await sleep(5);
    }
  })(),
]);
healthAgent.destroy();
queryAgent.destroy();
parentPort!.postMessage({ health, query });
