// The Terms tab's suggested terms, in Chromium through a real server: a project manager asks for suggestions,
// waits while the memory's words are learned, sees a phrase the memory translates consistently, adds it to
// the termbase with one click, and it moves from the suggestions to the terms. Elements by role and
// accessible name; axe; screenshots.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { client } from '../helpers/api.ts';
import {
  axeViolations,
  type Browsing,
  browserSkipReason,
  openBrowser,
  screenshot,
  signInAt,
  step as stepOf,
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const PASSWORD = 'pia-correct-horse-42';
let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  await userKey(ctx, { username: 'pia', password: PASSWORD, role: 'project_manager' });
  browsing = await openBrowser(base);
  page = browsing.page;
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

const step = (name: string, run: () => Promise<void>) => stepOf(page, name, run);

const PAIRS = [
  ['Open the spreadsheet', 'Öffnen Sie die Tabelle'],
  ['Save the spreadsheet', 'Speichern Sie die Tabelle'],
  ['Close the spreadsheet', 'Schließen Sie die Tabelle'],
  ['Print the spreadsheet', 'Drucken Sie die Tabelle'],
  ['The spreadsheet is empty', 'Die Tabelle ist leer'],
  ['Delete the spreadsheet', 'Löschen Sie die Tabelle'],
  ['Open the window', 'Öffnen Sie das Fenster'],
  ['The window is empty', 'Das Fenster ist leer'],
];

test('suggested terms: learned from the memory, added to the termbase with one click', {
  skip: browserSkipReason,
}, async () => {
  const api = client(ctx.app, ctx.adminKey);
  const memory = (await api.post('/v2/memories', { name: 'Office', srclang: 'en', trglang: 'de' })).json();
  for (const [source, target] of PAIRS)
    await api.post('/v2/segments', { memory_id: memory.id, source, target });

  await step('suggest', async () => {
    await signInAt(page, `${base}/memories/${memory.id}`, 'pia', PASSWORD);
    await page.getByRole('heading', { name: 'Office' }).waitFor();
    await page.getByRole('tab', { name: 'Terms' }).click();
    await page.getByRole('button', { name: 'Suggest terms from the memory' }).click();
    const table = page.getByRole('table', { name: 'Suggested terms' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ hasText: 'spreadsheet' });
    assert.match(await row.innerText(), /spreadsheet\s+Tabelle\s+in 6 sentences \(100 %\)/);
    assert.equal(
      await table.getByRole('row').filter({ hasText: 'window' }).count(),
      0,
      'in two sentences only',
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the suggestions');
    await screenshot(page, 'term-candidates-01-suggested');
  });

  await step('accept', async () => {
    await page.getByRole('button', { name: 'Add spreadsheet → Tabelle to the termbase' }).click();
    await page.getByText('Added “spreadsheet” → “Tabelle” to the termbase.').waitFor();
    const terms = page.getByRole('table', { name: 'Terms', exact: true });
    await terms.getByText('Tabelle').waitFor();
    await page
      .getByText('No suggestions: every phrase the memory translates consistently is a term already.')
      .waitFor();
    await screenshot(page, 'term-candidates-02-accepted');
  });
});
