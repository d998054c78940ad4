// Runs tmx-parse-worker.ts on a byte stream: units arrive in batches, hashed, while this thread stores them.
import { Worker } from 'node:worker_threads';
import type { TmxReadStats } from '../../formats/tmx/tmx-reader.ts';

const TSX_API = import.meta.resolve('tsx/esm/api');
const WORKER = new URL('./tmx-parse-worker.ts', import.meta.url).href;

export type StagedUnit = [source: string, target: string, pairHash: string];

type WorkerMessage =
  | { type: 'more' }
  | { type: 'units'; rows: StagedUnit[] }
  | { type: 'done'; stats: TmxReadStats }
  | { type: 'error'; name: string; message: string };

/**
 * Parses TMX in a worker thread. `onBatch` runs for each batch in order, one at a time; the worker reads
 * ahead by a few batches only. Errors keep their name (XmlError, FormatError) and message.
 */
export function parseTmxInThread(
  input: AsyncIterable<Buffer>,
  languages: { srclang: string; trglang: string },
  onBatch: (rows: StagedUnit[]) => Promise<void>,
): Promise<TmxReadStats> {
  // The worker loads TypeScript through tsx, as this process does: a worker's own entry is loaded before
  // any --import hook could apply, so a two-line bootstrap registers tsx, then imports the real entry.
  const bootstrap = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER)}); })`;
  const worker = new Worker(bootstrap, { eval: true, workerData: languages });
  const chunks = input[Symbol.asyncIterator]();
  return new Promise<TmxReadStats>((resolve, reject) => {
    let settled = false;
    let chain = Promise.resolve();
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(err);
    };
    // Every message is handled in arrival order, each after the previous one's work.
    const then = (work: () => Promise<void> | void) => {
      chain = chain.then(work).catch(fail);
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'more') {
        then(async () => {
          const next = await chunks.next();
          worker.postMessage(next.done ? { type: 'end' } : { type: 'chunk', data: next.value });
        });
      } else if (message.type === 'units') {
        then(async () => {
          await onBatch(message.rows);
          worker.postMessage({ type: 'ack' });
        });
      } else if (message.type === 'done') {
        then(() => {
          settled = true;
          void worker.terminate();
          resolve(message.stats);
        });
      } else {
        const err = new Error(message.message);
        err.name = message.name;
        then(() => fail(err));
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!settled) fail(new Error(`TMX parser thread exited with code ${code}`));
    });
  });
}
