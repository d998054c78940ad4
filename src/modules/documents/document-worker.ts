// Worker thread: a document through its format filter, off the server's thread — extract (bytes → units →
// sentence segments, sent back in batches), merge (bytes + translations → the translated file) or
// mismatches (bytes + translations → the units whose placeholders would not run).
import { parentPort, workerData } from 'node:worker_threads';
import type { UnitTranslation } from '../../formats/filter.ts';
import { filterByFormat } from '../../formats/registry.ts';
import type { ThreadRequest } from './document-thread.ts';
import { planSegments, wordsOf } from './segment-plan.ts';

// Small batches: each is cloned into the server's thread in one go.
const BATCH = 1000;
const port = parentPort!;
const request = workerData as ThreadRequest;

async function run() {
  // Loaded: a deadline counts from here (the time the rules run, not the time the code takes to load).
  port.postMessage({ type: 'started' });
  const filter = filterByFormat(request.format);
  if (!filter) throw new Error(`No filter for format ${request.format}`);
  const original = Buffer.from(request.original);
  const options = { srclang: request.srclang, trglang: request.trglang };
  if (request.op === 'extract') {
    const units = await filter.extract(original, options);
    const planned = planSegments(units, request.srclang, request.plan);
    // One batch at a time, each after the server's thread took the last: a burst of messages would be
    // taken in one turn of its event loop.
    for (let i = 0; i < planned.length; i += BATCH) {
      const taken = new Promise((resolve) => port.once('message', resolve));
      port.postMessage({ type: 'segments', rows: planned.slice(i, i + BATCH) });
      await taken;
    }
    port.postMessage({ type: 'extracted', units: units.length, words: wordsOf(planned) });
    return;
  }
  // The translations arrive in batches (one large message would hold the server's thread while cloned).
  const translations: (UnitTranslation | null)[] = [];
  await new Promise<void>((resolve) => {
    port.on(
      'message',
      (message: { type: 'translations'; rows: (UnitTranslation | null)[] } | { type: 'end' }) => {
        if (message.type === 'translations') translations.push(...message.rows);
        else resolve();
      },
    );
  });
  if (request.op === 'mismatches') {
    port.postMessage({
      type: 'mismatches',
      found: await filter.placeholders!.mismatches(original, translations, options),
    });
    return;
  }
  const merged = await filter.merge(original, translations, options);
  const bytes = merged.buffer.slice(merged.byteOffset, merged.byteOffset + merged.byteLength) as ArrayBuffer;
  port.postMessage({ type: 'merged', bytes }, [bytes]);
}

run().catch((err: Error) => port.postMessage({ type: 'error', name: err.name, message: err.message }));
