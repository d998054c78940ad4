// Apertium's HTTP server (apertium-apy) for the machine translation tests: started on a free loopback port
// with the pairs installed in Debian's modes directory, stopped after. Outside CI a machine without it skips
// the live tests with one visible line; in CI (CI=true, where .ci/run installs it) its absence fails.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const MODES = '/usr/share/apertium/modes';

export interface Apertium {
  url: string;
  stop(): Promise<void>;
}

/** Whether apertium-apy and the eng-spa pair are installed (the bench's MT section asks too). */
export function apertiumInstalled(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v apertium-apy'], { stdio: 'ignore' });
    return existsSync(`${MODES}/eng-spa.mode`);
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts apertium-apy, or answers null (after one line saying so) when it is not installed outside CI. */
export async function startApertium(): Promise<Apertium | null> {
  if (!apertiumInstalled()) {
    if (process.env.CI === 'true') {
      throw new Error(
        'apertium-apy with the eng-spa pair is not installed, and CI=true requires the MT tests',
      );
    }
    process.stdout.write(
      '# SKIP live machine translation tests: apertium-apy or apertium-eng-spa is not installed\n',
    );
    return null;
  }
  const port = await freePort();
  const child: ChildProcess = spawn('apertium-apy', ['-p', String(port), MODES], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    try {
      const res = await fetch(`${url}/listPairs`);
      if (res.ok) break;
    } catch {}
    if (child.exitCode !== null) throw new Error(`apertium-apy exited with ${child.exitCode}`);
    if (Date.now() - started > 30_000) throw new Error('apertium-apy did not answer in 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A loopback server that speaks APy's protocol with answers a test chooses: for the failures a real engine
 * cannot be made to give (429, 5xx, refused credentials, an answer that lost a tag).
 */
export interface FakeApy {
  url: string;
  /** The translate requests received, their q. */
  requests: string[];
  /** What the next translate requests answer: a status, or a function of the masked text. */
  answer: { status: number; translate: (q: string) => string; retryAfter?: string };
  close(): Promise<void>;
}

export async function startFakeApy(): Promise<FakeApy> {
  const fake = {
    requests: [] as string[],
    answer: { status: 200, translate: (q: string) => q } as FakeApy['answer'],
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/listPairs') {
      res.end(
        JSON.stringify({
          responseData: [{ sourceLanguage: 'eng', targetLanguage: 'spa' }],
          responseStatus: 200,
        }),
      );
      return;
    }
    if (url.pathname !== '/translate') {
      res.statusCode = 404;
      res.end('{}');
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    fake.requests.push(q);
    const { status, translate, retryAfter } = fake.answer;
    res.statusCode = status;
    if (retryAfter) res.setHeader('retry-after', retryAfter);
    res.end(
      JSON.stringify(
        status === 200
          ? { responseData: { translatedText: translate(q) }, responseStatus: 200 }
          : { status: 'error', code: status, message: 'failure' },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
