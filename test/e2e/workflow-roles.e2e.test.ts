// Roles and the workflow in Chromium, through a real server, by role and accessible name: a project manager
// chooses the project's workflow and assigns a translator and a reviewer on the project page; the translator sees
// only what the role allows (no Memories, Jobs, New project, Pre-translate, Upload, Rename or Delete), is told
// what stops the hand-off, then marks the translation done; the reviewer sends it back; an admin gives the four
// roles. axe-core reports no serious or critical violation on each screen.
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
  step as stepOf,
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const PASSWORDS = { pam: 'pam-password-123', tina: 'tina-password-123', rex: 'rex-password-123' };
const TEXT = 'Welcome to the shop.\n\nYour basket is empty.\n';

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let tinaApi: ReturnType<typeof client>;
let pmApi: ReturnType<typeof client>;
let projectId = 0;
let documentId = 0;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  const pm = (pmApi = client(
    ctx.app,
    await userKey(ctx, {
      username: 'pam',
      password: PASSWORDS.pam,
      role: 'project_manager',
      email: 'pam@shop.test',
    }),
  ));
  tinaApi = client(
    ctx.app,
    await userKey(ctx, {
      username: 'tina',
      password: PASSWORDS.tina,
      role: 'translator',
      email: 'tina@shop.test',
    }),
  );
  await userKey(ctx, { username: 'rex', password: PASSWORDS.rex, role: 'reviewer', email: 'rex@shop.test' });
  const memory = (await pm.post('/v2/memories', { name: 'Shop TM', srclang: 'en', trglang: 'de' })).json().id;
  projectId = (await pm.post('/v2/projects', { name: 'Shop', memory_id: memory })).json().id;
  documentId = await pm.uploadDocument(projectId, 'shop.txt', TEXT);
  browsing = await openBrowser(base);
  page = browsing.page;
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

const step = (name: string, run: () => Promise<void>) => stepOf(page, name, run);

async function noSeriousViolations(screen: string) {
  assert.deepEqual(await axeViolations(page), [], `axe on ${screen}`);
}

const answer = (path: string, method = 'GET') =>
  page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === method);

async function signIn(username: string, password: string) {
  await page.goto(`${base}/projects`);
  await page.getByLabel('Username').waitFor();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Username').waitFor();
}

