// Starts worker threads for CPU-heavy work (parsing, merging), so that the server's own thread keeps
// answering requests meanwhile. Works both compiled (dist/*.js) and on the TypeScript sources under tsx.
import { Worker } from 'node:worker_threads';

/** Compiled by `npm install` (dist/*.js), or the TypeScript sources run through tsx (tests, bench). */
const COMPILED = !import.meta.url.endsWith('.ts');

/**
 * A worker running the module at `source` (its `.ts` URL, as `new URL('./x-worker.ts', import.meta.url)`
 * names it from a sibling module; compiled, its `.js` is run instead).
 */
export function startThread(source: URL, workerData: unknown): Worker {
  if (COMPILED) return new Worker(new URL(source.href.replace(/\.ts$/, '.js')), { workerData });
  // Under tsx the worker loads TypeScript too: a worker's own entry is loaded before any --import hook could
  // apply, so a two-line bootstrap registers tsx, then imports the real entry.
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const bootstrap = `import(${tsx}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}
