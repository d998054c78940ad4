// Edits that are never lost, conflicts, and live updates, in two Chromium profiles through a real server: an edit
// made offline waits in the outbox ("1 pending (offline)"), survives a reload, and is saved once the network is
// back; a confirmation by one translator shows in the other's editor within a second; two edits of one segment
// meet as a conflict shown side by side, settled by "Keep mine". Elements by role and accessible name; waits
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
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const SOURCES = [
  'Open the file.',
  'Save the file.',
  'Close the file.',
  'Print the file.',
  'Rename the file.',
];

let ctx: TestContext;
let base: string;
let anna: Browsing;
let bert: Browsing;
let api: ReturnType<typeof client>;
let documentId = 0;
let segmentIds: number[] = [];

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  api = client(
    ctx.app,
    await userKey(ctx, { username: 'anna', password: 'anna-password-1', role: 'member' }),
  );
  await userKey(ctx, { username: 'bert', password: 'bert-password-1', role: 'member' });
  const memory = (await api.post('/v2/memories', { name: 'Files de', srclang: 'en', trglang: 'de' })).json();
  const project = (await api.post('/v2/projects', { name: 'Files', memory_id: memory.id })).json();
  const uploaded = await api.upload('/v2/documents/files', SOURCES.join('\n\n'), {
    'lilt-api': JSON.stringify({ name: 'files.txt', project_id: project.id }),
  });
  documentId = uploaded.json().id;
  for (;;) {
    if (!(await api.get(`/v2/documents?id=${documentId}`)).json().import_in_progress) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  segmentIds = (await api.get(`/v2/documents/segments?id=${documentId}&limit=100`))
    .json()
    .segments.map((s: { id: number }) => s.id);
  anna = await openBrowser(base);
  bert = await openBrowser(base, { width: 1280, height: 800 });
});

after(async () => {
  await anna?.close();
  await bert?.close();
  await ctx?.close();
});

async function step(page: Page, name: string, run: () => Promise<void>) {
  try {
    await run();
  } catch (err) {
    const shot = await screenshot(page, `failure-${name}`).catch(() => 'none');
    if (bert?.page && bert.page !== page) await screenshot(bert.page, `failure-${name}-bert`).catch(() => {});
    (err as Error).message += `\n(screenshot: ${shot})`;
    throw err;
  }
}

async function open(page: Page, username: string, password: string) {
  await signInAt(page, `${base}/documents/${documentId}?seg=1`, username, password);
  await page.getByRole('grid', { name: 'Segments' }).waitFor();
}

const saved = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/v2/segments') && r.request().method() === 'PUT');
const targetOf = async (id: number) => (await api.get(`/v2/segments?id=${id}`)).json().target as string;
const target = (page: Page, n: number) => page.getByRole('textbox', { name: `Target ${n}`, exact: true });
const saveState = (page: Page) => page.getByRole('status');

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

test('an edit made offline survives a reload and is saved when the network is back', {
  skip: browserSkipReason,
}, async () => {
  const page = anna.page;
  await step(page, 'offline', async () => {
    await open(page, 'anna', 'anna-password-1');
    await editTarget(page, 1);
    await anna.context.setOffline(true);
    await page.keyboard.type('Offline gespeichert.');
    await page.keyboard.press('Alt+ArrowDown');
    await saveState(page).filter({ hasText: '1 pending (offline)' }).waitFor();
    await page.getByText('Offline: edits are kept here').waitFor();
    await screenshot(page, 'offline-01-pending');
    // The server stays out of reach for saves while the page is loaded again.
    await page.route('**/v2/segments', (route) =>
      route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.continue(),
    );
    await anna.context.setOffline(false);
    await page.reload();
    await page.getByRole('grid', { name: 'Segments' }).waitFor();
    await saveState(page).filter({ hasText: '1 pending (offline)' }).waitFor();
    await target(page, 1).filter({ hasText: 'Offline gespeichert.' }).waitFor();
    assert.equal(await targetOf(segmentIds[0]), null);
    // The network is back.
    await page.unroute('**/v2/segments');
    const put = saved(page);
    await anna.context.setOffline(true);
    await anna.context.setOffline(false);
    assert.equal((await put).status(), 200);
    await saveState(page).filter({ hasText: 'All changes saved' }).waitFor();
    assert.equal(await targetOf(segmentIds[0]), 'Offline gespeichert.');
  });
});

