// Runs every test file (src/**/*.test.ts, test/**/*.test.ts, web/src/**/*.test.ts) with node's test runner.
// Node 20's --test takes no globs, so the files are listed here; arguments narrow the set by substring.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const filters = process.argv.slice(2);
const files = ['src', 'test', 'web/src']
  .flatMap((dir) => readdirSync(dir, { recursive: true }).map((f) => join(dir, String(f))))
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();

const args = [
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${process.env.TESSERA_TEST_CONCURRENCY ?? 2}`,
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/summary-reporter.mjs',
  '--test-reporter-destination=stdout',
  ...files,
];
const child = spawn(process.execPath, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