test('a manager assigns, the translator hands on, the reviewer sends back; each sees only their actions', {
  skip: browserSkipReason,
}, async () => {
  await step('pm-assigns', async () => {
    await signIn('pam', PASSWORDS.pam);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Memories' }).waitFor();
    await page.getByRole('button', { name: 'New project' }).waitFor();
    await page.getByRole('link', { name: 'Shop' }).click();
    await page.getByRole('heading', { name: 'Shop' }).waitFor();
    // The workflow: translate only at first, then translate and review.
    let saved = answer('/v2/projects', 'PUT');
    await page.getByLabel('Workflow').selectOption({ label: 'Translate > Review' });
    assert.equal((await saved).status(), 200);
    const reviewer = page.getByLabel('Reviewer of shop.txt');
    await reviewer.waitFor();
    saved = answer('/v2/documents/share', 'PUT');
    await page.getByLabel('Translator of shop.txt').selectOption({ label: 'tina' });
    assert.equal((await saved).status(), 200);
    saved = answer('/v2/documents/share', 'PUT');
    await reviewer.selectOption({ label: 'rex' });
    assert.equal((await saved).status(), 200);
    const doc = (await (await page.request.get(`${base}/v2/documents?id=${documentId}`)).json()) as {
      translator_email: string;
      reviewer_email: string;
    };
    assert.equal(doc.translator_email, 'tina@shop.test');
    assert.equal(doc.reviewer_email, 'rex@shop.test');
    await page
      .getByRole('row', { name: /shop\.txt/ })
      .getByText('Translation')
      .waitFor();
    await noSeriousViolations('project page, manager');
    await screenshot(page, 'workflow-01-pm-assigns');
    await signOut();
  });

  await step('translator-sees-less', async () => {
    await signIn('tina', PASSWORDS.tina);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Projects' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Memories' }).count(), 0);
    assert.equal(await nav.getByRole('link', { name: 'Jobs' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'New project' }).count(), 0);
    await page.getByRole('link', { name: 'Shop' }).click();
    await page.getByRole('heading', { name: 'Shop' }).waitFor();
    const row = page.getByRole('table', { name: 'Documents' }).getByRole('row', { name: /shop\.txt/ });
    await row.waitFor();
    for (const name of ['Pre-translate', 'Upload files', 'Rename', 'Delete', 'Delete project', 'Archive']) {
      assert.equal(await page.getByRole('button', { name }).count(), 0, `${name} is absent`);
    }
    assert.equal(await page.getByLabel('Workflow').count(), 0);
    await page.getByText('Workflow: Translate > Review').waitFor();
    await noSeriousViolations('project page, translator');
    await screenshot(page, 'workflow-02-translator-project');
    // The memory itself is a manager's: its export answers 403 to the translator's session.
    const memories = (await (await page.request.get(`${base}/v2/memories`)).json()) as { id: number }[];
    const exported = await page.request.get(`${base}/v2/memories/export?id=${memories[0].id}`);
    assert.equal(exported.status(), 403);
  });

  await step('translator-done', async () => {
    await page.getByRole('link', { name: 'shop.txt' }).click();
    await page.getByRole('heading', { name: 'shop.txt' }).waitFor();
    await page.getByText('Stage: Translation').waitFor();
    // Nothing confirmed yet: the server says what stops the hand-off.
    const refused = answer('/v2/documents/done/translation', 'POST');
    await page.getByRole('button', { name: 'Mark translation done' }).click();
    assert.equal((await refused).status(), 409);
    await page.getByRole('alert').filter({ hasText: '2 unconfirmed segments' }).waitFor();
    await screenshot(page, 'workflow-03-translator-not-ready');
    const segments = (await tinaApi.get(`/v2/documents/segments?id=${documentId}`)).json().segments as {
      id: number;
      source: string;
    }[];
    const german: Record<string, string> = {
      'Welcome to the shop.': 'Willkommen im Shop.',
      'Your basket is empty.': 'Ihr Warenkorb ist leer.',
    };
    for (const s of segments) {
      const res = await tinaApi.put('/v2/segments', {
        id: s.id,
        target: german[s.source],
        is_confirmed: true,
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    const done = answer('/v2/documents/done/translation', 'POST');
    await page.getByRole('button', { name: 'Mark translation done' }).click();
    assert.equal((await done).status(), 200);
    await page.getByText('Stage: Review').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Mark translation done' }).count(), 0);
    // In review, the translator's target is read-only, and the head says why.
    await page.getByText('Read only: The document is in Review; you are assigned to Translation').waitFor();
    const target = page.getByRole('textbox', { name: 'Target 1' });
    await target.waitFor();
    assert.equal(await target.getAttribute('aria-readonly'), 'true');
    await noSeriousViolations('editor, translator after done');
    await screenshot(page, 'workflow-04-translator-done');
    await page.getByRole('link', { name: 'Projects' }).first().click();
    await signOut();
  });

  await step('reviewer-sends-back', async () => {
    await signIn('rex', PASSWORDS.rex);
    await page.goto(`${base}/documents/${documentId}`);
    await page.getByRole('heading', { name: 'shop.txt' }).waitFor();
    await page.getByText('Stage: Review').waitFor();
    await page.getByRole('button', { name: 'Mark review done' }).waitFor();
    await noSeriousViolations('editor, reviewer');
    await screenshot(page, 'workflow-05-reviewer');
    const back = answer('/v2/documents/done/translation', 'POST');
    await page.getByRole('button', { name: 'Send back to translation' }).click();
    assert.equal((await back).status(), 200);
    await page.getByText('Stage: Translation').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Mark review done' }).count(), 0);
    await page.getByText('Read only: The document is in Translation; you are assigned to Review').waitFor();
    await screenshot(page, 'workflow-06-sent-back');
    await signOut();
  });

  await step('pm-locks', async () => {
    const first = (await pmApi.get(`/v2/documents/segments?id=${documentId}`)).json().segments[0];
    assert.equal(
      (await pmApi.post('/v2/segments/lock', { document_id: documentId, segment_ids: [first.id] }))
        .statusCode,
      200,
    );
    await signIn('pam', PASSWORDS.pam);
    await page.goto(`${base}/documents/${documentId}`);
    const target = page.getByRole('textbox', { name: 'Target 1' });
    await target.waitFor();
    assert.equal(await target.getAttribute('aria-readonly'), 'true');
    assert.equal(await target.getAttribute('title'), 'Locked by a project manager');
    await page.getByText('Read only: Locked by a project manager').waitFor();
    await screenshot(page, 'workflow-07-pm-locked');
    const unlocked = answer('/v2/segments/lock', 'POST');
    await page.getByRole('button', { name: 'Unlock all segments' }).click();
    assert.equal((await unlocked).status(), 200);
    await page.getByRole('status').filter({ hasText: 'Unlocked 1 segment' }).waitFor();
    // Its pages read again, the target is editable: an editor made anew without aria-readonly.
    await page.waitForFunction(
      `!document.querySelector('[aria-label="Target 1"]')?.hasAttribute('aria-readonly')`,
    );
    await page.getByRole('button', { name: 'Lock 101 % matches' }).click();
    await page.getByRole('status').filter({ hasText: 'No 101 % match to lock' }).waitFor();
    await noSeriousViolations('editor, manager');
    await signOut();
  });

  await step('admin-roles', async () => {
    await signIn('admin', await adminPassword());
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    const role = page.getByLabel('Role of tina');
    assert.equal(await role.inputValue(), 'translator');
    assert.deepEqual(await role.locator('option').allTextContents(), [
      'Admin',
      'Project manager',
      'Translator',
      'Reviewer',
    ]);
    const updated = answer('/v2/users', 'PUT');
    await page.getByLabel('Role of rex').selectOption({ label: 'Translator' });
    assert.equal((await updated).status(), 200);
    await noSeriousViolations('admin');
    await screenshot(page, 'workflow-08-admin-roles');
  });
  assert.deepEqual(browsing.problems, []);
  assert.deepEqual(browsing.foreignRequests, []);
});

/** The bootstrap admin has a key and no password: give it one through the API. */
async function adminPassword() {
  const password = 'admin-password-123';
  const admin = client(ctx.app, ctx.adminKey);
  const me = (await admin.get('/v2/me')).json();
  const res = await admin.put('/v2/users', { id: me.user_id, password });
  assert.equal(res.statusCode, 200, res.body);
  return password;
}
