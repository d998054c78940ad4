// The memory keeps one translation per source and context, in Chromium through a real server: a name typed the
// moment the New memory dialog opens stays; a reviewer's correction replaces the entry, whose History shows the
// translator's text, who wrote it and who replaced it; the match panel says why its first match ranks first
// and counts "1 match"; a TMX of another language pair says why its units were skipped; the import's
// progress is in percent and MB. Elements by role and accessible name; axe on each screen.
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

const PASSWORD = 'ada-correct-horse-42';
const FRENCH_TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en-US" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="test" creationtool="test" creationtoolversion="1"/><body>
${['Open', 'Close', 'Save']
  .map(
    (w) =>
      `<tu><tuv xml:lang="en-US"><seg>${w} it.</seg></tuv><tuv xml:lang="fr-FR"><seg>${w} (fr).</seg></tuv></tu>`,
  )
  .join('\n')}
</body></tmx>`;

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

const answer = (path: string, method = 'GET') =>
  page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === method);

test('memory corrections: typed at once, history, why a match ranks first, why an import skipped', {
  skip: browserSkipReason,
}, async () => {
  const api = client(ctx.app, ctx.adminKey);
  let memoryId = 0;

  await step('new-memory-typed-at-once', async () => {
    await signInAt(page, `${base}/memories`, 'ada', PASSWORD);
    await page.getByRole('heading', { name: 'Memories' }).waitFor();
    // Typed the moment the dialog opens, while its languages load: every character stays.
    await page.getByRole('button', { name: 'New memory' }).click();
    await page.keyboard.type('Reviewed de');
    const dialog = page.getByRole('dialog', { name: 'New memory' });
    await dialog.getByRole('button', { name: 'Create memory' }).waitFor();
    await page.waitForFunction("!document.querySelector('dialog [type=submit][disabled]')");
    assert.equal(await dialog.getByLabel('Name').inputValue(), 'Reviewed de');
    const box = dialog.getByRole('checkbox', { name: 'Keep several translations per source' });
    assert.equal(await box.isChecked(), false, 'one translation per source by default');
    assert.deepEqual(await axeViolations(page), [], 'axe on the New memory dialog');
    await screenshot(page, 'memory-history-01-new-memory');
    const created = answer('/v2/memories', 'POST');
    await dialog.getByRole('button', { name: 'Create memory' }).click();
    const memory = await (await created).json();
    memoryId = memory.id;
    assert.deepEqual([memory.name, memory.multiple_translations], ['Reviewed de', false]);
  });

  await step('correction-history', async () => {
    // A translator confirms, a reviewer corrects: one entry, the translator's text in its history.
    const project = (await api.post('/v2/projects', { name: 'Manual', memory_id: memoryId })).json();
    const upload = await api.upload('/v2/documents/files', 'Before it.\n\nClick OK.\n\nAfter it.\n', {
      'lilt-api': JSON.stringify({ name: 'manual.txt', project_id: project.id }),
    });
    const documentId = upload.json().id as number;
    let segments: { id: number; source: string }[] = [];
    for (let i = 0; i < 2000 && segments.length === 0; i++) {
      const doc = (await api.get(`/v2/documents?id=${documentId}&with_segments=true`)).json();
      if (!doc.import_in_progress) segments = doc.segments;
      else await new Promise((r) => setTimeout(r, 20));
    }
    const click = segments[1];
    await api.put('/v2/segments', { id: click.id, target: 'Klicken Sie auf OK', is_confirmed: true });
    const rita = client(
      ctx.app,
      await userKey(ctx, { username: 'rita', password: 'reviewer-password-1', role: 'member' }),
    );
    await rita.put('/v2/segments', { id: click.id, target: 'Klicken Sie auf OK.', is_confirmed: true });

    await page.getByRole('link', { name: 'Reviewed de' }).click();
    await page.getByRole('heading', { name: 'Reviewed de' }).waitFor();
    await page.getByText('1 entry', { exact: true }).waitFor();
    await page.getByText('One translation per source').waitFor();
    const entries = page.getByRole('table', { name: 'Entries' });
    assert.equal(await entries.getByRole('row').count(), 2, 'one entry and the header');
    const row = entries.getByRole('row').filter({ hasText: 'Click OK.' });
    assert.match(await row.innerText(), /Klicken Sie auf OK\./);
    await row.getByRole('button', { name: /^History of entry \d+: 1 earlier version$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Entry history' });
    const versions = dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem');
    await versions.first().waitFor();
    assert.equal(await versions.count(), 2);
    assert.match(await versions.nth(0).innerText(), /Current · rita[\s\S]*Klicken Sie auf OK\./);
    assert.match(
      await versions.nth(1).innerText(),
      /Earlier · admin · .* · replaced by rita on [\s\S]*Klicken Sie auf OK$/,
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the entry history');
    await screenshot(page, 'memory-history-02-entry-history');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await step('why-first', async () => {
    const matches = page.getByRole('region', { name: 'Matches' });
    await page.getByLabel('Source sentence (en)').fill('Click OK!');
    await page.getByRole('button', { name: 'Look up' }).click();
    await matches.getByText('Klicken Sie auf OK.').waitFor();
    assert.match(await matches.getByRole('status').innerText(), /^1 match, best 9\d%$/);
    // A second translation of the source, added by hand (without a context: Lilt's API adds it).
    await api.post('/v2/segments', { memory_id: memoryId, source: 'Click OK.', target: 'OK klicken.' });
    await page.getByLabel('Source sentence (en)').fill('Click OK.');
    await page.getByRole('button', { name: 'Look up' }).click();
    await matches.getByText('OK klicken.').waitFor();
    assert.equal(await matches.getByRole('status').innerText(), '2 matches, best 100%');
    assert.match(
      await matches.getByRole('listitem').first().innerText(),
      /Ranks first: (newest|stored first) of 2 translations/,
    );
    await screenshot(page, 'memory-history-03-why-first');
  });

  await step('import-reason', async () => {
    await page.getByLabel('Import a file into the memory').setInputFiles({
      name: 'french.tmx',
      mimeType: 'application/x-tmx+xml',
      buffer: Buffer.from(FRENCH_TMX),
    });
    const outcome = page.getByRole('status').filter({ hasText: 'Imported 0, skipped 3' });
    await outcome.waitFor();
    assert.equal(
      await outcome.innerText(),
      'Imported 0, skipped 3, duplicates 0. Skipped: 3 units had no variant in de; the languages they have: en-US, fr-FR.',
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the memory page after the import');
    await screenshot(page, 'memory-history-04-import-reason');
  });
});
