// Runs every test file (src/**/*.test.ts, test/**/*.test.ts, web/src/**/*.test.ts) with node's test runner.
// Node 20's --test takes no globs, so the files are listed here; arguments narrow the set by substring.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// The longest files, longest first (seconds each in a full run on a busy 2-core machine, Nov 2026).
// scripts/run-test-files.mjs starts files in the order given, two at a time: started last, two of these would
// run on alone after the rest had finished and leave a core idle for minutes. A file missing here only runs
// later; a name no longer found is ignored. Re-measure with the spec reporter's durations when the order drifts.
const SLOW_FIRST = [
  'test/crash-recovery.test.ts', // 235
  'test/faults.test.ts', // 150
  'test/server-process.test.ts', // 127
  'test/parameter-fuzz.test.ts', // 116
  'test/editing.test.ts', // 113
  'test/path-fuzz.test.ts', // 86
  'test/cli-build.test.ts', // 79
  'test/documents.test.ts', // 78
  'test/deliverable-formats.test.ts', // 74
  'test/memories.test.ts', // 74
  'test/find-replace-limits.test.ts', // 68
  'src/matching/memory-index.test.ts', // 56
  'test/e2e/deliverable.e2e.test.ts', // 56
  'test/e2e/editor-position.e2e.test.ts', // 55
  'test/translate-files.test.ts', // 55
  'test/roles.test.ts', // 53
  'test/placeholders.test.ts', // 50
  'test/e2e/team-review.e2e.test.ts', // 48
  'test/segmentation.test.ts', // 48
  'test/memory-bounds.test.ts', // 45
];

const filters = process.argv.slice(2);
const found = ['src', 'test', 'web/src']
  .flatMap((dir) => readdirSync(dir, { recursive: true }).map((f) => join(dir, String(f))))
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
const slow = SLOW_FIRST.filter((f) => found.includes(f));
const files = [...slow, ...found.filter((f) => !slow.includes(f))];

const runner = join(import.meta.dirname, 'run-test-files.mjs');
const child = spawn(process.execPath, ['--import', 'tsx', runner, ...files], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
