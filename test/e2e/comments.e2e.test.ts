// Comments, mentions, notifications and sending a segment back, in Chromium through a real server: a reviewer
// comments on a segment from the keyboard with an @mention, filters the unresolved ones, sends a segment back
// with a comment (one request), sees the translator's reply arrive live; the translator's bell counts the
// mention and the send-back, gains one live, and a notification opens the segment. Elements by role and
// accessible name; axe-core reports no serious or critical violation.
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

const RITA = 'rita-correct-horse-42';
const TOM = 'tom-correct-horse-42';
const SOURCES = ['Open the file.', 'Save the file.', 'Close the file.', 'Print the file.'];

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let rita: ReturnType<typeof client>;
let tom: ReturnType<typeof client>;
let documentId = 0;
let segmentIds: number[] = [];

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  rita = client(ctx.app, await userKey(ctx, { username: 'rita', password: RITA, role: 'member' }));
  tom = client(ctx.app, await userKey(ctx, { username: 'tom', password: TOM, role: 'member' }));
  const memory = (await rita.post('/v2/memories', { name: 'Files de', srclang: 'en', trglang: 'de' })).json();
  const project = (await rita.post('/v2/projects', { name: 'Files', memory_id: memory.id })).json();
  documentId = await rita.uploadDocument(project.id, 'files.txt', SOURCES.join('\n\n'));
  const segments = (await rita.get(`/v2/documents/segments?id=${documentId}&limit=100`)).json().segments;
  segmentIds = segments.map((s: { id: number }) => s.id);
  // The translator's work: every segment confirmed by tom.
  const targets = [
    'Öffnen Sie die Datei.',
    'Speichern Sie die Datei.',
    'Schließen Sie die Datei.',
    'Drucken.',
  ];
  for (let i = 0; i < 4; i++)
    await tom.put('/v2/segments', { id: segmentIds[i], target: targets[i], is_confirmed: true });
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

async function signIn(username: string, password: string, path: string) {
  await signInAt(page, `${base}${path}`, username, password);
}

