// Worker thread: a regular-expression replace over a document's texts, off the server's thread, so that an
// expression that backtracks without end is stopped by its deadline instead of holding every request.
import { parentPort, workerData } from 'node:worker_threads';
import { compileReplacer, type ReplaceSpec } from './find-replace.ts';

const { spec, texts } = workerData as { spec: ReplaceSpec; texts: string[] };
const replace = compileReplacer(spec);
parentPort!.postMessage(texts.map(replace));
