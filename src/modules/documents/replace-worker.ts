// Worker thread of the replace pool (replace-pool.ts): regular-expression replaces, a slice of a document's
// texts at a time, off the server's thread, so that an expression that backtracks without end is stopped by
// its deadline (the pool ends this thread) instead of holding every request.
import { parentPort } from 'node:worker_threads';
import { compileReplacer, type ReplaceSpec } from './find-replace.ts';

export interface ReplaceSlice {
  id: number;
  spec: ReplaceSpec;
  texts: string[];
  maxLength: number;
}

export type ReplaceSliceAnswer = { id: number; afters: (string | null)[] } | { id: number; error: string };

// One compiled expression kept: the slices of one request come one after the other.
let compiled: { key: string; replace: (tagged: string) => string | null } | null = null;

parentPort!.on('message', (slice: ReplaceSlice) => {
  try {
    const key = JSON.stringify([slice.spec, slice.maxLength]);
    if (compiled?.key !== key) compiled = { key, replace: compileReplacer(slice.spec, slice.maxLength) };
    const replace = compiled.replace;
    parentPort!.postMessage({ id: slice.id, afters: slice.texts.map(replace) } satisfies ReplaceSliceAnswer);
  } catch (err) {
    parentPort!.postMessage({ id: slice.id, error: (err as Error).message } satisfies ReplaceSliceAnswer);
  }
});
parentPort!.postMessage('ready');
