#!/usr/bin/env node
// The installed `tessera` command: runs the JavaScript that `npm install` compiled into dist/.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  // A clone installed with --ignore-scripts, or dist/ deleted: the build is one command away.
  process.stderr.write(
    'tessera: not built yet: run `npm install` (or `npm run build`) in the Tessera folder\n',
  );
  process.exit(1);
}
await import(main.href);
