// The Admin screen's "Machine translation" section in Chromium, through a real server: an admin adds an
// Apertium engine pointing at a live apertium-apy, tests it (the sample's translation shown), adds a second
// engine (a closed port) and moves it up and down, renames the first, disables it, sets the organization's monthly limit, and
// removes both after confirming; the API agrees at each step. A secret field is a password input, shown as
// set and never filled in. axe-core finds no serious violation. Elements
// by role and accessible name; screenshots in .tmp/screenshots/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { KINDS } from '../../src/modules/mt/providers/registry.ts';
import { type Apertium, startApertium } from '../helpers/apertium.ts';
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
const SECRET = 'sk-e2e-0123456789-never-shown';

// The server runs in this process: Apertium is given a secret field here (it ignores it), so that the form's
// password input, its "set" state and the secret never reaching the page are seen with a live engine.
if (!KINDS.apertium.fields.some((f) => f.secret)) {
  KINDS.apertium.fields.push({
    name: 'key',
    label: 'API key',
    help: 'The key the engine was given.',
    required: false,
    secret: true,
  });
}
let apertium: Apertium | null = null;
let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let adaKey: string;

before(async () => {
  if (browserSkipReason) return;
  apertium = await startApertium();
  if (!apertium) return;
  ({ ctx, base } = await serveWebApp('en,es'));
  adaKey = await userKey(ctx, { username: 'ada', password: PASSWORD, role: 'admin' });
  browsing = await openBrowser(base);
  page = browsing.page;
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
  await apertium?.stop();
});

const step = (name: string, run: () => Promise<void>) => stepOf(page, name, run);
const answer = (path: string, method = 'GET') =>
  page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === method);

