// Repetitions in the editor (issue 25), in two Chromium profiles through a real server: each row whose source
// occurs more than once in the project carries a mark ("Repetition (5 ×)"), the "Repetitions" filter keeps those
// rows only, and Ctrl+Enter on one fills the others live — in this editor's grid and in a colleague's editor of
// the project's other document; Ctrl+Shift+Enter puts them back. Elements by role and accessible name.
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
  step,
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const FIRST = ['Exiting.', 'Reading the configuration.', 'Exiting.', 'Exiting.', 'Done.'];
const SECOND = ['Exiting.', 'Exiting.', 'Writing the log.'];

let ctx: TestContext;
let base: string;
let anna: Browsing;
let bert: Browsing;
let api: ReturnType<typeof client>;
const documents: number[] = [];

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  api = client(
    ctx.app,
    await userKey(ctx, { username: 'anna', password: 'anna-password-1', role: 'member' }),
  );
  await userKey(ctx, { username: 'bert', password: 'bert-password-1', role: 'member' });
  const memory = (await api.post('/v2/memories', { name: 'Tool de', srclang: 'en', trglang: 'de' })).json();
  const project = (await api.post('/v2/projects', { name: 'Tool', memory_id: memory.id })).json();
  for (const [name, lines] of [
    ['first.txt', FIRST],
    ['second.txt', SECOND],
  ] as const) {
    const uploaded = await api.upload('/v2/documents/files', lines.join('\n\n'), {
      'lilt-api': JSON.stringify({ name, project_id: project.id }),
    });
    const id = uploaded.json().id as number;
    while ((await api.get(`/v2/documents?id=${id}`)).json().import_in_progress) {
      await new Promise((r) => setTimeout(r, 25));
    }
    documents.push(id);
  }
  anna = await openBrowser(base);
  bert = await openBrowser(base, { width: 1280, height: 800 });
});

after(async () => {
  await anna?.close();
  await bert?.close();
  await ctx?.close();
});

async function open(page: Page, documentId: number, username: string, password: string) {
  await signInAt(page, `${base}/documents/${documentId}?seg=1`, username, password);
  await page.getByRole('grid', { name: 'Segments' }).waitFor();
}

const target = (page: Page, n: number) => page.getByRole('textbox', { name: `Target ${n}`, exact: true });
const row = (page: Page, n: number) =>
  page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: String(n), exact: true }) });

/** Clicks a target and waits until its editor has the focus (typing before would go nowhere). */
async function editTarget(page: Page, n: number) {
  await target(page, n).click();
  await page.waitForFunction((label) => {
    const { document } = globalThis as unknown as {
      document: {
        activeElement: { isContentEditable: boolean; getAttribute(name: string): string | null } | null;
      };
    };
    return (
      document.activeElement?.isContentEditable && document.activeElement.getAttribute('aria-label') === label
    );
  }, `Target ${n}`);
}

test('repetitions are marked, filtered, filled live on Ctrl+Enter and put back on Ctrl+Shift+Enter', {
  skip: browserSkipReason,
}, async () => {
  const page = anna.page;
  await step(page, 'repetitions-marks', async () => {
    await open(page, documents[0], 'anna', 'anna-password-1');
    // Five "Exiting." in the project: the first is the first occurrence, the others repeat it.
    await row(page, 1).getByRole('img', { name: 'Repetition (5 ×, first)' }).waitFor();
    for (const n of [3, 4]) await row(page, n).getByRole('img', { name: 'Repetition (5 ×)' }).waitFor();
    assert.equal(await row(page, 2).getByRole('img').count(), 0);
    await page
      .getByRole('region', { name: 'Segment' })
      .getByText('The first of 5 segments with this source in the project.')
      .waitFor();
    await screenshot(page, 'repetitions-01-marks');
    assert.deepEqual(await axeViolations(page), []);
  });

  await step(page, 'repetitions-filter', async () => {
    const chip = page.getByRole('button', { name: /^Repetitions 3$/ });
    await chip.click();
    await page.getByRole('status').filter({ hasText: '3 shown' }).waitFor();
    assert.equal(await chip.getAttribute('aria-pressed'), 'true');
    await page.waitForURL(/repeated=1/);
    // Only the rows of "Exiting." are left.
    for (const n of [1, 3, 4]) await target(page, n).waitFor();
    assert.equal(await target(page, 2).count(), 0);
    assert.equal(await target(page, 5).count(), 0);
    await screenshot(page, 'repetitions-02-filter');
    await chip.click();
    await target(page, 5).waitFor();
  });

  await step(bert.page, 'repetitions-colleague', async () => {
    await open(bert.page, documents[1], 'bert', 'bert-password-1');
    await row(bert.page, 1).getByRole('img', { name: 'Repetition (5 ×)' }).waitFor();
  });

  await step(page, 'repetitions-confirm', async () => {
    await editTarget(page, 1);
    await page.keyboard.type('Programmende.');
    await page.keyboard.press('Control+Enter');
    // Filled in this grid and confirmed...
    for (const n of [3, 4]) {
      await target(page, n).filter({ hasText: 'Programmende.' }).waitFor();
      await row(page, n).getByText('Confirmed', { exact: true }).waitFor();
    }
    // ...and in the colleague's editor of the other document, live.
    for (const n of [1, 2]) await target(bert.page, n).filter({ hasText: 'Programmende.' }).waitFor();
    await row(bert.page, 2).getByText('Confirmed', { exact: true }).waitFor();
    assert.equal(await target(bert.page, 3).textContent(), '');
    await screenshot(page, 'repetitions-03-filled');
    await screenshot(bert.page, 'repetitions-04-filled-colleague');
    const history = (await api.get(`/v2/segments/history?id=${await idAt(documents[1], 0)}`)).json();
    assert.equal(history.versions[0].origin, 'propagated');
    assert.equal(history.versions[0].user, 'anna');
  });

  await step(page, 'repetitions-unconfirm', async () => {
    await editTarget(page, 1);
    await page.keyboard.press('Control+Shift+Enter');
    for (const n of [3, 4]) await row(page, n).getByText('New', { exact: true }).waitFor();
    await target(page, 3).filter({ hasText: /^$/ }).waitFor();
    for (const n of [1, 2]) await row(bert.page, n).getByText('New', { exact: true }).waitFor();
    await screenshot(page, 'repetitions-05-unconfirmed');
  });
});

test('New project: filling repetitions is on by default and can be turned off', {
  skip: browserSkipReason,
}, async () => {
  const page = anna.page;
  await step(page, 'repetitions-new-project', async () => {
    await page.goto(`${base}/projects`);
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Manual');
    const fill = dialog.getByRole('checkbox', { name: 'Fill repetitions when a segment is confirmed' });
    assert.equal(await fill.isChecked(), true);
    await fill.uncheck();
    await screenshot(page, 'repetitions-06-new-project');
    const created = page.waitForResponse(
      (r) => r.url().endsWith('/v2/projects') && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Create project' }).click();
    const project = await (await created).json();
    assert.equal(project.propagate_repetitions, false);
    await page.getByRole('heading', { name: 'Manual' }).waitFor();
  });
});

async function idAt(documentId: number, index: number): Promise<number> {
  return (await api.get(`/v2/documents/segments?id=${documentId}`)).json().segments[index].id;
}
