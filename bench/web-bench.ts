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
  /** The large document's segments (100,000 by default; 0 leaves that part out). */
  largeSegments?: number;
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
  /** The large document: is it still usable? */
  large: LargeDocumentFigures | null;
}

export interface LargeDocumentFigures {
  segments: number;
  /** Navigation start to the first rows painted. */
  first_paint_ms: number;
  /** Alt+G to the last segment until its editor is on screen. */
  scroll_to_end_ms: number;
  /** "Preview" clicked in Find and replace (a common word, in the sources of all segments) to the count shown. */
  replace_preview_ms: number;
  replace_preview_changes: number;
  /** GET /v2/documents/qa over all segments (the shared QA module on the server). */
  qa_ms: number;
  qa_issues: number;
  /** The QA module the editor runs per keystroke, over every segment (its source against itself), in Node. */
  qa_module_ms: number;
  /** Random `?seg=N` links opened one after another (a page load each): where the active segment stood. */
  deep_links: DeepLinkFigures;
}

export interface DeepLinkFigures {
  n: number;
  /** Links whose segment ended wholly in the list's visible area, and with the focus in its target. */
  in_view: number;
  focused: number;
  /** Of those in view, how many stood between 15 % and 45 % of the visible area (the top third). */
  top_third: number;
  /** The row's top as a fraction of the visible area: lowest and highest seen. */
  top_min: number;
  top_max: number;
  /** Navigation start → focus in the segment's target, placed. */
  ready: LatencyFigures;
  /** Links not placed and focused within 30 s: their numbers and what was seen. */
  failures: string[];
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
        let at = 1000 + Math.floor(((doc.segments - 2000) * k) / MOVES_UNCACHED);
        // Segment `at` and the next one must differ in source (the document repeats sentences): the next
        // one's lookup is held, and `at` would wait on that same held lookup.
        let pair: { segments: { source: string }[] };
        for (;;) {
          pair = await api.json<{ segments: { source: string }[] }>(
            'GET',
            `/v2/documents/segments?id=${uploaded.id}&offset=${at - 1}&limit=2`,
          );
          if (pair.segments[0].source !== pair.segments[1].source) break;
          at++;
        }
        blocked = pair.segments[1].source;
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

      let large: LargeDocumentFigures | null = null;
      const largeSegments = opts.largeSegments ?? 100_000;
      if (largeSegments > 0) large = await measureLarge(page, api, project.id, largeSegments, opts, log);
      if (browsing.problems.length > 0) log(`web: the page reported ${browsing.problems.join('; ')}`);

      const sorted = [...firstPaint].sort((a, b) => a - b);
      return {
        large,
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

type BenchApi = Parameters<Parameters<typeof withServer>[1]>[1];

/** A large document in the editor: first paint, the last segment, a replace preview and QA over all of it. */
export async function measureLarge(
  page: Page,
  api: BenchApi,
  projectId: number,
  segments: number,
  opts: WebBenchOptions,
  log: (line: string) => void,
): Promise<LargeDocumentFigures> {
  const doc = buildDocument(segments, opts.seed + 1);
  const docFile = join(opts.workDir, 'web-large.txt');
  writeFileSync(docFile, doc.text);
  const uploaded = await api.upload<{ id: number }>('/v2/documents/files', docFile, {
    name: 'web-large.txt',
    project_id: projectId,
  });
  let total = 0;
  for (;;) {
    const d = await api.json<{ import_in_progress: boolean; num_segments: number }>(
      'GET',
      `/v2/documents?id=${uploaded.id}`,
    );
    total = d.num_segments;
    if (!d.import_in_progress) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`web: a ${total}-segment document; first paint, the end, replace preview, QA`);

  await page.goto(`${new URL(page.url()).origin}/documents/${uploaded.id}`);
  await page.waitForFunction(
    () => performance.getEntriesByName('tessera:segments-painted').length > 0,
    null,
    {
      timeout: 120_000,
    },
  );
  const firstPaint = (await marks(page, 'tessera:segments-painted'))[0].startTime;

  // The end: Alt+G to the last segment, until its editor is there.
  await page.getByRole('textbox', { name: 'Target 1', exact: true }).waitFor();
  await page.keyboard.press('Alt+G');
  await page.getByRole('dialog', { name: 'Go to segment' }).getByLabel('Segment number').fill(String(total));
  const endStarted = performance.now();
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: `Target ${total}`, exact: true }).waitFor({ timeout: 60_000 });
  const scrollToEnd = performance.now() - endStarted;
  log(
    `web: first paint ${firstPaint.toFixed(0)} ms, segment ${total} on screen after ${scrollToEnd.toFixed(0)} ms`,
  );

