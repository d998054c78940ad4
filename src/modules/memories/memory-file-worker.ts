// Worker thread: parses a memory file's byte stream (TMX, XLIFF, TSV or CSV) and makes its units entries (edge
// whitespace trimmed, hashed with their context), so that parsing overlaps the store's writes.
// The parent sends the file chunk by chunk on request and acknowledges unit batches (bounded memory both ways).
import { parentPort, workerData } from 'node:worker_threads';
import { readTmx } from '../../formats/tmx/tmx-reader.ts';
import { readCsvPairs } from '../../formats/tsv/csv-pairs.ts';
import { readTsvPairs } from '../../formats/tsv/tsv-pairs.ts';
import { readXliffPairs } from '../../formats/xliff/xliff-pairs.ts';
import { type ImportedUnit, importedUnit } from './entry-identity.ts';

const BATCH = 2000;
/** Unit batches sent but not yet stored by the parent; parsing waits past this. */
const MAX_UNACKED = 4;
/** Chunks of the file asked for ahead of the parser, so that it never waits for the next one. */
const READ_AHEAD = 2;

const port = parentPort!;
const { srclang, trglang, format, maxDecompressedBytes } = workerData as {
  srclang: string;
  trglang: string;
  format: 'tmx' | 'xliff' | 'tsv' | 'csv';
  maxDecompressedBytes: number;
};
const READERS = { tmx: readTmx, xliff: readXliffPairs, tsv: readTsvPairs, csv: readCsvPairs };
const chunks: (Buffer | null)[] = [];
let chunkArrived: (() => void) | undefined;
/** Chunks asked for and not yet arrived. */
let requested = 0;
let ended = false;
let acked = 0;
let ackArrived: (() => void) | undefined;

port.on('message', (message: { type: 'chunk'; data: Uint8Array } | { type: 'end' } | { type: 'ack' }) => {
  if (message.type === 'ack') {
    acked++;
    ackArrived?.();
    return;
  }
  requested--;
  if (message.type === 'chunk') chunks.push(Buffer.from(message.data));
  else if (!ended) {
    // The parent answers every request past the end with an end: the first one ends the input.
    ended = true;
    chunks.push(null);
  }
  chunkArrived?.();
});

async function* input(): AsyncGenerator<Buffer> {
  for (;;) {
    while (!ended && requested + chunks.length < READ_AHEAD) {
      port.postMessage({ type: 'more' });
      requested++;
    }
    if (chunks.length === 0) {
      await new Promise<void>((resolve) => {
        chunkArrived = resolve;
      });
      continue;
    }
    const chunk = chunks.shift()!;
    if (chunk === null) return;
    yield chunk;
  }
}

async function run() {
  const reader = READERS[format](input(), { srclang, trglang, maxDecompressedBytes });
  let rows: ImportedUnit[] = [];
  // Units that are empty without their edge whitespace: skipped, as the readers skip empty ones.
  let blank = 0;
  let sent = 0;
  const send = async () => {
    port.postMessage({ type: 'units', rows });
    rows = [];
    sent++;
    while (sent - acked >= MAX_UNACKED) {
      await new Promise<void>((resolve) => {
        ackArrived = resolve;
      });
    }
  };
  for await (const unit of reader) {
    const row = importedUnit(unit);
    if (row === null) {
      blank++;
      continue;
    }
    rows.push(row);
    if (rows.length >= BATCH) await send();
  }
  if (rows.length > 0) await send();
  const { units, skipped } = reader.stats;
  port.postMessage({
    type: 'done',
    stats: { ...reader.stats, units: units - blank, skipped: skipped + blank, blank },
  });
}

run().catch((err: Error) => port.postMessage({ type: 'error', name: err.name, message: err.message }));
