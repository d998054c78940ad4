// Segmentation in Chromium through a real server (issue 25): the project's segmentation setting in the New
// project dialog and on the project page; in the editor, two sentences of one paragraph joined with Alt+J, a
// join across paragraphs refused saying why, and the segment split again with Alt+Shift+J where the translator
// clicked in the source and left the cursor in the target. axe-core reports no serious or critical violation.
// Elements by role and accessible name; waits follow the API's answers.
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
const TEXT = 'Open the file. Save it again.\n\nClose it.\n';

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let api: ReturnType<typeof client>;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  api = client(ctx.app, await userKey(ctx, { username: 'anna', password: PASSWORD, role: 'member' }));
  await api.post('/v2/memories', { name: 'Files de', srclang: 'en', trglang: 'de' });
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

interface Segment {
  id: number;
  source: string;
  target: string | null;
  status: string;
}

const segmentsOf = async (documentId: number) =>
  (await api.get(`/v2/documents/segments?id=${documentId}&limit=100`)).json().segments as Segment[];

/** Waits until the target editor of segment `n` has the focus (typing before would go nowhere). */
async function editorFocused(page: Page, n: number) {
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

test('the project chooses its segmentation; the editor joins and splits segments of one paragraph', {
  skip: browserSkipReason,
}, async () => {
  let projectId = 0;
  let documentId = 0;

  await step('sign-in', async () => {
    await signInAt(page, `${base}/projects`, 'anna', PASSWORD);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
  });

  await step('new project', async () => {
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Manual');
    const segmentation = dialog.getByRole('combobox', { name: 'Segmentation', exact: true });
    assert.equal(await segmentation.inputValue(), 'auto');
    await segmentation.selectOption('sentence');
    await screenshot(page, 'segmentation-01-new-project');
    const created = answer('/v2/projects', 'POST');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    const project = await (await created).json();
    assert.equal(project.segmentation, 'sentence');
    projectId = project.id;
  });

  await step('project setting', async () => {
    await page.getByRole('heading', { name: 'Manual' }).waitFor();
    const setting = page.getByRole('region', { name: 'Segmentation' });
    const select = setting.getByRole('combobox', { name: 'Segmentation', exact: true });
    assert.equal(await select.inputValue(), 'sentence');
    await setting.getByText('Sentence rules: built-in').waitFor();
    const saved = answer('/v2/projects', 'PUT');
    await select.selectOption('auto');
    assert.equal((await (await saved).json()).segmentation, 'auto');
    await setting.getByText('Saved: documents uploaded from now on are segmented this way.').waitFor();
    const download = page.waitForEvent('download');
    await setting.getByRole('button', { name: 'Download SRX' }).click();
    assert.equal((await download).suggestedFilename(), `project-${projectId}-segmentation.srx`);
    assert.deepEqual(await axeViolations(page), [], 'axe on the project page');
    await screenshot(page, 'segmentation-02-project-setting');
  });

  await step('editor: join', async () => {
    const uploaded = await api.upload('/v2/documents/files', TEXT, {
      'lilt-api': JSON.stringify({ name: 'steps.txt', project_id: projectId }),
    });
    documentId = uploaded.json().id;
    for (;;) {
      const doc = (await api.get(`/v2/documents?id=${documentId}`)).json();
      if (!doc.import_in_progress) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.deepEqual(
      (await segmentsOf(documentId)).map((s) => s.source),
      ['Open the file.', 'Save it again.', 'Close it.'],
    );
    await page.goto(`${base}/documents/${documentId}?seg=1`);
    await page.getByRole('grid', { name: 'Segments' }).waitFor();
    await editorFocused(page, 1);
    const joined = answer('/v2/segments/join', 'POST');
    await page.keyboard.press('Alt+J');
    assert.equal((await joined).status(), 200);
    const grid = page.getByRole('grid', { name: 'Segments' });
    await grid.getByRole('row').filter({ hasText: 'Open the file. Save it again.' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Segments 1 and 2 joined' }).waitFor();
    await editorFocused(page, 1);
    assert.deepEqual(await axeViolations(page), [], 'axe on the editor after a join');
    await screenshot(page, 'segmentation-03-joined');

    // Across paragraphs: refused, saying why.
    const refused = answer('/v2/segments/join', 'POST');
    await page.keyboard.press('Alt+J');
    assert.equal((await refused).status(), 409);
    await page
      .getByRole('status')
      .filter({ hasText: 'Segments 1 and 2 belong to different paragraphs' })
      .waitFor();
    await screenshot(page, 'segmentation-04-join-refused');
  });

  await step('editor: split', async () => {
    await editorFocused(page, 1);
    await page.keyboard.type('Öffne die Datei. Speichere sie erneut.');
    // The target's cursor after "Datei. ", the source's before "Save": clicked there, as a translator does.
    await page.keyboard.press('Home');
    for (let i = 0; i < 17; i++) await page.keyboard.press('ArrowRight');
    const at = await page.evaluate(() => {
      const { document } = globalThis as unknown as {
        document: {
          querySelector(s: string): {
            querySelectorAll(s: string): ArrayLike<{ firstChild: unknown; textContent: string }>;
          } | null;
          createRange(): {
            setStart(n: unknown, o: number): void;
            setEnd(n: unknown, o: number): void;
            getBoundingClientRect(): { left: number; top: number; height: number };
          };
        };
      };
      const runs = document.querySelector('[role="row"][aria-selected="true"] [data-source-of]')!;
      const run = Array.from(runs.querySelectorAll('[data-from]')).find((r) =>
        r.textContent.includes('Save'),
      )!;
      const range = document.createRange();
      const offset = run.textContent.indexOf('Save');
      range.setStart(run.firstChild, offset);
      range.setEnd(run.firstChild, offset + 1);
      const rect = range.getBoundingClientRect();
      return { x: rect.left + 1, y: rect.top + rect.height / 2 };
    });
    await page.mouse.click(at.x, at.y);
    const split = answer('/v2/segments/split', 'POST');
    await page.keyboard.press('Alt+Shift+J');
    const result = await (await split).json();
    assert.deepEqual(
      result.segments.map((s: Segment) => [s.source, s.target, s.status]),
      [
        ['Open the file.', 'Öffne die Datei.', 'draft'],
        ['Save it again.', 'Speichere sie erneut.', 'draft'],
      ],
    );
    const grid = page.getByRole('grid', { name: 'Segments' });
    await grid.getByRole('row').filter({ hasText: 'Speichere sie erneut.' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Segment 1 split at the cursor' }).waitFor();
    assert.deepEqual(
      (await segmentsOf(documentId)).map((s) => [s.source, s.target]),
      [
        ['Open the file.', 'Öffne die Datei.'],
        ['Save it again.', 'Speichere sie erneut.'],
        ['Close it.', null],
      ],
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the editor after a split');
    await screenshot(page, 'segmentation-05-split');
    // The history of the segment shows the split.
    const read = answer('/v2/segments/history');
    await page.getByRole('button', { name: 'History' }).click();
    const history = await (await read).json();
    assert.equal(history.versions[0].origin, 'split');
    await page.getByRole('list', { name: 'Versions of segment 1' }).getByRole('listitem').first().waitFor();
    await screenshot(page, 'segmentation-06-history');
  });
});
