// Compiles src/ into dist/ (or the folder given) with tsc, then copies the files the runtime reads beside its
// own code (the SQL migrations); building the installation's own dist/, it also builds the web application into
// web/dist with Vite. Runs at `npm install` and `npm ci` as the `prepare` script; `npm run build`.
// tsconfig.build.json only transpiles (noCheck), as tsx does for the tests: types are checked by
// `npm run typecheck` (and CI), so a type error fails that check, not an install.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const out = resolve(ROOT, process.argv[2] ?? 'dist');

// The output folder is emptied first: refuse one that holds the sources.
if ((ROOT + sep).startsWith(out + sep) || (out + sep).startsWith(SRC + sep)) {
  process.stderr.write(`build: refusing to empty ${out}\n`);
  process.exit(1);
}
// Emptied, so that a module deleted from src/ leaves no stale copy behind.
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const args = [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out];
const compiled = spawnSync(process.execPath, args, { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

// Every file of src/ that is neither TypeScript nor a test fixture is read at run time relative to the module
// beside it (src/store/migrate.ts reads migrations/<dialect>/*.sql): it goes into the output as it is.
const assets = readdirSync(SRC, { recursive: true, withFileTypes: true }).filter(
  (entry) =>
    entry.isFile() &&
    !entry.name.endsWith('.ts') &&
    !relative(SRC, entry.parentPath).split(sep).includes('fixtures'),
);
for (const entry of assets) {
  const from = join(entry.parentPath, entry.name);
  cpSync(from, join(out, relative(SRC, from)));
}
process.stdout.write(`Built ${relative(ROOT, out)}/ (${assets.length} files copied beside the code)\n`);

// A build into another folder (the bench's, a test's) is the server's only: web/dist is the installation's, and
// rebuilding it would change the files a running server or test is serving.
if (out === join(ROOT, 'dist')) {
  const { build } = await import('vite');
  const started = performance.now();
  await build({ configFile: join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`Built web/dist/ (the web application, ${seconds} s)\n`);
}
