// Debian's Chromium driven by playwright-core for the browser tests and the bench: headless, a fresh profile,
// no background networking; every request a page makes, every CSP violation and page error is recorded.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = resolve(import.meta.dirname, '..', '..', '.tmp', 'screenshots');

/** Why a browser test cannot run: only when Chromium is missing outside CI (in CI a missing Chromium fails). */
export const browserSkipReason =
  existsSync(CHROMIUM) || process.env.CI === 'true'
    ? undefined
    : `Chromium not installed at ${CHROMIUM} (apt-get install chromium): browser tests SKIPPED`;

// Without the networking flags Chromium calls its own services at start, which this machine's network refuses.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface Browsing {
  context: BrowserContext;
  page: Page;
  /** Requests to anywhere but `origin`. */
  foreignRequests: string[];
  /** Content-Security-Policy violations, page errors and console errors. */
  problems: string[];
  close(): Promise<void>;
}

/** A browser on a fresh profile whose pages are watched; `origin` is the only server they may talk to. */
export async function openBrowser(
  origin: string,
  options: { width?: number; height?: number } = {},
): Promise<Browsing> {
  const profile = mkdtempSync(join(tmpdir(), 'tessera-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    acceptDownloads: true,
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
  });
  const foreignRequests: string[] = [];
  const problems: string[] = [];
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin)
      foreignRequests.push(url);
  });
  // Chromium reports a violation on the console too; the event names the directive and the blocked source.
  await context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => {
      console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber);
    });`,
  });
  const watch = (page: Page) => {
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      // A refused request (401 before signing in, 409 while busy) is logged by Chromium too: the app shows those.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
        problems.push(`console: ${msg.text()}`);
    });
  };
  context.on('page', watch);
  const page = context.pages()[0] ?? (await context.newPage());
  watch(page);
  return {
    context,
    page,
    foreignRequests,
    problems,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Keeps a screenshot of the page under .tmp/screenshots/ (gitignored); answers its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

let axeSource: string | undefined;

/**
 * Runs axe-core in the page (injected through the DevTools protocol, which the page's Content-Security-Policy
 * does not govern) and answers its serious and critical violations, one line each: rule, impact, the first
 * elements concerned. `@axe-core/playwright` needs Node 22; plain axe-core does not.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  const violations = await page.evaluate<
    { id: string; impact: string; help: string; nodes: { target: string[] }[] }[]
  >("axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)");
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

/** Runs one step of a browser test; when it fails, keeps a screenshot of the page and names it in the error. */
export async function step(page: Page, name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    const shot = await screenshot(page, `failure-${name}`).catch(() => 'none');
    (err as Error).message += `\n(screenshot: ${shot})`;
    throw err;
  }
}

/** Opens `url` (which the app answers with its sign-in form) and signs in; the caller waits for what follows. */
export async function signInAt(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
