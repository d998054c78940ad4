// Runs tmx-parse-worker.ts on a byte stream: units arrive in batches, hashed, while this thread stores them.
import { FormatError } from '../../errors.ts';
import type { TmxReadStats } from '../../formats/tmx/tmx-reader.ts';
import { startThread } from '../../tasks/threads.ts';

export type StagedUnit = [source: string, target: string, pairHash: string];

type WorkerMessage =
  | { type: 'more' }
  | { type: 'units'; rows: StagedUnit[] }
  | { type: 'done'; stats: TmxReadStats }
  | { type: 'error'; name: string; message: string };

/**
 * Parses TMX in a worker thread. `onBatch` runs for each batch in order, one at a time; the worker reads
 * ahead by a few batches only. A file the worker could not read rejects with a FormatError carrying its message.
 */
export function parseTmxInThread(
  input: AsyncIterable<Buffer>,
  languages: { srclang: string; trglang: string },
  onBatch: (rows: StagedUnit[]) => Promise<void>,
): Promise<TmxReadStats> {
  const worker = startThread(new URL('./tmx-parse-worker.ts', import.meta.url), languages);
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
        // Errors cross the thread boundary as plain data: rebuild the kind callers recognise by type.
        const readable = message.name === 'FormatError' || message.name === 'XmlError';
        const err = readable ? new FormatError(message.message) : new Error(message.message);
        then(() => fail(err));
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!settled) fail(new Error(`TMX parser thread exited with code ${code}`));
    });
  });
}
