// The web application end to end in Debian's Chromium, through a real server on 127.0.0.1: sign in, create a
// project, upload, pre-translate, translate in the editor with a memory match (its diff and penalties, its tags
// mapped, a tag that cannot be deleted), confirm into the memory, reload, export both ways. Elements are found
// by role and accessible name; waits follow API answers and job states. No request may leave the server, and
// the page may report no Content-Security-Policy violation.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { scoreMatch } from '../../src/matching/score.ts';
import { client } from '../helpers/api.ts';
import {
  type Browsing,
  browserSkipReason,
  openBrowser,
  screenshot,
  signInAt,
  step as stepOf,
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';
import { schemaErrors, schemaSkipReason } from '../helpers/xmllint.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const PASSWORD = 'anna-correct-horse-42';
const HTML = readFileSync(new URL('../../src/formats/html/fixtures/product-page.html', import.meta.url));
// A manual of 5,000 sentences, one paragraph each: a document long enough for the list to be windowed.
const MANUAL = Array.from(
  { length: 5000 },
  (_, i) => `Step ${i + 1} of the manual explains setting number ${i + 1}.`,
).join('\n\n');
// An XLIFF file cut short: its import fails, and the error names the line and column.
const BROKEN =
  '<?xml version="1.0"?>\n<xliff version="1.2">\n  <file source-language="en" datatype="plaintext">\n    <body>\n';

const FUZZY_SOURCE = 'The editor shows <g id="1" ctype="x-abbr">TM</g> matches.';
const MATCH_SOURCE =
  'The editor shows <bpt i="1">&lt;abbr&gt;</bpt>TM<ept i="1">&lt;/abbr&gt;</ept> results.';
const MATCH_TARGET =
  'Der Editor zeigt <bpt i="1">&lt;abbr&gt;</bpt>TM<ept i="1">&lt;/abbr&gt;</ept>-Ergebnisse.';
const MAPPED_TARGET = 'Der Editor zeigt <g id="1" ctype="x-abbr">TM</g>-Ergebnisse.';

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="test" creationtool="test" creationtoolversion="1"/><body>
<tu><tuv xml:lang="en"><seg>${MATCH_SOURCE}</seg></tuv><tuv xml:lang="de"><seg>${MATCH_TARGET}</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>Contact sales for volume discounts.</seg></tuv><tuv xml:lang="de"><seg>Für Mengenrabatte wenden Sie sich an den Vertrieb.</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>It saved us weeks.</seg></tuv><tuv xml:lang="de"><seg>Es hat uns Wochen gespart.</seg></tuv></tu>
</body></tmx>`;

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let api: ReturnType<typeof client>;
let memoryId: number;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  api = client(ctx.app, await userKey(ctx, { username: 'anna', password: PASSWORD, role: 'member' }));

  // Seed by API: the memory, with a match whose tags are TMX's and a few exact ones.
  const memory = await api.post('/v2/memories', { name: 'Website de', srclang: 'en', trglang: 'de' });
  memoryId = memory.json().id;
  const imported = await api.upload('/v2/memories/import', TMX, {
    'lilt-api': JSON.stringify({ memory_id: memoryId, name: 'seed.tmx' }),
  });
  assert.equal((await api.waitForTask(imported.json().job_id)).state, 'succeeded');
  browsing = await openBrowser(base);
  page = browsing.page;
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

/** Polls the API until `done` says so (a job state, a saved segment): waits that follow the server. */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 60_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > ms) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Which element has the focus, by its accessible name (aria-label). */
const focusedName = () =>
  page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null");

const step = (name: string, run: () => Promise<void>) => stepOf(page, name, run);

test('the whole path: sign in, project, upload, pre-translate, translate, confirm, reload, export', {
  skip: browserSkipReason,
}, async () => {
  let projectId = 0;
  let htmlId = 0;
  let manualId = 0;
  let fuzzyNumber = 0;

  await step('sign-in', async () => {
    await signInAt(page, `${base}/projects`, 'anna', 'not-the-password');
    await page.getByRole('alert').filter({ hasText: 'Wrong username or password' }).waitFor();
    await screenshot(page, '01-sign-in-error');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    // The session is an HttpOnly cookie: nothing of it in scripts' reach, in storage or in the URL.
    const exposed = await page.evaluate(
      '({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length, url: location.href })',
    );
    assert.deepEqual(exposed, { cookie: '', local: 0, session: 0, url: `${base}/projects` });
    const [cookie] = await browsing.context.cookies(base);
    assert.equal(cookie.name, 'tessera_session');
    assert.ok(cookie.httpOnly && cookie.sameSite === 'Strict');
    assert.ok(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Memories' })
        .isVisible(),
    );
  });

  await step('new-project', async () => {
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Website relaunch');
    await dialog.getByLabel('Memory').selectOption({ label: 'Website de (en → de, 3 entries)' });
    await screenshot(page, '02-new-project');
    const created = page.waitForResponse(
      (r) => r.url().endsWith('/v2/projects') && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Create project' }).click();
    projectId = (await (await created).json()).id;
    await page.getByRole('heading', { name: 'Website relaunch' }).waitFor();
    assert.equal(page.url(), `${base}/projects/${projectId}`);
  });

  await step('upload', async () => {
    await page.getByLabel('Upload files').setInputFiles([
      { name: 'product-page.html', mimeType: 'text/html', buffer: HTML },
      { name: 'manual.txt', mimeType: 'text/plain', buffer: Buffer.from(MANUAL) },
      { name: 'broken.xlf', mimeType: 'application/xliff+xml', buffer: Buffer.from(BROKEN) },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await uploads
      .getByRole('listitem')
      .filter({ hasText: 'product-page.html' })
      .getByText(/Ready: \d+ segments/)
      .waitFor();
    await uploads
      .getByRole('listitem')
      .filter({ hasText: 'manual.txt' })
      .getByText('Ready: 5,000 segments')
      .waitFor();
    const failure = uploads.getByRole('listitem').filter({ hasText: 'broken.xlf' }).getByRole('alert');
    await failure.waitFor();
    assert.match(await failure.innerText(), /line \d+, column \d+/);
    await screenshot(page, '03-project-uploaded');
    const project = (await api.get(`/v2/projects?id=${projectId}`)).json()[0];
    const byName = (name: string) => project.document.find((d: { name: string }) => d.name === name);
    htmlId = byName('product-page.html').id;
    manualId = byName('manual.txt').id;
    const htmlRow = page
      .getByRole('table', { name: 'Documents' })
      .getByRole('row')
      .filter({ hasText: 'product-page.html' });
    assert.match(await htmlRow.innerText(), new RegExp(`\\b${byName('product-page.html').num_segments}\\b`));
  });

  await step('pre-translate', async () => {
    await page.getByRole('button', { name: 'Pre-translate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pre-translate from the memory' });
    await dialog.getByLabel('manual.txt').uncheck();
    // Auto-accept is off until chosen, and says what it confirms.
    assert.ok(await dialog.getByRole('radio', { name: /^Confirm nothing/ }).isChecked());
    await dialog
      .getByRole('radio', { name: 'Confirm exact matches (100 %, identical text and tags)' })
      .check();
    const started = page.waitForResponse((r) => r.url().endsWith('/v2/documents/pretranslate'));
    await dialog.getByRole('button', { name: 'Start pre-translation' }).click();
    assert.equal((await started).status(), 202);
    assert.deepEqual((await started).request().postDataJSON(), {
      id: [htmlId],
      auto_accept: true,
      auto_accept_scope: 'exact',
    });
    await until(
      'pre-translation',
      async () => (await api.get(`/v2/documents?id=${htmlId}`)).json(),
      (d) => !d.is_pretranslating,
    );
    // The page follows the job: the two exact matches are confirmed.
    const progress = page.getByRole('progressbar', { name: 'product-page.html: segments confirmed' });
    await until(
      'the page shows the exact matches confirmed',
      () => progress.getAttribute('aria-valuenow'),
      (v) => v === '2',
    );
    const exportButton = page
      .getByRole('row')
      .filter({ hasText: 'product-page.html' })
      .getByRole('button', { name: 'Export XLIFF' });
    await until('export enabled', () => exportButton.isEnabled(), Boolean);
  });

  await step('editor', async () => {
    const segments = (await api.get(`/v2/documents/segments?id=${htmlId}&limit=1000`)).json().segments;
    const fuzzy = segments.find((s: { source: string }) => s.source === FUZZY_SOURCE);
    assert.equal(fuzzy.status, 'pretranslated', 'pre-translation filled the fuzzy segment');
    fuzzyNumber = fuzzy.position + 1;

    await page.getByRole('link', { name: 'product-page.html' }).click();
    await page.getByRole('grid', { name: 'Segments' }).waitFor();
    await page.getByRole('textbox', { name: 'Target 1', exact: true }).waitFor();
    // A deep link to a segment and a filter: the pre-translated ones.
    await page.goto(`${base}/documents/${htmlId}?seg=${fuzzyNumber}&status=pretranslated`);
    const target = page.getByRole('textbox', { name: `Target ${fuzzyNumber}`, exact: true });
    await target.waitFor();
    await until('focus in the target', focusedName, (n) => n === `Target ${fuzzyNumber}`, 10_000);
    assert.equal(
      await page.getByRole('button', { name: /^Pre-translated/ }).getAttribute('aria-pressed'),
      'true',
    );

    const matches = page.getByRole('region', { name: 'Matches' });
    const expected = scoreMatch(FUZZY_SOURCE, MATCH_SOURCE);
    await matches.getByText(`${expected.score}%`, { exact: true }).waitFor();
    // The diff from the scorer's tokens: "results" is the match's, "matches" this segment's.
    assert.equal(await matches.getByRole('deletion').first().innerText(), 'results');
    assert.equal(await matches.getByRole('insertion').first().innerText(), 'matches');
    const chips = await matches
      .getByRole('list', { name: 'Points off' })
      .getByRole('listitem')
      .allInnerTexts();
    const points = chips.map((c) => Number(/−(\d+)/.exec(c)![1]));
    assert.equal(
      points.reduce((a, b) => a + b, 0),
      100 - expected.score,
      `chips ${chips.join(', ')} add up to 100 − ${expected.score}`,
    );
    assert.ok(
      chips.some((c) => c.startsWith('tags')),
      chips.join(', '),
    );
    await screenshot(page, '04-editor-fuzzy-match');

    // Select all and delete: the text goes, and the tags with it (Missing tags lists them).
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    assert.equal(await target.getByRole('img', { name: /^tag / }).count(), 0);
    await page.getByRole('region', { name: 'Segment' }).getByText('Missing tags:').waitFor();

    await page.keyboard.press('Alt+1');
    await target.getByText('-Ergebnisse.').waitFor();
    // Backspace at the end deletes the text before the closing tag, then stops at the tag.
    await page.keyboard.press('End');
    for (let i = 0; i < 20; i++) await page.keyboard.press('Backspace');
    assert.equal(await target.getByRole('img', { name: 'tag /1' }).count(), 1, 'the closing tag stays');
    await page.keyboard.type('-Ergebnisse.');

    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/v2/segments') && r.request().method() === 'PUT',
    );
    await page.keyboard.press('Control+Enter');
    const put = await saved;
    // The save names the version it was based on: another person's change meanwhile would be a conflict.
    assert.deepEqual(put.request().postDataJSON(), {
      id: fuzzy.id,
      target: MAPPED_TARGET,
      is_confirmed: true,
      expected_updated_at: fuzzy.updated_at,
    });
    assert.equal(put.status(), 200);
    // Focus moves to the next unconfirmed segment of the list.
    const next = segments.find(
      (s: { position: number; status: string }) =>
        s.position > fuzzy.position && s.status === 'pretranslated',
    );
    if (next) await until('focus moved', focusedName, (n) => n === `Target ${next.position + 1}`, 10_000);
    else await page.getByText('No unconfirmed segment after this one.').waitFor();

    const segment = (await api.get(`/v2/segments?id=${fuzzy.id}`)).json();
    assert.equal(segment.is_confirmed, true);
    assert.equal(segment.target, MAPPED_TARGET);
    const query = (
      await api.get(`/v2/memories/query?id=${memoryId}&query=${encodeURIComponent(FUZZY_SOURCE)}`)
    ).json();
    assert.equal(query[0].score, 100);
    assert.equal(query[0].target, MAPPED_TARGET);
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('gridcell', { name: String(fuzzyNumber), exact: true }) })
      .getByText('Confirmed', { exact: true })
      .waitFor();
    await screenshot(page, '05-editor-confirmed');
  });

  await step('reload', async () => {
    await page.goto(`${base}/documents/${htmlId}?seg=${fuzzyNumber}`);
    const target = page.getByRole('textbox', { name: `Target ${fuzzyNumber}`, exact: true });
    await target.getByText('-Ergebnisse.').waitFor();
    assert.equal(await target.getByRole('img', { name: /^tag / }).count(), 2);
    const row = page.getByRole('row').filter({ has: target });
    assert.ok(await row.getByText('Confirmed', { exact: true }).isVisible());
    // The matches panel now has the confirmed pair, stored with this segment's context: a 101 % context match.
    await page.getByRole('region', { name: 'Matches' }).getByText('101%', { exact: true }).first().waitFor();

    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Confirm and go to the next unconfirmed segment').waitFor();
    await screenshot(page, '06-shortcut-help');
    await help.getByRole('button', { name: 'Close' }).click();
  });

  await step('large-document', async () => {
    await page.goto(`${base}/documents/${manualId}`);
    await page.getByRole('textbox', { name: 'Target 1', exact: true }).waitFor();
    const rows = await page.getByRole('row').count();
    assert.ok(rows < 200, `${rows} rows in the DOM for 5,000 segments`);
    await page.keyboard.press('Alt+G');
    const goTo = page.getByRole('dialog', { name: 'Go to segment' });
    await goTo.getByLabel('Segment number').fill('4000');
    await goTo.getByRole('button', { name: 'Go' }).click();
    await until('focus on 4000', focusedName, (n) => n === 'Target 4000', 10_000);
    await page.keyboard.press('Alt+ArrowDown');
    await until('focus on 4001', focusedName, (n) => n === 'Target 4001', 10_000);
    assert.ok((await page.getByRole('row').count()) < 200);
    await screenshot(page, '07-editor-large-document');
  });

  await step('export', async () => {
    await page.goto(`${base}/projects/${projectId}`);
    const row = page
      .getByRole('table', { name: 'Documents' })
      .getByRole('row')
      .filter({ hasText: 'product-page.html' });
    const [xliff] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Export XLIFF' }).click(),
    ]);
    const xml = readFileSync(await xliff.path(), 'utf8');
    assert.match(xml, /Der Editor zeigt <g id="1" ctype="x-abbr">TM<\/g>-Ergebnisse\./);
    if (!schemaSkipReason) assert.equal(schemaErrors(xml), '');
    else process.stdout.write(`# SKIP ${schemaSkipReason}\n`);
    const [original] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Export original' }).click(),
    ]);
    assert.equal(original.suggestedFilename(), 'product-page.de.html', 'named with its target language');
    const html = readFileSync(await original.path(), 'utf8');
    assert.match(html, /Der Editor zeigt <abbr title="translation memory">TM<\/abbr>-Ergebnisse\./);
    await page.getByRole('link', { name: 'Memories' }).click();
    await page.getByRole('cell', { name: 'Website de' }).waitFor();
    await screenshot(page, '08-memories');
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('link', { name: 'Website relaunch' }).waitFor();
    await screenshot(page, '09-projects');
  });

  assert.deepEqual(browsing.foreignRequests, [], 'no request leaves the server');
  assert.deepEqual(browsing.problems, [], 'no CSP violation, page error or console error');
});
