// The web application's build (web/dist) for tests and the bench: built again when a source it is made of is
// newer, once at a time across the test processes (a lock directory), so that no test serves a half-written one.
import { mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const WEB_DIST = join(ROOT, 'web', 'dist');
const LOCK = join(ROOT, '.tmp', 'web-build.lock');
// What the bundle is made of: the app's sources, its config and page, and the pure modules it imports.
const SOURCES = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'src/text',
  'src/matching',
  'src/xml',
];

function newestSource(): number {
  let newest = 0;
  for (const source of SOURCES) {
    const path = join(ROOT, source);
    const stat = statSync(path);
    if (stat.isFile()) newest = Math.max(newest, stat.mtimeMs);
    else {
      for (const f of readdirSync(path, { recursive: true }))
        newest = Math.max(newest, statSync(join(path, String(f))).mtimeMs);
    }
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(join(WEB_DIST, 'index.html')).mtimeMs;
  } catch {
    return 0;
  }
}

/** Builds web/dist unless it is newer than everything it is built from. */
export async function ensureWebBuild(): Promise<void> {
  if (builtAt() > newestSource()) return;
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another process is building; a lock older than two minutes is one a killed process left.
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > 120_000) rmdirSync(LOCK);
      else if (Date.now() - started > 180_000) throw new Error(`web build lock ${LOCK} held for 3 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    if (builtAt() > newestSource()) return;
    const { build } = await import('vite');
    await build({ configFile: join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    rmdirSync(LOCK);
  }
}
