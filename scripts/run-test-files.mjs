// Runs the test files named on the command line, in the order given, through node:test's run() (started by
// scripts/test.mjs with --import tsx, which run() passes on to each file's process). `node --test` would sort
// the files by name; run() keeps the order, so the longest files can be started first.
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import summaryReporter from './summary-reporter.mjs';

// A file that has not ended after this long fails (its process is killed) rather than holding one of the two
// test slots until CI's own limit: the longest file takes about 4 minutes on a busy machine.
const FILE_TIMEOUT_MS = 12 * 60_000;

const stream = run({
  files: process.argv.slice(2),
  concurrency: Number(process.env.TESSERA_TEST_CONCURRENCY ?? 2),
  timeout: FILE_TIMEOUT_MS,
});
stream.on('test:fail', () => {
  process.exitCode = 1;
});
// Two reporters read the same events: the spec reporter's lines, then — once they are all written — the
// summary line CI reads, which must be the last line of the output.
const toSpec = stream.pipe(new PassThrough({ objectMode: true }));
const toSummary = stream.pipe(new PassThrough({ objectMode: true }));
const specLines = toSpec.compose(spec());
specLines.pipe(process.stdout, { end: false });
let summary = '';
for await (const chunk of toSummary.compose(summaryReporter)) summary += chunk;
await finished(specLines);
process.stdout.write(summary);
