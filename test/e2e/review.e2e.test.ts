// Review and quality in Chromium through a real server (issue 26): the reviewer turns on Review mode, reads the
// translator's version as tracked changes against her edits, sets Reviewed with Ctrl+Enter (the Reviewed chip
// counts it, the server has it), annotates an MQM error in the Quality panel, reads the quality report and its
// CSV, changes the project's threshold; the project page shows words per person. By role and accessible name.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { countWords } from '../../src/matching/word-count.ts';
import { client } from '../helpers/api.ts';
import {
  axeViolations,
  type Browsing,
  browserSkipReason,
  openBrowser,
  screenshot,
  signInAt,
  step,
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const SOURCES = [
  'Click Save to keep your changes before you close the window.',
  'The report lists every error by category.',
  'Print the page.',
];
const TRANSLATIONS = [
  'Klicken Sie auf Sichern, um Ihre Änderungen zu behalten, bevor Sie das Fenster schließen.',
  'Der Bericht listet jeden Fehler nach Kategorie.',
  'Drucken Sie die Seite.',
];
const REVIEWED = 'Klicken Sie auf Speichern, um Ihre Änderungen zu sichern, bevor Sie das Fenster schließen.';

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let admin: ReturnType<typeof client>;
let projectId = 0;
let documentId = 0;
let segments: { id: number }[] = [];

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  admin = client(
    ctx.app,
    await userKey(ctx, { username: 'paul', password: 'manager-pass-1', role: 'admin' }),
  );
  const anna = client(
    ctx.app,
    await userKey(ctx, { username: 'anna', password: 'translator-1', role: 'member' }),
  );
  await userKey(ctx, { username: 'rita', password: 'reviewer-pass-1', role: 'member' });
  const memoryId = (
    await admin.post('/v2/memories', { name: 'Manual TM', srclang: 'en', trglang: 'de' })
  ).json().id;
  projectId = (await admin.post('/v2/projects', { name: 'User manual', memory_id: memoryId })).json().id;
  documentId = await admin.uploadDocument(projectId, 'manual.txt', `${SOURCES.join('\n\n')}\n`);
  segments = (await admin.get(`/v2/documents?id=${documentId}&with_segments=true`)).json().segments;
  for (const [i, target] of TRANSLATIONS.entries()) {
    const res = await anna.put('/v2/segments', { id: segments[i].id, target, is_confirmed: true });
    assert.equal(res.statusCode, 200, res.body);
  }
  browsing = await openBrowser(base);
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

test('the reviewer reviews with tracked changes, sets Reviewed with Ctrl+Enter, annotates an error; the report and CSV read it', {
  skip: browserSkipReason,
}, async () => {
  const { page } = browsing;
  await step(page, 'sign-in', async () => {
    await signInAt(page, `${base}/documents/${documentId}`, 'rita', 'reviewer-pass-1');
    await page.getByRole('textbox', { name: 'Target 1', exact: true }).waitFor();
  });

  await step(page, 'review-mode', async () => {
    const toggle = page.getByRole('button', { name: 'Review mode', exact: true });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.match(page.url(), /mode=review/);
    const changes = page.getByRole('region', { name: 'Changes to the translator’s version' });
    await changes.getByText('Unchanged from the translator’s version by anna.').waitFor();
  });

  await step(page, 'edit-and-review', async () => {
    await page.getByRole('textbox', { name: 'Target 1', exact: true }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(REVIEWED);
    const changes = page.getByRole('region', { name: 'Changes to the translator’s version' });
    await changes.getByRole('deletion').filter({ hasText: 'Sichern' }).first().waitFor();
    await changes.getByRole('insertion').filter({ hasText: 'Speichern' }).first().waitFor();
    await screenshot(page, 'review-mode-active-changes');
    await page.keyboard.press('Control+Enter');
    // On to the next segment not reviewed; row 1 now reads as tracked changes.
    await page
      .getByRole('region', { name: 'Changes to the translator’s version' })
      .getByText('Unchanged from the translator’s version by anna.')
      .waitFor();
    const row1 = page.getByRole('textbox', { name: 'Target 1', exact: true });
    await row1.getByRole('deletion').filter({ hasText: 'Sichern' }).first().waitFor();
    await row1.getByRole('insertion').filter({ hasText: 'Speichern' }).first().waitFor();
    await page.getByRole('button', { name: /^Reviewed 1$/ }).waitFor();
    await screenshot(page, 'review-mode-row-tracked-changes');
    for (let i = 0; i < 100; i++) {
      const s = (await admin.get(`/v2/segments?id=${segments[0].id}`)).json();
      if (s.status === 'reviewed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const saved = (await admin.get(`/v2/segments?id=${segments[0].id}`)).json();
    assert.equal(saved.status, 'reviewed');
    assert.equal(saved.is_reviewed, true);
    assert.equal(saved.target, REVIEWED);
  });

  await step(page, 'annotate', async () => {
    // Back to segment 1 to annotate the error the translator made there.
    await page.keyboard.press('Alt+ArrowUp');
    const panel = page.getByRole('region', { name: 'Quality', exact: true });
    await panel.getByText('No error annotated in this segment.').waitFor();
    await panel.getByLabel('Category').selectOption({ label: 'Terminology' });
    await panel.getByLabel('Severity').selectOption('major');
    await panel.getByLabel('Note').fill('“Save” is “Speichern” in the glossary');
    await panel.getByRole('button', { name: 'Add error' }).click();
    await panel.getByRole('button', { name: 'Remove the major Terminology error' }).waitFor();
    await panel.getByText('Fail', { exact: true }).waitFor();
    await screenshot(page, 'review-mode-quality-panel');
    assert.deepEqual(await axeViolations(page), []);
  });

  await step(page, 'help', async () => {
    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Review mode: mark Reviewed and go to the next segment not reviewed').waitFor();
    await help.getByRole('button', { name: 'Close' }).click();
  });

  await step(page, 'withdraw-and-review-again', async () => {
    // Segment 1 is active: Ctrl+Shift+Enter withdraws Reviewed (it stays confirmed), Ctrl+Enter sets it again.
    await page.keyboard.press('Control+Shift+Enter');
    await page.getByRole('button', { name: /^Reviewed 0$/ }).waitFor();
    await page.getByRole('button', { name: /^Confirmed 3$/ }).waitFor();
    await page.keyboard.press('Control+Enter');
    await page.getByRole('button', { name: /^Reviewed 1$/ }).waitFor();
    const saved = (await admin.get(`/v2/segments?id=${segments[0].id}`)).json();
    assert.equal(saved.status, 'reviewed');
  });

  await step(page, 'report', async () => {
    await page.getByRole('link', { name: 'Quality report', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Quality report', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Fail' }).waitFor();
    const errors = page.getByRole('table', { name: /Errors found/ });
    const row = errors.getByRole('row').filter({ hasText: 'glossary' });
    await row.getByText('Terminology').waitFor();
    await row.getByRole('link', { name: 'Segment 1 in the editor' }).waitFor();
    const words = SOURCES.reduce((n, s) => n + countWords(s), 0);
    await page
      .getByText(String(Math.round((5000 / words) * 100) / 100))
      .first()
      .waitFor();
    await screenshot(page, 'quality-report');
    assert.deepEqual(await axeViolations(page), []);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'manual.quality.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    assert.match(csv, /^Segment,Category,Severity,Penalty points,/);
    assert.match(csv, /\r\n1,Terminology,Major,5,/);
    assert.match(csv, /Result,Fail\r\n$/);

    await page.getByLabel('Project’s pass threshold (points per 1,000 words)').fill('1000');
    await page.getByRole('button', { name: 'Save threshold' }).click();
    await page.getByRole('status').filter({ hasText: 'Pass' }).waitFor();
    const settings = (await admin.get(`/v2/quality/settings?project_id=${projectId}`)).json();
    assert.equal(settings.threshold, 1000);
  });

  await step(page, 'words-per-person', async () => {
    await page.goto(`${base}/projects/${projectId}`);
    const table = page.getByRole('table', { name: 'Words per person' });
    await table.waitFor();
    const all = SOURCES.reduce((n, s) => n + countWords(s), 0);
    const rita = table.getByRole('row').filter({ hasText: 'rita' }).first();
    await rita.getByRole('cell', { name: String(countWords(SOURCES[0])), exact: true }).waitFor();
    const anna = table.getByRole('row').filter({ hasText: 'anna' }).first();
    await anna.getByRole('cell', { name: String(all), exact: true }).waitFor();
    await page
      .getByRole('table', { name: 'Documents' })
      .getByRole('row')
      .filter({ hasText: 'manual.txt' })
      .getByRole('link', { name: 'Quality report' })
      .waitFor();
    await screenshot(page, 'project-words-per-person');
  });
  assert.deepEqual(browsing.problems, []);
  assert.deepEqual(browsing.foreignRequests, []);
});
