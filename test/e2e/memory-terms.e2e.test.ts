// The Terms tab of a memory, in Chromium through a real server: a TBX imported by the button lists its terms
// with their status in words (Forbidden, Deprecated — not a colour only); a term added and edited through the
// dialog; search; delete. Elements by role and accessible name; axe on the tab; screenshots.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

const PASSWORD = 'ada-correct-horse-42';
let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  await userKey(ctx, { username: 'ada', password: PASSWORD, role: 'admin' });
  browsing = await openBrowser(base);
  page = browsing.page;
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

const step = (name: string, run: () => Promise<void>) => stepOf(page, name, run);

test('the Terms tab: import, statuses in words, add, edit, search, delete; a TBX through the memory import', {
  skip: browserSkipReason,
}, async () => {
  const api = client(ctx.app, ctx.adminKey);
  const memory = (
    await api.post('/v2/memories', { name: 'Glossary de', srclang: 'en', trglang: 'de' })
  ).json();

  await step('import-tbx', async () => {
    await signInAt(page, `${base}/memories/${memory.id}`, 'ada', PASSWORD);
    await page.getByRole('heading', { name: 'Glossary de' }).waitFor();
    await page.getByRole('tab', { name: 'Terms' }).click();
    await page.getByText('No terms yet.').waitFor();
    await page.getByLabel('Import TBX or CSV').setInputFiles({
      name: 'basic-v2.tbx',
      mimeType: 'application/x-tbx+xml',
      buffer: readFileSync(join(import.meta.dirname, '..', 'fixtures', 'tbx', 'basic-v2.tbx')),
    });
    await page.getByText('Imported 2 concepts (6 terms) from basic-v2.tbx.').waitFor();
    const table = page.getByRole('table', { name: 'Terms' });
    await table.getByText('Akte').waitFor();
    const akte = table.getByRole('listitem').filter({ hasText: 'Akte' });
    assert.match(await akte.innerText(), /Akte\s+Forbidden/);
    assert.match(await table.getByRole('listitem').filter({ hasText: /^File/ }).innerText(), /Deprecated/);
    assert.match(await table.getByRole('listitem').filter({ hasText: 'Datei' }).innerText(), /Preferred/);
    assert.deepEqual(await axeViolations(page), [], 'axe on the Terms tab');
    await screenshot(page, 'memory-terms-01-imported');
  });

  await step('add-and-edit', async () => {
    await page.getByRole('button', { name: 'Add term' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add term' });
    await dialog.getByLabel('Source term (en)').fill('menu bar');
    await dialog.getByLabel('Target term (de)').fill('Menüleiste');
    await dialog.getByLabel('Definition').fill('The bar of menus at the top of a window');
    await screenshot(page, 'memory-terms-02-add');
    await dialog.getByRole('button', { name: 'Add term' }).click();
    const table = page.getByRole('table', { name: 'Terms' });
    await table.getByText('Menüleiste').waitFor();
    await page.getByRole('button', { name: 'Edit menu bar' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit term' });
    assert.equal(await edit.getByLabel('Target term (de)').inputValue(), 'Menüleiste');
    await edit.getByLabel('Target status').selectOption('admitted');
    await edit.getByRole('button', { name: 'Save term' }).click();
    await edit.waitFor({ state: 'hidden' });
    // The dialog closes when the save is answered; the table shows the change once it has read the terms
    // again, a moment later (read at once, it could still say Preferred).
    const menuBar = table.getByRole('listitem').filter({ hasText: 'Menüleiste' });
    await menuBar.filter({ hasText: 'Admitted' }).waitFor();
    assert.match(await menuBar.innerText(), /Admitted/);
    const stored = (await api.get(`/v2/memories/terms?id=${memory.id}&q=menüleiste`)).json();
    assert.equal(stored.total, 1);
    assert.equal(stored.concepts[0].terms[1].status, 'admitted');
    assert.equal(stored.concepts[0].terms[0].definition, 'The bar of menus at the top of a window');
  });

  await step('search-and-delete', async () => {
    await page.getByLabel('Search the terms').fill('ordn');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const table = page.getByRole('table', { name: 'Terms' });
    await page.waitForFunction("!document.body.innerText.includes('Menüleiste')");
    await table.getByText('Ordner').waitFor();
    await screenshot(page, 'memory-terms-03-search');
    await page.getByRole('button', { name: 'Delete folder' }).click();
    await page.getByText('No term holds “ordn”.').waitFor();
    assert.equal((await api.get(`/v2/memories/terms?id=${memory.id}`)).json().total, 2);
  });

  await step('tbx-through-the-memory-import', async () => {
    // Lilt's route takes a .tbx too: the memory's Import box hands it to the termbase and says so.
    await page.getByLabel('Import a file into the memory').setInputFiles({
      name: 'default-v2.tbx',
      mimeType: 'application/x-tbx+xml',
      buffer: readFileSync(join(import.meta.dirname, '..', 'fixtures', 'tbx', 'default-v2.tbx')),
    });
    await page.getByText('default-v2.tbx was imported into the termbase: see the Terms tab.').waitFor();
    await page.getByLabel('Search the terms').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const table = page.getByRole('table', { name: 'Terms' });
    assert.match(await table.getByRole('listitem').filter({ hasText: 'Nager' }).innerText(), /Forbidden/);
    await screenshot(page, 'memory-terms-04-memory-import');
  });
});