test('a reviewer comments with a mention, filters, sends back; the translator is notified and follows the link', {
  skip: browserSkipReason,
}, async () => {
  const comments = page.getByRole('region', { name: 'Comments' });

  await step('comment from the keyboard', async () => {
    await signIn('rita', RITA, `/documents/${documentId}?seg=2`);
    await page.getByRole('grid', { name: 'Segments' }).waitFor();
    await comments.getByText('No comment on segment 2.').waitFor();
    await page.getByRole('textbox', { name: 'Target 2', exact: true }).click();
    await page.keyboard.press('Alt+M');
    const box = comments.getByRole('textbox', { name: 'Comment on segment 2' });
    await box.waitFor();
    assert.equal(await box.evaluate((el) => el === el.ownerDocument.activeElement), true, 'Alt+M focuses it');
    await page.keyboard.type('@tom is "Speichern" right here? The glossary says "Sichern".');
    const created = answer('/v2/comments', 'POST');
    await page.keyboard.press('Control+Enter');
    assert.equal((await created).status(), 201);
    const thread = comments.getByRole('list', { name: 'Comments on segment 2' });
    await thread.getByRole('article', { name: 'Comment by rita' }).waitFor();
    assert.equal(await thread.locator('mark').innerText(), '@tom', 'the mention is marked');
    assert.equal(await box.inputValue(), '', 'the box is emptied');
    // The row is marked: one unresolved thread.
    await page.getByRole('img', { name: '1 unresolved comment' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'axe on the Comments panel');
    await screenshot(page, 'comments-panel');
  });

  await step('unresolved filter', async () => {
    const chip = page.getByRole('button', { name: /^Unresolved comments/ });
    await chip.getByText('1').waitFor();
    await chip.click();
    await page.getByRole('status').filter({ hasText: '1 shown' }).waitFor();
    assert.match(page.url(), /unresolved=1/);
    assert.equal(await page.getByRole('textbox', { name: /^Target \d+$/ }).count(), 1);
    await screenshot(page, 'comments-unresolved-filter');
    await page.getByRole('button', { name: /^All/ }).click();
    await page.getByRole('textbox', { name: 'Target 4', exact: true }).waitFor();
  });

  await step('resolve and reopen', async () => {
    await page.getByRole('textbox', { name: 'Target 2', exact: true }).click();
    const resolved = answer('/v2/comments', 'PUT');
    await comments.getByRole('button', { name: 'Resolve' }).click();
    await resolved;
    await comments.getByText('Resolved', { exact: true }).waitFor();
    await page.getByRole('img', { name: '1 resolved comment' }).waitFor();
    await page
      .getByRole('button', { name: /^Unresolved comments/ })
      .getByText('0')
      .waitFor();
    await comments.getByRole('button', { name: 'Reopen' }).click();
    await page
      .getByRole('button', { name: /^Unresolved comments/ })
      .getByText('1')
      .waitFor();
  });

  await step('send back with Alt+Shift+R', async () => {
    await page.getByRole('textbox', { name: 'Target 3', exact: true }).click();
    await page.keyboard.press('Alt+Shift+R');
    const dialog = page.getByRole('dialog', { name: 'Send segment 3 back' });
    await dialog.waitFor();
    await dialog
      .getByRole('textbox', { name: 'What needs changing' })
      .fill('"Schließen" is fine, but use the formal imperative consistently.');
    await screenshot(page, 'comments-send-back-dialog');
    const sent = answer('/v2/segments/reject', 'POST');
    await dialog.getByRole('button', { name: 'Send back' }).click();
    assert.equal((await sent).status(), 200);
    await dialog.waitFor({ state: 'hidden' });
    const segment = (await rita.get(`/v2/segments?id=${segmentIds[2]}`)).json();
    assert.equal(segment.status, 'draft');
    assert.equal(segment.target, 'Schließen Sie die Datei.');
    await comments
      .getByRole('list', { name: 'Comments on segment 3' })
      .getByText(/formal imperative/)
      .waitFor();
  });

  await step('a reply arrives live', async () => {
    const [first] = (await rita.get(`/v2/comments?document_id=${documentId}`)).json()[segmentIds[2]];
    await tom.post(`/v2/comments?document_id=${documentId}`, { text: 'Done, thanks.', parent_id: first.id });
    await comments.getByRole('article', { name: 'Comment by tom' }).getByText('Done, thanks.').waitFor();
    await screenshot(page, 'comments-live-reply');
  });

  await step('the help lists the keys', async () => {
    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: /shortcuts/i });
    await help.getByText('Send the segment back to its translator with a comment…').waitFor();
    await help.getByText('Comment on the segment (the Comments panel’s box)').waitFor();
    await page.keyboard.press('Escape');
  });

  await step('the translator’s bell', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('tom', TOM, '/projects');
    const bell = page.getByRole('button', { name: 'Notifications, 2 unread' });
    await bell.waitFor();
    // Live: a new mention raises the count without a reload.
    await rita.post(`/v2/comments?document_id=${documentId}&segment_id=${segmentIds[3]}`, {
      text: '@tom "Drucken." needs the object.',
    });
    await page.getByRole('button', { name: 'Notifications, 3 unread' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Notifications, 3 unread' }).click();
    const list = page.getByRole('region', { name: 'Notifications' });
    await list.getByRole('link', { name: /^rita sent back segment 3 of files\.txt/ }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'axe on the open bell');
    await screenshot(page, 'comments-bell');
    const read = answer('/v2/notifications/read', 'POST');
    await list.getByRole('link', { name: /^rita mentioned you on segment 4 of files\.txt/ }).click();
    await read;
    await page.getByRole('textbox', { name: 'Target 4', exact: true }).waitFor();
    assert.match(page.url(), new RegExp(`/documents/${documentId}\\?seg=4`));
    await page.getByRole('button', { name: 'Notifications, 2 unread' }).waitFor();
    await comments
      .getByRole('list', { name: 'Comments on segment 4' })
      .getByText(/needs the object/)
      .waitFor();
    await screenshot(page, 'comments-translator-follows-link');
  });

  assert.deepEqual(browsing.foreignRequests, []);
  assert.deepEqual(browsing.problems, []);
});
