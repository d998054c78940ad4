// Runs memory-file-worker.ts on a memory file's byte stream (TMX, XLIFF, TSV or CSV): units arrive in batches,
// hashed, while this thread stores them.
import { errorFromThread } from '../../errors.ts';
import type { TmxReadStats } from '../../formats/tmx/tmx-reader.ts';
import { startThread } from '../../tasks/threads.ts';
import type { ImportedUnit } from './entry-identity.ts';

/** The memory file formats by name, the compressed forms included (the readers gunzip what is gzipped). */
export const MEMORY_FILE_TYPES = {
  '.tmx': 'tmx',
  '.tmx.gz': 'tmx',
  '.xlf': 'xliff',
  '.xliff': 'xliff',
  '.tsv': 'tsv',
  '.tsv.gz': 'tsv',
  '.csv': 'csv',
  '.csv.gz': 'csv',
} as const;

export type MemoryFileFormat = (typeof MEMORY_FILE_TYPES)[keyof typeof MEMORY_FILE_TYPES];

/** The format of a memory file by its name, or undefined when it is not one. */
export function memoryFileFormat(name: string): MemoryFileFormat | undefined {
  const lower = name.toLowerCase();
  const ext = (Object.keys(MEMORY_FILE_TYPES) as (keyof typeof MEMORY_FILE_TYPES)[]).find((e) =>
    lower.endsWith(e),
  );
  return ext && MEMORY_FILE_TYPES[ext];
}

type WorkerMessage =
  | { type: 'more' }
  | { type: 'units'; rows: ImportedUnit[] }
  | { type: 'done'; stats: TmxReadStats }
  | { type: 'error'; name: string; message: string };

/**
 * Parses a memory file in a worker thread. `onBatch` runs for each batch in order, one at a time; the worker reads
 * ahead by a few batches only. A file the worker could not read rejects with a FormatError carrying its message.
 */
export function parseMemoryFileInThread(
  input: AsyncIterable<Buffer>,
  file: { srclang: string; trglang: string; format: MemoryFileFormat; maxDecompressedBytes: number },
  onBatch: (rows: ImportedUnit[]) => Promise<void>,
): Promise<TmxReadStats> {
  const worker = startThread(new URL('./memory-file-worker.ts', import.meta.url), file);
  const chunks = input[Symbol.asyncIterator]();
  return new Promise<TmxReadStats>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(err);
    };
    // Two queues of work, each handled in arrival order: the worker's requests for the file's next chunk,
    // and its batches (then its end). Apart, so that a chunk is sent while batches are still being stored:
    // in one queue the parser waited for every batch before it to be stored, then the store for the parser,
    // and at ten million units each thread stood idle 37-48 % of the import.
    let reads = Promise.resolve();
    let batches = Promise.resolve();
    const read = (work: () => Promise<void>) => {
      reads = reads.then(work).catch(fail);
    };
    const store = (work: () => Promise<void> | void) => {
      batches = batches.then(work).catch(fail);
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'more') {
        read(async () => {
          const next = await chunks.next();
          if (!settled) worker.postMessage(next.done ? { type: 'end' } : { type: 'chunk', data: next.value });
        });
      } else if (message.type === 'units') {
        store(async () => {
          await onBatch(message.rows);
          worker.postMessage({ type: 'ack' });
        });
      } else if (message.type === 'done') {
        store(() => {
          settled = true;
          void worker.terminate();
          resolve(message.stats);
        });
      } else {
        const err = errorFromThread(message);
        store(() => fail(err));
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!settled) fail(new Error(`memory file parser thread exited with code ${code}`));
    });
  });
}