  // Replace preview over every source.
  await page.keyboard.press('Control+Shift+F');
  const dialog = page.getByRole('dialog', { name: 'Find and replace' });
  await dialog.getByLabel('Find').fill('the');
  await dialog.getByLabel('Replace with').fill('THE');
  await dialog.getByLabel('Case-sensitive').check();
  await dialog.getByRole('combobox').selectOption('source');
  const answered = page.waitForResponse((r) => r.url().endsWith('/v2/documents/replace'), {
    timeout: 120_000,
  });
  let started = performance.now();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const preview = (await (await answered).json()) as { changed: number };
  await dialog.getByRole('status').filter({ hasText: 'would change' }).waitFor({ timeout: 120_000 });
  const replacePreview = performance.now() - started;
  await dialog.getByRole('button', { name: 'Close' }).click();

  // QA over all segments: the server's report, and the same module in the page.
  started = performance.now();
  const qa = await api.json<{ issues: unknown[] }>('GET', `/v2/documents/qa?id=${uploaded.id}`);
  const qaMs = performance.now() - started;
  log(`web: replace preview ${replacePreview.toFixed(0)} ms, QA ${qaMs.toFixed(0)} ms`);
  const pages: { source: string }[] = [];
  for (let offset = 0; offset < total; offset += 1000) {
    const page = await api.json<{ segments: { source: string }[] }>(
      'GET',
      `/v2/documents/segments?id=${uploaded.id}&offset=${offset}&limit=1000`,
    );
    pages.push(...page.segments);
  }
  const qaModule = await moduleQa(pages.map((s) => s.source));
  const deepLinks = await measureDeepLinks(page, uploaded.id, total, opts.seed, log);
  return {
    deep_links: deepLinks,
    segments: total,
    first_paint_ms: firstPaint,
    scroll_to_end_ms: scrollToEnd,
    replace_preview_ms: replacePreview,
    replace_preview_changes: preview.changed,
    qa_ms: qaMs,
    qa_issues: qa.issues.length,
    qa_module_ms: qaModule,
  };
}

const DEEP_LINKS = 100;

/** Where segment n stands in the list's visible area (fractions), and whether its target has the focus. */
async function placementOf(page: Page, n: number) {
  return page.evaluate<{ focused: boolean; top: number | null; bottom: number | null; at: number }>(`(() => {
    const area = document.querySelector('[role="grid"] [role="rowgroup"]:nth-of-type(2)')?.getBoundingClientRect();
    const target = [...document.querySelectorAll('[role="textbox"]')].find(
      (e) => e.getAttribute('aria-label') === 'Target ${n}',
    );
    const row = target?.closest('[role="row"]')?.getBoundingClientRect();
    return {
      focused: document.activeElement?.getAttribute('aria-label') === 'Target ${n}',
      top: area && row ? (row.top - area.top) / area.height : null,
      bottom: area && row ? (row.bottom - area.top) / area.height : null,
      at: performance.now(),
    };
  })()`);
}

/**
 * 100 random deep links (`?seg=N`, a page load each) on the large document: each until its segment is focused
 * and wholly in view (30 s at most), as the issue asks: all in view and focused.
 */
async function measureDeepLinks(
  page: Page,
  documentId: number,
  total: number,
  seed: number,
  log: (line: string) => void,
) {
  let state = seed + 7;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const origin = new URL(page.url()).origin;
  const ready: number[] = [];
  const tops: number[] = [];
  const failures: string[] = [];
  let inView = 0;
  let focused = 0;
  let topThird = 0;
  for (let k = 0; k < DEEP_LINKS; k++) {
    const n = 1 + Math.floor(random() * total);
    await page.goto(`${origin}/documents/${documentId}?seg=${n}`);
    const started = Date.now();
    let seen = await placementOf(page, n);
    const placed = (p: typeof seen) =>
      p.focused && p.top !== null && p.top >= 0 && p.bottom !== null && p.bottom <= 1;
    while (!placed(seen) && Date.now() - started < 30_000) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await placementOf(page, n);
    }
    if (seen.focused) focused++;
    if (placed(seen)) {
      inView++;
      ready.push(seen.at);
      tops.push(seen.top!);
      // The first and last rows cannot stand a third down: the list does not scroll past its ends.
      if ((seen.top! >= 0.15 && seen.top! <= 0.45) || n <= 5 || n > total - 10) topThird++;
    } else failures.push(`${n}: ${JSON.stringify(seen)}`);
  }
  log(`web: ${DEEP_LINKS} deep links: ${inView} in view, ${focused} focused, ${topThird} a third down`);
  return {
    n: DEEP_LINKS,
    in_view: inView,
    focused,
    top_third: topThird,
    top_min: Math.min(...tops),
    top_max: Math.max(...tops),
    ready: figures(ready),
    failures,
  };
}

/** The QA module the editor runs as one types, over every source checked against itself (in Node: same code). */
async function moduleQa(sources: string[]): Promise<number> {
  const { checkSegment } = await import('../src/text/qa/qa-checks.ts');
  const started = performance.now();
  for (const s of sources) checkSegment(s, s, { srcLang: 'en', trgLang: 'de' });
  return performance.now() - started;
}