test('a confirmation in one browser shows in the other within a second; a conflict is settled side by side', {
  skip: browserSkipReason,
}, async () => {
  const a = anna.page;
  const b = bert.page;
  await step(b, 'live', async () => {
    await open(b, 'bert', 'bert-password-1');
    await target(b, 2).waitFor();
    await editTarget(a, 2);
    await a.keyboard.type('Speichern Sie die Datei.');
    const put = saved(a);
    await a.keyboard.press('Control+Enter');
    assert.equal((await put).status(), 200);
    const confirmedAt = Date.now();
    await target(b, 2).filter({ hasText: 'Speichern Sie die Datei.' }).waitFor({ timeout: 1000 });
    assert.ok(Date.now() - confirmedAt < 1000, `seen after ${Date.now() - confirmedAt} ms`);
    await b
      .getByRole('row')
      .filter({ hasText: 'Save the file.' })
      .getByText('Confirmed', { exact: true })
      .waitFor({ timeout: 1000 });
    await screenshot(b, 'live-01-seen-by-bert');
  });

  await step(a, 'conflict', async () => {
    // Both on segment 3: anna types, bert saves first, then anna's save meets his.
    await editTarget(a, 3);
    await a.keyboard.type('Version von Anna.');
    await editTarget(b, 3);
    await b.keyboard.type('Version von Bert.');
    const bertSaved = saved(b);
    await b.keyboard.press('Alt+ArrowDown');
    assert.equal((await bertSaved).status(), 200);
    const annaRefused = saved(a);
    await a.keyboard.press('Alt+ArrowDown');
    const refused = await annaRefused;
    assert.equal(refused.status(), 409);
    const dialog = a.getByRole('dialog', { name: 'Conflict in segment 3' });
    await dialog.getByRole('region', { name: 'Your version' }).getByText('Version von Anna.').waitFor();
    assert.match(await dialog.getByRole('region', { name: /^Current version/ }).innerText(), /Bert/);
    assert.deepEqual(await axeViolations(a), [], 'axe on the conflict view');
    await screenshot(a, 'conflict-01');
    const kept = saved(a);
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    assert.equal((await kept).status(), 200);
    assert.equal(await targetOf(segmentIds[2]), 'Version von Anna.');
    await saveState(a).filter({ hasText: 'All changes saved' }).waitFor();
    // And bert sees it live.
    await target(b, 3).filter({ hasText: 'Version von Anna.' }).waitFor({ timeout: 1000 });
    assert.deepEqual(anna.foreignRequests, []);
  });
});

test('the project page follows progress live, without polling', { skip: browserSkipReason }, async () => {
  const b = bert.page;
  await step(b, 'project-live', async () => {
    await b.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Files' }).click();
    const progress = b.getByRole('progressbar', { name: 'files.txt: segments confirmed' });
    await progress.waitFor();
    const before = Number(await progress.getAttribute('aria-valuenow'));
    // Nothing is busy: the page does not poll, so only the event can bring the change.
    let polls = 0;
    b.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v2/projects') polls++;
    });
    const confirmed = await api.put('/v2/segments', {
      id: segmentIds[4],
      target: 'Benennen Sie die Datei um.',
      is_confirmed: true,
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    await b
      .getByRole('progressbar', { name: 'files.txt: segments confirmed' })
      .and(b.locator(`[aria-valuenow="${before + 1}"]`))
      .waitFor({ timeout: 1000 });
    assert.ok(polls <= 1, `${polls} reads of the project: one for the event, no polling`);
    await screenshot(b, 'live-02-project');
  });
});
