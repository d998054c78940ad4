// The query bench's HTTP clients, in a process of their own (started by http-bench.ts): the bench process holds
// the corpus, and its garbage collections would otherwise be counted as the server's latency. Reads one job
// (JSON) on stdin, writes the times (JSON) on stdout.
import { Agent, request } from 'node:http';

export interface ClientJob {
  url: string;
  key: string;
  /** Concurrent keep-alive clients: each sends its next request when its last one is answered (closed loop). */
  clients: number;
  /** Paths sent first, by the same clients, untimed: they open the connections and warm the server up. */
  warmup: string[];
  /** Paths timed, in this order, taken by whichever client is free next. */
  timed: string[];
}

export interface ClientResult {
  /** Milliseconds from the request written to the answer's last byte, per timed path; null for a failure. */
  ms: (number | null)[];
  /** The first failures (status and body, or the socket error). */
  errors: string[];
  /** From the first timed request sent to the last answer. */
  wall_ms: number;
}

function get(agent: Agent, url: URL, key: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'GET',
        headers: { authorization: `Bearer ${key}` },
        agent,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Sends `paths` from `clients` concurrent loops; `onAnswer` sees each one's index and time. */
async function drive(
  job: ClientJob,
  agent: Agent,
  paths: string[],
  onAnswer: (i: number, ms: number | null, error?: string) => void,
): Promise<void> {
  const url = new URL(job.url);
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < paths.length; i = next++) {
      const started = performance.now();
      try {
        const res = await get(agent, url, job.key, paths[i]);
        const ms = performance.now() - started;
        if (res.status === 200) onAnswer(i, ms);
        else onAnswer(i, null, `${res.status}: ${res.body.slice(0, 200)}`);
      } catch (err) {
        onAnswer(i, null, (err as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: job.clients }, loop));
}

async function run(job: ClientJob): Promise<ClientResult> {
  // One socket per client, kept open: the figures are the server's answers, not TCP handshakes.
  const agent = new Agent({ keepAlive: true, maxSockets: job.clients });
  const errors: string[] = [];
  const note = (error?: string) => {
    if (error && errors.length < 10) errors.push(error);
  };
  await drive(job, agent, job.warmup, (_i, _ms, error) => note(error));
  const ms: (number | null)[] = new Array(job.timed.length).fill(null);
  const started = performance.now();
  await drive(job, agent, job.timed, (i, time, error) => {
    ms[i] = time;
    note(error);
  });
  const wall = performance.now() - started;
  agent.destroy();
  return { ms, errors, wall_ms: wall };
}

if (import.meta.filename === process.argv[1]) {
  let input = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) input += chunk;
  const result = await run(JSON.parse(input) as ClientJob);
  process.stdout.write(JSON.stringify(result));
}