test('admin: add an Apertium engine, test it, reorder, disable, limit, remove', {
  skip: browserSkipReason ?? false,
}, async (t) => {
  if (!apertium) {
    t.skip('apertium-apy is not installed');
    return;
  }
  const api = client(ctx.app, adaKey);
  const section = () => page.getByRole('region', { name: 'Machine translation' });
  const engines = () => section().getByRole('table', { name: 'Machine translation engines' });
  const orderOfLabels = async () =>
    ((await api.get('/v2/translate/engines')).json().engines as { label: string }[]).map((e) => e.label);

  await step('mt-admin-open', async () => {
    await signInAt(page, `${base}/projects`, 'ada', PASSWORD);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await section().getByRole('heading', { name: 'Machine translation' }).waitFor();
    await section().getByText('This organization has no engines of its own.').waitFor();
  });

  await step('mt-admin-add', async () => {
    await section().getByRole('button', { name: 'Add engine' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a machine translation engine' });
    assert.equal(await dialog.getByLabel('Kind').inputValue(), 'apertium');
    await dialog.getByLabel('Name').fill('Local Apertium');
    await dialog.getByLabel('Server address').fill(apertium!.url);
    const key = dialog.getByLabel('API key (optional)');
    assert.equal(await key.getAttribute('type'), 'password');
    await key.fill(SECRET);
    await screenshot(page, 'mt-admin-01-add');
    assert.deepEqual(await axeViolations(page), [], 'axe on the add dialog');
    const created = answer('/v2/translate/engines', 'POST');
    await dialog.getByRole('button', { name: 'Add engine' }).click();
    assert.equal((await created).status(), 201);
    await engines()
      .getByRole('row')
      .filter({ hasText: 'Local Apertium' })
      .filter({ hasText: 'key: set' })
      .waitFor();
    assert.deepEqual(await orderOfLabels(), ['Local Apertium']);
    assert.ok(!(await page.content()).includes(SECRET), 'the secret is not on the page');
  });

  await step('mt-admin-test', async () => {
    await engines().getByRole('button', { name: 'Test Local Apertium' }).click();
    const status = section().getByRole('status', { name: 'Engine test result' });
    await status.filter({ hasText: 'Local Apertium works' }).waitFor();
    const text = await status.textContent();
    assert.match(text ?? '', /“The house is small\.” → “La casa es pequeña\.” \(en→es\)/);
    await screenshot(page, 'mt-admin-02-tested');
  });

  await step('mt-admin-change', async () => {
    await engines().getByRole('button', { name: 'Change Local Apertium' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Local Apertium' });
    assert.equal(await dialog.getByLabel('Server address').inputValue(), apertium!.url, 'prefilled');
    const key = dialog.getByLabel('API key (optional)');
    assert.equal(await key.inputValue(), '', 'a secret is never filled in');
    assert.equal(await key.getAttribute('placeholder'), 'Set — leave empty to keep it');
    await dialog.getByText('A value is stored; leave empty to keep it.').waitFor();
    await screenshot(page, 'mt-admin-02b-change');
    await dialog.getByLabel('Name').fill('Apertium en-es');
    const saved = answer(
      `/v2/translate/engines/${(await api.get('/v2/translate/engines')).json().engines[0].id}`,
      'PUT',
    );
    await dialog.getByRole('button', { name: 'Save engine' }).click();
    assert.equal((await saved).status(), 200);
    await engines().getByRole('row').filter({ hasText: 'Apertium en-es' }).waitFor();
    assert.deepEqual(await orderOfLabels(), ['Apertium en-es']);
    const kept = (await api.get('/v2/translate/engines')).json().engines[0];
    assert.deepEqual(kept.secrets_set, ['key'], 'kept when left empty');
  });

  await step('mt-admin-reorder', async () => {
    await section().getByRole('button', { name: 'Add engine' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a machine translation engine' });
    await dialog.getByLabel('Name').fill('Backup');
    await dialog.getByLabel('Server address').fill('http://127.0.0.1:9');
    await dialog.getByRole('button', { name: 'Add engine' }).click();
    await engines().getByRole('row').filter({ hasText: 'Backup' }).waitFor();
    assert.equal(await engines().getByRole('button', { name: 'Move Apertium en-es up' }).isDisabled(), true);
    const moved = answer('/v2/translate/engines/order', 'PUT');
    await engines().getByRole('button', { name: 'Move Backup up' }).click();
    assert.equal((await moved).status(), 200);
    await engines().getByRole('button', { name: 'Move Backup down' }).waitFor();
    // Row 0 is the header: the first engine's row reads Backup now.
    await engines().getByRole('row').nth(1).filter({ hasText: 'Backup' }).waitFor();
    assert.deepEqual(await orderOfLabels(), ['Backup', 'Apertium en-es']);
    await engines().getByRole('button', { name: 'Disable Backup' }).click();
    await engines().getByRole('button', { name: 'Enable Backup' }).waitFor();
    assert.equal((await api.get('/v2/translate/engines')).json().engines[0].enabled, false);
    await engines().getByRole('button', { name: 'Move Backup down' }).click();
    await engines().getByRole('button', { name: 'Move Backup up' }).waitFor();
    assert.deepEqual(await orderOfLabels(), ['Apertium en-es', 'Backup']);
  });

  await step('mt-admin-limit', async () => {
    await section().getByLabel('Monthly character limit of the organization (empty for none)').fill('50000');
    const saved = answer('/v2/translate/limit', 'PUT');
    await section().getByRole('button', { name: 'Save limit' }).click();
    assert.equal((await saved).status(), 200);
    await section().getByText("of the organization's limit of 50,000").waitFor();
    assert.equal((await api.get('/v2/translate/engines')).json().limit.monthly_limit, 50_000);
    assert.deepEqual(await axeViolations(page), [], 'axe on the admin screen');
    await screenshot(page, 'mt-admin-03-ordered');
  });

  await step('mt-admin-remove', async () => {
    for (const label of ['Backup', 'Apertium en-es']) {
      await engines()
        .getByRole('button', { name: `Remove ${label}` })
        .click();
      const confirm = page.getByRole('dialog', { name: `Remove ${label}?` });
      const removed = page.waitForResponse((r) => r.request().method() === 'DELETE');
      await confirm.getByRole('button', { name: 'Remove engine' }).click();
      assert.equal((await removed).status(), 200);
    }
    await section().getByText('This organization has no engines of its own.').waitFor();
    assert.deepEqual(await orderOfLabels(), []);
    await screenshot(page, 'mt-admin-04-removed');
  });
});
