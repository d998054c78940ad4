// Issue 26's story in Chromium, through a real server, by role and accessible name, each person signed in as
// themself: a project manager creates a project with the Translate > Review workflow, uploads two documents and
// assigns a translator and a reviewer to one; the translator sees only that document, translates, confirms and
// marks the translation done; the reviewer's bell says so, the document opens in review mode by itself, shows
// the translator's version as tracked changes, one segment is edited and set Reviewed with Ctrl+Enter, an MQM
// error is annotated, another segment is sent back with a comment and the document with it; the translator's
// bell says so, they fix the segment, answer the comment and hand it on again; the reviewer signs off; the
// manager exports the document and reads the quality report and its CSV; the translator can neither export the
// memory nor delete an entry (the pages do not offer it, the API answers 403).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
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

const PASSWORDS = { pam: 'pam-password-123', tina: 'tina-password-123', rex: 'rex-password-123' };
const SHOP = 'Welcome to the shop.\n\nYour basket is empty.\n\nAdd a product to continue.\n';
const TERMS = 'These terms apply to every order.\n';
const TINA = [
  'Willkommen im Laden.',
  'Dein Warenkorb ist leer.',
  'Fügen Sie ein Produkt hinzu, um fortzufahren.',
];
const REX = 'Willkommen im Shop.';
const FIXED = 'Ihr Warenkorb ist leer.';

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let pm: ReturnType<typeof client>;
let memoryId = 0;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  pm = client(
    ctx.app,
    await userKey(ctx, {
      username: 'pam',
      password: PASSWORDS.pam,
      role: 'project_manager',
      email: 'pam@shop.test',
    }),
  );
  await userKey(ctx, {
    username: 'tina',
    password: PASSWORDS.tina,
    role: 'translator',
    email: 'tina@shop.test',
  });
  await userKey(ctx, { username: 'rex', password: PASSWORDS.rex, role: 'reviewer', email: 'rex@shop.test' });
  memoryId = (await pm.post('/v2/memories', { name: 'Shop TM', srclang: 'en', trglang: 'de' })).json().id;
  // Another project of the organization, nobody's assignment: the translator never sees it.
  const legal = (await pm.post('/v2/projects', { name: 'Legal', memory_id: memoryId })).json().id;
  await pm.uploadDocument(legal, 'contract.txt', 'The contract ends in May.\n');
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

async function signIn(username: keyof typeof PASSWORDS) {
  await signInAt(page, `${base}/projects`, username, PASSWORDS[username]);
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Username').waitFor();
}

