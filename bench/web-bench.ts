// The web application in headless Chromium against the compiled server and the bench's 1M-entry memory: the
// editor's first paint of a 20,000-segment document, Alt+↓ to its matches painted (from the prefetch cache and
// uncached), rows in the DOM, and the JavaScript the editor route loads, gzipped. Figures come from the app's own
// performance marks (tessera:segments-painted, tessera:segment-move, tessera:matches-painted).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { browserSkipReason, openBrowser } from '../test/helpers/browser.ts';
import { ensureWebBuild, WEB_DIST } from '../test/helpers/web-build.ts';
import { buildDocument } from './document-bench.ts';
import { withServer } from './http-bench.ts';
import { percentiles } from './table.ts';

export interface WebBenchOptions {
  /** The data directory holding the imported bench memory. */
  dataDir: string;
  workDir: string;
  memoryId: number;
  apiKey: string;
  segments: number;
  seed: number;
  log?: (line: string) => void;
}

export interface LatencyFigures {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export interface WebBenchResult {
  document_segments: number;
  /** Navigation start to the first rows of segments painted, per load; the median reported. */
  first_paint_ms: number[];
  first_paint_median_ms: number;
  rows_in_dom: number;
  matches_cached: LatencyFigures;
  matches_uncached: LatencyFigures;
  editor_js_gzip_kb: number;
  editor_js_files: string[];
}

const MOVES_CACHED = 40;
const MOVES_UNCACHED = 12;

interface Mark {
  name: string;
  startTime: number;
  detail: { segment?: number; cached?: boolean } | null;
}

const marks = (page: Page, name: string) =>
  page.evaluate(
    (n) =>
      performance.getEntriesByName(n).map((e) => ({
        name: e.name,
        startTime: e.startTime,
        detail: (e as { detail?: unknown }).detail,
      })),
    name,
  ) as Promise<Mark[]>;

/** Waits for the matches of segment `n` to be painted; answers that mark. */
async function matchesPainted(page: Page, n: number): Promise<Mark> {
  await page.waitForFunction(
    (segment) =>
      performance
        .getEntriesByName('tessera:matches-painted')
        .some((e) => (e as { detail?: { segment?: number } }).detail?.segment === segment),
    n,
    { timeout: 30_000 },
  );
  return (await marks(page, 'tessera:matches-painted')).findLast((m) => m.detail?.segment === n)!;
}

const lastMove = async (page: Page) => (await marks(page, 'tessera:segment-move')).at(-1)!;

function figures(values: number[]): LatencyFigures {
  const p = percentiles(values);
  return { n: values.length, p50: p.p50, p95: p.p95, max: Math.max(...values) };
}

export async function runWebBench(opts: WebBenchOptions): Promise<WebBenchResult | { skipped: string }> {
  const log = opts.log ?? (() => {});
  if (browserSkipReason) return { skipped: browserSkipReason };
  await ensureWebBuild();
  const doc = buildDocument(opts.segments, opts.seed);
  const docFile = join(opts.workDir, 'web-doc.txt');
  writeFileSync(docFile, doc.text);

  return withServer({ dataDir: opts.dataDir, apiKey: opts.apiKey }, async (server, api) => {
    const base = await server.listening();
    const project = await api.json<{ id: number }>('POST', '/v2/projects', {
      name: 'web bench',
      memory_id: opts.memoryId,
    });
    const uploaded = await api.upload<{ id: number }>('/v2/documents/files', docFile, {
      name: 'web-bench.txt',
      project_id: project.id,
    });
    for (;;) {
      const d = await api.json<{ import_in_progress: boolean; num_segments: number }>(
        'GET',
        `/v2/documents?id=${uploaded.id}`,
      );
      if (!d.import_in_progress) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    log(`web: a ${doc.segments}-segment document; opening the editor in Chromium`);

    const browsing = await openBrowser(base);
    try {
      const { page, context } = browsing;
      const signIn = await context.request.post(`${base}/v2/session`, { data: { key: opts.apiKey } });
      if (!signIn.ok()) throw new Error(`sign-in answered ${signIn.status()}`);
      const editorUrl = `${base}/documents/${uploaded.id}`;

      // First paint: three loads, the first one also filling the server's page cache.
      const firstPaint: number[] = [];
      for (let i = 0; i < 3; i++) {
        await page.goto(editorUrl);
        await page.waitForFunction(() => performance.getEntriesByName('tessera:segments-painted').length > 0);
        firstPaint.push((await marks(page, 'tessera:segments-painted'))[0].startTime);
      }
      const rows = await page.getByRole('row').count();
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name).pathname)
          .filter((p) => p.endsWith('.js')),
      );
      const jsGzip = scripts.reduce(
        (sum, path) => sum + gzipSync(readFileSync(join(WEB_DIST, path))).length,
        0,
      );

      // Alt+↓ with the prefetch done: each move paints from the cache.
      await matchesPainted(page, 1);
      const cached: number[] = [];
      for (let n = 2; n <= MOVES_CACHED + 1; n++) {
        await page.waitForLoadState('networkidle');
        await page.keyboard.press('Alt+ArrowDown');
        const painted = await matchesPainted(page, n);
        if (painted.detail?.cached) cached.push(painted.startTime - (await lastMove(page)).startTime);
      }
      log(`web: ${cached.length} cached moves`);

      // Uncached: jump far (Alt+G), hold back the prefetch of the next segment (answered 429 once), then Alt+↓;
      // a move whose matches were fetched again meanwhile counts as cached and is left out.
      let blocked: string | null = null;
      let sawBlocked: () => void = () => {};
      await page.route('**/v2/memories/query?**', async (route) => {
        const query = new URL(route.request().url()).searchParams.get('query');
        if (blocked !== null && query === blocked) {
          // Held once: whatever asks for it next (the move itself) goes through.
          blocked = null;
          sawBlocked();
          await route.fulfill({
            status: 429,
            contentType: 'application/json',
            body: '{"message":"held by the bench","code":"BENCH"}',
          });
        } else await route.continue();
      });
      const uncached: number[] = [];
      for (let k = 0; k < MOVES_UNCACHED; k++) {
        const at = 1000 + Math.floor(((doc.segments - 2000) * k) / MOVES_UNCACHED);
        const next = await api.json<{ segments: { source: string }[] }>(
          'GET',
          `/v2/documents/segments?id=${uploaded.id}&offset=${at}&limit=1`,
        );
        blocked = next.segments[0].source;
        const prefetchHeld = new Promise<void>((resolve) => {
          sawBlocked = resolve;
        });
        await page.keyboard.press('Alt+G');
        await page
          .getByRole('dialog', { name: 'Go to segment' })
          .getByLabel('Segment number')
          .fill(String(at));
        await page.keyboard.press('Enter');
        await matchesPainted(page, at);
        await prefetchHeld;
        // The held answer must have reached the page, or the move would wait on that same request.
        await page.waitForLoadState('networkidle');
        await page.keyboard.press('Alt+ArrowDown');
        const painted = await matchesPainted(page, at + 1);
        if (painted.detail?.cached === false)
          uncached.push(painted.startTime - (await lastMove(page)).startTime);
      }
      await page.unroute('**/v2/memories/query?**');
      if (browsing.problems.length > 0) log(`web: the page reported ${browsing.problems.join('; ')}`);

      const sorted = [...firstPaint].sort((a, b) => a - b);
      return {
        document_segments: doc.segments,
        first_paint_ms: firstPaint,
        first_paint_median_ms: sorted[1],
        rows_in_dom: rows,
        matches_cached: figures(cached),
        matches_uncached: figures(uncached),
        editor_js_gzip_kb: jsGzip / 1024,
        editor_js_files: scripts,
      };
    } finally {
      await browsing.close();
    }
  });
}
