// QA, find and replace, and history in the editor, in Chromium through a real server: the QA list under the
// segment as one types, Ctrl+Enter refused by an error until "Confirm anyway", the document's QA count; replace
// with a preview scoped by status, applied as one batch and undone; a segment's versions with their diff, one
// restored. axe-core reports no serious or critical violation. Elements by role and accessible name; waits
// follow the API's answers.
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

const PASSWORD = 'anna-correct-horse-42';
const SOURCES = [
  'Delete 3 files.',
  'Open the file.',
  'Save the file.',
  'Close the file.',
  'Print the file.',
  'Rename the file.',
];

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let api: ReturnType<typeof client>;
let documentId = 0;
let segmentIds: number[] = [];

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  api = client(ctx.app, await userKey(ctx, { username: 'anna', password: PASSWORD, role: 'member' }));
  const memory = (await api.post('/v2/memories', { name: 'Files de', srclang: 'en', trglang: 'de' })).json();
  const project = (await api.post('/v2/projects', { name: 'Files', memory_id: memory.id })).json();
  const uploaded = await api.upload('/v2/documents/files', SOURCES.join('\n\n'), {
    'lilt-api': JSON.stringify({ name: 'files.txt', project_id: project.id }),
  });
  documentId = uploaded.json().id;
  for (;;) {
    const doc = (await api.get(`/v2/documents?id=${documentId}`)).json();
    if (!doc.import_in_progress) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const segments = (await api.get(`/v2/documents/segments?id=${documentId}&limit=100`)).json().segments;
  segmentIds = segments.map((s: { id: number }) => s.id);
  // Targets for the replace: segments 2–4 confirmed, 5–6 drafts, all with "Datei".
  const targets = ['', 'Öffnen Sie die Datei.', 'Speichern Sie die Datei.', 'Schließen Sie die Datei.'];
  for (let i = 1; i < 4; i++)
    await api.put('/v2/segments', { id: segmentIds[i], target: targets[i], is_confirmed: true });
  await api.put('/v2/segments', { id: segmentIds[4], target: 'Drucken Sie die Datei.' });
  await api.put('/v2/segments', { id: segmentIds[5], target: 'Benennen Sie die Datei um.' });
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

const targetOf = async (id: number) => (await api.get(`/v2/segments?id=${id}`)).json().target as string;

/** Clicks a target and waits until its editor has the focus (typing before would go nowhere). */
async function editTarget(page: Page, n: number) {
  await page.getByRole('textbox', { name: `Target ${n}`, exact: true }).click();
  // A function, not a string: the page's Content-Security-Policy forbids eval.
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

test('QA blocks a confirmation until "Confirm anyway"; replace with preview, apply, undo; history restore', {
  skip: browserSkipReason,
}, async () => {
  await step('sign-in', async () => {
    await signInAt(page, `${base}/documents/${documentId}?seg=1`, 'anna', PASSWORD);
    await page.getByRole('grid', { name: 'Segments' }).waitFor();
  });

  await step('qa', async () => {
    await editTarget(page, 1);
    await page.keyboard.type('Dateien löschen');
    const issues = page.getByRole('list', { name: 'QA issues of segment 1' });
    await issues.getByRole('listitem').filter({ hasText: /3/ }).first().waitFor();
    const texts = await issues.getByRole('listitem').allInnerTexts();
    assert.ok(
      texts.some((t) => t.startsWith('Error')),
      texts.join(' | '),
    );
    // Ctrl+Enter is refused: no confirmation is sent.
    let confirmations = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith('/v2/segments') && r.postDataJSON()?.is_confirmed)
        confirmations++;
    });
    await page.keyboard.press('Control+Enter');
    const refusal = page.getByRole('alert').filter({ hasText: 'Not confirmed: 1 QA error' });
    await refusal.waitFor();
    assert.equal(confirmations, 0);
    assert.deepEqual(await axeViolations(page), [], 'axe on the editor with QA issues');
    await screenshot(page, 'qa-01-blocked');
    const confirmed = page.waitForResponse(
      (r) =>
        r.url().endsWith('/v2/segments') &&
        r.request().method() === 'PUT' &&
        r.request().postDataJSON().is_confirmed,
    );
    await refusal.getByRole('button', { name: 'Confirm anyway' }).click();
    const saved = await (await confirmed).json();
    assert.equal(saved.target, 'Dateien löschen');
    assert.equal(saved.is_confirmed, true);
    // The document's QA count, from the server's own report.
    const report = (await api.get(`/v2/documents/qa?id=${documentId}`)).json();
    assert.ok(report.counts.error >= 1);
    await page.getByText(new RegExp(`^QA: ${report.counts.error} errors?,`)).waitFor();
  });

  await step('replace', async () => {
    await page.keyboard.press('Control+Shift+F');
    const dialog = page.getByRole('dialog', { name: 'Find and replace' });
    // A regular expression: "Dateien" of segment 1 (confirmed too) is not a match.
    await dialog.getByLabel('Find').fill('\\bDatei\\b');
    await dialog.getByLabel('Regular expression').check();
    await dialog.getByLabel('Replace with').fill('Akte');
    await dialog.getByLabel('Confirmed').check();
    const previewed = answer('/v2/documents/replace', 'POST');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = await (await previewed).json();
    assert.equal(preview.changed, 3);
    await dialog.getByRole('status').filter({ hasText: '3 segments would change.' }).waitFor();
    assert.equal(await dialog.getByRole('table', { name: 'Changes' }).getByRole('row').count(), 4);
    assert.equal(await targetOf(segmentIds[1]), 'Öffnen Sie die Datei.', 'a preview changes nothing');
    assert.deepEqual(await axeViolations(page), [], 'axe on the replace preview');
    await screenshot(page, 'replace-01-preview');
    const applied = answer('/v2/documents/replace', 'POST');
    await dialog.getByRole('button', { name: 'Replace all' }).click();
    assert.equal((await (await applied).json()).changed, 3);
    await dialog.getByRole('status').filter({ hasText: 'Replaced in 3 segments.' }).waitFor();
    assert.equal(await targetOf(segmentIds[1]), 'Öffnen Sie die Akte.');
    assert.equal(await targetOf(segmentIds[4]), 'Drucken Sie die Datei.', 'a draft is out of the scope');
    await page
      .getByRole('gridcell', { name: 'Öffnen Sie die Akte.' })
      .or(page.getByText('Öffnen Sie die Akte.'))
      .first()
      .waitFor();
    const undone = answer('/v2/documents/replace/undo', 'POST');
    await dialog.getByRole('button', { name: 'Undo' }).click();
    assert.equal((await undone).status(), 200);
    await dialog
      .getByRole('status')
      .filter({ hasText: /^Undone/ })
      .waitFor();
    assert.equal(await targetOf(segmentIds[1]), 'Öffnen Sie die Datei.');
    await screenshot(page, 'replace-02-undone');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await step('history', async () => {
    // Segment 2: confirmed by the seed, then changed by the replace and its undo.
    await editTarget(page, 2);
    const read = answer('/v2/segments/history');
    await page.getByRole('button', { name: 'History' }).click();
    const history = await (await read).json();
    assert.ok(history.versions.length >= 2, JSON.stringify(history));
    const versions = page.getByRole('list', { name: 'Versions of segment 2' });
    await versions.getByRole('listitem').first().waitFor();
    assert.equal(await versions.getByRole('listitem').count(), history.versions.length);
    // The replaced version shows its word diff against the one before.
    const akte = history.versions.find((v: { target: string }) => v.target === 'Öffnen Sie die Akte.');
    assert.ok(akte, JSON.stringify(history.versions));
    assert.ok((await versions.getByRole('insertion').allInnerTexts()).includes('Akte'));
    assert.deepEqual(await axeViolations(page), [], 'axe on the history');
    await screenshot(page, 'history-01');
    const restored = answer('/v2/segments/restore', 'POST');
    await versions.getByRole('button', { name: `Restore version ${akte.version}` }).click();
    assert.equal((await restored).status(), 200);
    assert.equal(await targetOf(segmentIds[1]), 'Öffnen Sie die Akte.');
    await page
      .getByRole('textbox', { name: 'Target 2', exact: true })
      .filter({ hasText: 'Öffnen Sie die Akte.' })
      .waitFor();
    // The project page, for axe too.
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { name: 'Files' }).waitFor();
    // The document's QA count, as in the editor.
    const counts = (await api.get(`/v2/documents/qa?id=${documentId}`)).json().counts;
    await page
      .getByRole('row')
      .filter({ hasText: 'files.txt' })
      .getByText(new RegExp(`^${counts.error} errors?, ${counts.warning} warnings?$`))
      .waitFor();
    assert.deepEqual(await axeViolations(page), [], 'axe on the project page');
    await screenshot(page, 'project-qa');
    assert.deepEqual(browsing.foreignRequests, []);
    assert.deepEqual(browsing.problems, []);
  });
});