/** The segment as the server has it (the editor saves in the background). */
async function serverSegment(id: number, until: (s: { status: string; target: string }) => boolean) {
  for (let i = 0; i < 200; i++) {
    const s = (await pm.get(`/v2/segments?id=${id}`)).json();
    if (until(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await pm.get(`/v2/segments?id=${id}`)).json();
}

async function noSeriousViolations(screen: string) {
  assert.deepEqual(await axeViolations(page), [], `axe on ${screen}`);
}

test('a team translates, reviews with tracked changes and an MQM error, sends back, fixes, signs off; the manager exports and reads the report', {
  skip: browserSkipReason,
}, async () => {
  let projectId = 0;
  let shopId = 0;
  let segmentIds: number[] = [];
  const target = (n: number) => page.getByRole('textbox', { name: `Target ${n}`, exact: true });
  const comments = page.getByRole('region', { name: 'Comments' });

  await step('pm-creates-and-assigns', async () => {
    await signIn('pam');
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Shop');
    await dialog.getByLabel('Workflow').selectOption({ label: 'Translate > Review' });
    await screenshot(page, 'team-01-pm-new-project');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Shop' }).waitFor();
    projectId = Number(new URL(page.url()).pathname.split('/').pop());
    assert.equal(await page.getByLabel('Workflow').inputValue(), '2', 'created with Translate > Review');
    await page.getByLabel('Upload files').setInputFiles([
      { name: 'shop.txt', mimeType: 'text/plain', buffer: Buffer.from(SHOP) },
      { name: 'terms.txt', mimeType: 'text/plain', buffer: Buffer.from(TERMS) },
    ]);
    const reviewer = page.getByLabel('Reviewer of shop.txt');
    await reviewer.waitFor();
    let saved = answer('/v2/documents/share', 'PUT');
    await page.getByLabel('Translator of shop.txt').selectOption({ label: 'tina' });
    assert.equal((await saved).status(), 200);
    saved = answer('/v2/documents/share', 'PUT');
    await reviewer.selectOption({ label: 'rex' });
    assert.equal((await saved).status(), 200);
    const docs = (await pm.get(`/v2/projects?id=${projectId}`)).json()[0].document as {
      id: number;
      name: string;
    }[];
    shopId = docs.find((d) => d.name === 'shop.txt')!.id;
    const shop = (await pm.get(`/v2/documents?id=${shopId}&with_segments=true`)).json();
    assert.equal(shop.translator_email, 'tina@shop.test');
    assert.equal(shop.reviewer_email, 'rex@shop.test');
    segmentIds = shop.segments.map((s: { id: number }) => s.id);
    await noSeriousViolations('project page, manager');
    await screenshot(page, 'team-02-pm-assigned');
    await signOut();
  });

  await step('translator-translates', async () => {
    await signIn('tina');
    // Only the project of her assignment, and in it only her document.
    await page.getByRole('link', { name: 'Shop' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Legal' }).count(), 0);
    await page.getByRole('link', { name: 'Shop' }).click();
    const documents = page.getByRole('table', { name: 'Documents' });
    await documents.getByRole('link', { name: 'shop.txt' }).waitFor();
    assert.equal(await documents.getByRole('link', { name: 'terms.txt' }).count(), 0);
    await screenshot(page, 'team-03-translator-project');
    await documents.getByRole('link', { name: 'shop.txt' }).click();
    await page.getByText('Stage: Translation').waitFor();
    await page.getByRole('button', { name: 'Replace…' }).waitFor();
    // Nothing a translator may not do: no review mode, no sending back.
    assert.equal(await page.getByRole('button', { name: 'Review mode' }).count(), 0);
    assert.equal(await comments.getByRole('button', { name: 'Send back…' }).count(), 0);
    await target(1).click();
    for (const [i, text] of TINA.entries()) {
      await target(i + 1).click();
      await page.keyboard.type(text);
      await page.keyboard.press('Control+Enter');
    }
    for (const [i, id] of segmentIds.entries()) {
      const s = await serverSegment(id, (x) => x.status === 'confirmed');
      assert.equal(s.target, TINA[i]);
    }
    // Alt+Shift+R is the reviewers' key: for her it opens nothing.
    await target(2).click();
    await page.keyboard.press('Alt+Shift+R');
    assert.equal(await page.getByRole('dialog', { name: /back$/ }).count(), 0);
    await screenshot(page, 'team-04-translator-confirmed');
    const done = answer('/v2/documents/done/translation', 'POST');
    await page.getByRole('button', { name: 'Mark translation done' }).click();
    assert.equal((await done).status(), 200);
    await page.getByText('Stage: Review').waitFor();
    // In review the document is not hers to change: no Replace (the server would refuse it).
    await page.getByRole('button', { name: 'Replace…' }).waitFor({ state: 'detached' });
    // Nor do the status bar's key hints offer a confirmation she cannot make: they begin with moving on.
    await page.getByText(/^Next: .*All shortcuts/).waitFor();
    await noSeriousViolations('editor, translator');
    await screenshot(page, 'team-05-translator-done');
    await page.getByRole('link', { name: 'Projects' }).first().click();
    await signOut();
  });

  await step('reviewer-opens-from-the-bell', async () => {
    await signIn('rex');
    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    const list = page.getByRole('region', { name: 'Notifications' });
    await screenshot(page, 'team-06-reviewer-bell');
    await list.getByRole('link', { name: /^tina handed shop\.txt on to you for review/ }).click();
    await target(1).waitFor();
    // In review, for its reviewer, review mode is on by itself.
    const toggle = page.getByRole('button', { name: 'Review mode', exact: true });
    // The URL says so too (a reload keeps it); replaceState is no navigation, so it is read, not awaited.
    await page.waitForFunction("new URLSearchParams(location.search).get('mode') === 'review'");
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    const changes = page.getByRole('region', { name: 'Changes to the translator’s version' });
    await changes.getByText('Unchanged from the translator’s version by tina.').waitFor();
    await noSeriousViolations('editor, reviewer in review mode');
    await screenshot(page, 'team-07-reviewer-review-mode');
  });

  await step('reviewer-edits-reviews-annotates', async () => {
    await target(1).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(REX);
    const changes = page.getByRole('region', { name: 'Changes to the translator’s version' });
    await changes.getByRole('deletion').filter({ hasText: 'Laden' }).first().waitFor();
    await changes.getByRole('insertion').filter({ hasText: 'Shop' }).first().waitFor();
    await page.keyboard.press('Control+Enter');
    await page.getByRole('button', { name: /^Reviewed 1$/ }).waitFor();
    const reviewed = await serverSegment(segmentIds[0], (s) => s.status === 'reviewed');
    assert.equal(reviewed.target, REX);
    await target(1).click();
    const quality = page.getByRole('region', { name: 'Quality', exact: true });
    await quality.getByLabel('Category').selectOption({ label: 'Terminology' });
    await quality.getByLabel('Severity').selectOption('minor');
    await quality.getByLabel('Note').fill('The glossary says “Shop”.');
    const added = answer('/v2/quality/annotations', 'POST');
    await quality.getByRole('button', { name: 'Add error' }).click();
    assert.equal((await added).status(), 200);
    await quality.getByRole('button', { name: 'Remove the minor Terminology error' }).waitFor();
    await noSeriousViolations('editor, Quality panel');
    await screenshot(page, 'team-08-reviewer-annotated');
  });

  await step('reviewer-sends-back', async () => {
    await target(2).click();
    await page.keyboard.press('Alt+Shift+R');
    const dialog = page.getByRole('dialog', { name: 'Send segment 2 back' });
    await dialog
      .getByRole('textbox', { name: 'What needs changing' })
      .fill('Use the formal “Ihr”, as everywhere else.');
    await screenshot(page, 'team-09-reviewer-send-back');
    const sent = answer('/v2/segments/reject', 'POST');
    await dialog.getByRole('button', { name: 'Send back' }).click();
    assert.equal((await sent).status(), 200);
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await serverSegment(segmentIds[1], (s) => s.status === 'draft')).status, 'draft');
    // The translator can change it only in translation: the document goes back with it.
    const back = answer('/v2/documents/done/translation', 'POST');
    await page.getByRole('button', { name: 'Send back to translation' }).click();
    assert.equal((await back).status(), 200);
    await page.getByText('Stage: Translation').waitFor();
    await screenshot(page, 'team-10-reviewer-sent-back');
    await page.getByRole('link', { name: 'Projects' }).first().click();
    await signOut();
  });

  await step('translator-fixes-and-answers', async () => {
    await signIn('tina');
    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    const list = page.getByRole('region', { name: 'Notifications' });
    await list.getByRole('link', { name: /^rex sent shop\.txt back to you for translation/ }).waitFor();
    await screenshot(page, 'team-11-translator-bell');
    await list.getByRole('link', { name: /^rex sent back segment 2 of shop\.txt/ }).click();
    await target(2).waitFor();
    assert.match(page.url(), /seg=2/);
    // The reviewed segment is signed off: read-only for her.
    await comments.getByText(/formal “Ihr”/).waitFor();
    await target(1).click();
    await page.getByText('Read only: Signed off in review').waitFor();
    assert.equal(await target(1).getAttribute('aria-readonly'), 'true');
    await target(2).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(FIXED);
    await page.keyboard.press('Control+Enter');
    assert.equal((await serverSegment(segmentIds[1], (s) => s.status === 'confirmed')).target, FIXED);
    await target(2).click();
    await comments.getByRole('button', { name: 'Reply' }).click();
    await comments.getByRole('textbox', { name: 'Reply to rex' }).fill('Done: “Ihr” now.');
    const replied = answer('/v2/comments', 'POST');
    await comments.getByRole('button', { name: 'Send reply' }).click();
    assert.equal((await replied).status(), 201);
    await comments.getByRole('article', { name: 'Comment by tina' }).waitFor();
    await screenshot(page, 'team-12-translator-fixed');
    const done = answer('/v2/documents/done/translation', 'POST');
    await page.getByRole('button', { name: 'Mark translation done' }).click();
    assert.equal((await done).status(), 200);
    await page.getByText('Stage: Review').waitFor();
  });

  await step('translator-cannot-export-or-delete', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    assert.equal(await nav.getByRole('link', { name: 'Memories' }).count(), 0);
    await page.goto(`${base}/memories/${memoryId}`);
    await page.getByText('Only project managers and admins see this page.').waitFor();
    for (const name of [/export/i, /delete/i]) {
      assert.equal(await page.getByRole('button', { name }).count(), 0, `${name} is absent`);
    }
    await screenshot(page, 'team-13-translator-no-memory');
    const exported = await page.request.get(`${base}/v2/memories/export?id=${memoryId}`);
    assert.equal(exported.status(), 403);
    const entries = (await pm.get(`/v2/memories/entries?id=${memoryId}`)).json().entries as { id: number }[];
    assert.ok(entries.length > 0, 'the confirmations are in the memory');
    const deleted = await page.request.delete(
      `${base}/v2/memories/segment?id=${memoryId}&segment_id=${entries[0].id}`,
    );
    assert.equal(deleted.status(), 403);
    assert.equal((await pm.get(`/v2/memories/entries?id=${memoryId}`)).json().total, entries.length);
    await page.goto(`${base}/projects`);
    await signOut();
  });

  await step('reviewer-signs-off', async () => {
    await signIn('rex');
    await page.goto(`${base}/documents/${shopId}?seg=2`);
    await target(2).waitFor();
    // Review mode turns on by itself once the document's stage is read (after the grid may show): waited for.
    await page.getByRole('button', { name: 'Review mode', exact: true, pressed: true }).waitFor();
    const thread = comments.getByRole('list', { name: 'Comments on segment 2' });
    await thread.getByRole('article', { name: 'Comment by tina' }).getByText('Done: “Ihr” now.').waitFor();
    // Answered: the reviewer resolves the thread and signs the segment off.
    const resolved = answer('/v2/comments', 'PUT');
    await comments.getByRole('button', { name: 'Resolve' }).click();
    assert.equal((await resolved).status(), 200);
    await page.getByRole('img', { name: '1 resolved comment' }).waitFor();
    await target(2).click();
    await page.keyboard.press('Control+Enter');
    await page.getByRole('button', { name: /^Reviewed 2$/ }).waitFor();
    await target(3).click();
    await page.keyboard.press('Control+Enter');
    await page.getByRole('button', { name: /^Reviewed 3$/ }).waitFor();
    for (const id of segmentIds) await serverSegment(id, (s) => s.status === 'reviewed');
    const done = answer('/v2/documents/done/review', 'POST');
    await page.getByRole('button', { name: 'Mark review done' }).click();
    assert.equal((await done).status(), 200);
    await page.getByText('Stage: Done').waitFor();
    await page
      .getByText('Read only: The workflow is done; a project manager can reopen the document')
      .waitFor();
    await screenshot(page, 'team-14-reviewer-signed-off');
    const doc = (await pm.get(`/v2/documents?id=${shopId}`)).json();
    assert.equal(doc.stage, 'done');
    assert.equal(doc.is_review_complete, true);
    await page.getByRole('link', { name: 'Projects' }).first().click();
    await signOut();
  });

  await step('pm-exports-and-reads-the-report', async () => {
    await signIn('pam');
    await page.getByRole('link', { name: 'Shop' }).click();
    const row = page.getByRole('table', { name: 'Documents' }).getByRole('row', { name: /shop\.txt/ });
    await row.getByText('Workflow done', { exact: true }).waitFor();
    await screenshot(page, 'team-15-pm-project-done');
    const [original] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Export original' }).click(),
    ]);
    assert.equal(original.suggestedFilename(), 'shop.de.txt');
    assert.equal(await readFile((await original.path())!, 'utf8'), `${REX}\n\n${FIXED}\n\n${TINA[2]}\n`);
    await row.getByRole('link', { name: 'Quality report' }).click();
    await page.getByRole('heading', { name: 'Quality report', level: 1 }).waitFor();
    const errors = page.getByRole('table', { name: /Errors found/ });
    const error = errors.getByRole('row').filter({ hasText: 'glossary' });
    await error.getByText('Terminology').waitFor();
    await error.getByRole('link', { name: 'Segment 1 in the editor' }).waitFor();
    await noSeriousViolations('quality report');
    await screenshot(page, 'team-16-pm-quality-report');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'shop.quality.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    assert.match(csv, /^Segment,Category,Severity,Penalty points,/);
    assert.match(csv, /\r\n1,Terminology,Minor,1,/);
  });
  assert.deepEqual(browsing.problems, []);
  assert.deepEqual(browsing.foreignRequests, []);
});
