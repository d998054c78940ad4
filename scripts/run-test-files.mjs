// Runs the test files named on the command line, in the order given, through node:test's run() (started by
// scripts/test.mjs with --import tsx, which run() passes on to each file's process). `node --test` would sort
// the files by name; run() keeps the order, so the longest files can be started first.
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import summaryReporter from './summary-reporter.mjs';

const stream = run({
  files: process.argv.slice(2),
  concurrency: Number(process.env.TESSERA_TEST_CONCURRENCY ?? 2),
});
stream.on('test:fail', () => {
  process.exitCode = 1;
});
// Two reporters read the same events: the spec reporter's lines, then the summary line CI reads.
const toSpec = stream.pipe(new PassThrough({ objectMode: true }));
const toSummary = stream.pipe(new PassThrough({ objectMode: true }));
toSpec.compose(spec()).pipe(process.stdout);
toSummary.compose(summaryReporter).pipe(process.stdout);
