// The memory and admin screens in Chromium, through a real server: a memory is created, imported into (progress,
// then the result; a broken file's error with line and column), browsed, searched, an entry edited and deleted,
// queried in the "try a query" box, exported, renamed (and set to keep several translations) and deleted; an admin creates a user and a key (shown
// once), the key works over the API, revoking it makes it 401 at once; "My account" changes the password.
// axe-core reports no serious or critical violation on each screen. Elements by role and accessible name.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
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

const PASSWORD = 'ada-correct-horse-42';
const tu = (en: string, de: string) =>
  `<tu><tuv xml:lang="en"><seg>${en}</seg></tuv><tuv xml:lang="de"><seg>${de}</seg></tuv></tu>`;
const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="test" creationtool="test" creationtoolversion="1"/><body>
${tu('Delete 3 files', '3 Dateien löschen')}
${tu('Open the settings page.', 'Öffnen Sie die Einstellungsseite.')}
${tu('Save your work often.', 'Speichern Sie Ihre Arbeit oft.')}
${Array.from({ length: 60 }, (_, i) => tu(`Line ${i + 1} of the import.`, `Zeile ${i + 1} des Imports.`)).join('\n')}
</body></tmx>`;
const BROKEN_TMX = '<?xml version="1.0"?>\n<tmx version="1.4">\n<body>\n<tu><tuv xml:lang="en"><seg>Half';

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

async function noSeriousViolations(screen: string) {
  assert.deepEqual(await axeViolations(page), [], `axe on ${screen}`);
}

const answer = (path: string, method = 'GET') =>
  page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === method);

async function signIn(username: string, password: string) {
  await page.goto(`${base}/projects`);
  await page.getByLabel('Username').waitFor();
  await noSeriousViolations('sign-in page');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}

test('memory screens: create, import, browse, edit, query, export, rename, delete', {
  skip: browserSkipReason,
}, async () => {
  let memoryId = 0;
  await step('memories', async () => {
    await signIn('ada', PASSWORD);
    await noSeriousViolations('projects');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Memories' }).click();
    await page.getByRole('heading', { name: 'Memories' }).waitFor();
    await noSeriousViolations('memories');
    await page.getByRole('button', { name: 'New memory' }).click();
    const dialog = page.getByRole('dialog', { name: 'New memory' });
    await dialog.getByLabel('Name').fill('Support de');
    const created = answer('/v2/memories', 'POST');
    await dialog.getByRole('button', { name: 'Create memory' }).click();
    memoryId = (await (await created).json()).id;
    await page.getByRole('link', { name: 'Support de' }).click();
    await page.getByRole('heading', { name: 'Support de' }).waitFor();
    await noSeriousViolations('memory page (empty)');
  });

  await step('import', async () => {
    // A broken file first: the error names the line and column.
    await page.getByLabel('Import a file into the memory').setInputFiles({
      name: 'broken.tmx',
      mimeType: 'application/x-tmx+xml',
      buffer: Buffer.from(BROKEN_TMX),
    });
    const failure = page.getByRole('alert').filter({ hasText: 'Import failed' });
    await failure.waitFor();
    assert.match(await failure.innerText(), /line \d+/i);
    assert.match(await failure.innerText(), /column \d+/i);
    await screenshot(page, 'memory-01-import-error');

    await page.getByLabel('Import a file into the memory').setInputFiles({
      name: 'support.tmx',
      mimeType: 'application/x-tmx+xml',
      buffer: Buffer.from(TMX),
    });
    await page.getByRole('status').filter({ hasText: 'Imported 63, skipped 0, duplicates 0.' }).waitFor();
    await page.getByText('63 entries', { exact: true }).waitFor();
    await screenshot(page, 'memory-02-imported');
  });

  await step('browse', async () => {
    const entries = page.getByRole('table', { name: 'Entries' });
    await entries.waitFor();
    assert.equal(await entries.getByRole('row').count(), 51, 'a page of 50 entries and the header');
    const paged = answer('/v2/memories/entries');
    await page.getByRole('button', { name: 'Next page' }).click();
    await paged;
    await page.getByText('51–63 of 63').waitFor();
    const searched = answer('/v2/memories/entries');
    await page.getByLabel('Search the entries').fill('settings');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await searched;
    await page.getByText('1–1 of 1').waitFor();
    const row = entries.getByRole('row').filter({ hasText: 'Open the settings page.' });
    await row.getByRole('button', { name: /^Edit entry/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit entry' });
    await dialog.getByLabel('Target').fill('Öffnen Sie die Seite mit den Einstellungen.');
    const saved = answer('/v2/memories/segment', 'PUT');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    assert.equal((await saved).status(), 200);
    await entries.getByText('Öffnen Sie die Seite mit den Einstellungen.').waitFor();
    assert.match(await row.innerText(), /ada/, 'who changed it last');
    const deleted = answer('/v2/memories/segment', 'DELETE');
    await row.getByRole('button', { name: /^Delete entry/ }).click();
    assert.equal((await deleted).status(), 200);
    await page.getByText('No entry holds “settings”.').waitFor();
    await noSeriousViolations('memory entries');
    await screenshot(page, 'memory-03-entry-edited');
  });

  await step('query', async () => {
    await page.getByLabel('Source sentence (en)').fill('Delete 12 files');
    await page.getByRole('button', { name: 'Look up' }).click();
    const matches = page.getByRole('region', { name: 'Matches' });
    await matches.getByText('3 Dateien löschen').waitFor();
    // The editor's rendering: the word diff and the penalty chips.
    assert.equal(await matches.getByRole('deletion').first().innerText(), '3');
    assert.equal(await matches.getByRole('insertion').first().innerText(), '12');
    assert.ok((await matches.getByRole('list', { name: 'Points off' }).getByRole('listitem').count()) > 0);
    await screenshot(page, 'memory-04-query');
  });

  await step('export-rename-delete', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export TMX' }).click();
    assert.match((await download).suggestedFilename(), /\.tmx$/);
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Memory settings' });
    await settings.getByLabel('Name').fill('Support (de)');
    await settings.getByRole('checkbox', { name: 'Keep several translations per source' }).check();
    const saved = answer('/v2/memories', 'PUT');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    assert.equal((await (await saved).json()).multiple_translations, true);
    await page.getByText('Several translations per source').waitFor();
    await page.getByRole('heading', { name: 'Support (de)' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Support (de)?' });
    await dialog.getByText('its 62 entries').waitFor();
    await noSeriousViolations('delete memory dialog');
    await screenshot(page, 'memory-05-delete');
    const deleted = answer('/v2/memories', 'DELETE');
    await dialog.getByRole('button', { name: 'Delete memory' }).click();
    assert.equal((await deleted).status(), 200);
    await page.getByRole('heading', { name: 'Memories' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Support (de)' }).count(), 0);
    assert.ok(memoryId > 0);
  });
});

test('admin screens: a user and a key that works until revoked; my account', {
  skip: browserSkipReason,
}, async () => {
  let key = '';
  await step('admin-users', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByLabel('Username').fill('bert');
    await dialog.getByLabel('Initial password').fill('bert-first-password');
    const created = answer('/v2/users', 'POST');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    assert.equal((await created).status(), 200);
    const users = page.getByRole('table', { name: 'Users' });
    const bert = users.getByRole('row').filter({ hasText: 'bert' });
    await bert.waitFor();
    // Role, password reset and disabling go through PUT /v2/users.
    let updated = answer('/v2/users', 'PUT');
    await bert.getByLabel('Role of bert').selectOption('admin');
    assert.equal((await updated).status(), 200);
    await page.getByRole('button', { name: 'Reset password of bert' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset the password of bert' });
    await reset.getByLabel('New password').fill('bert-second-password');
    updated = answer('/v2/users', 'PUT');
    await reset.getByRole('button', { name: 'Set password' }).click();
    assert.equal((await updated).status(), 200);
    updated = answer('/v2/users', 'PUT');
    await bert.getByRole('button', { name: 'Disable bert' }).click();
    assert.equal((await updated).status(), 200);
    await bert.getByText('Disabled').waitFor();
    updated = answer('/v2/users', 'PUT');
    await bert.getByRole('button', { name: 'Enable bert' }).click();
    assert.equal((await updated).status(), 200);
    await bert.getByText('Active').waitFor();
    await noSeriousViolations('admin');
    await screenshot(page, 'admin-01-users');
  });

  await step('admin-key', async () => {
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel('Name').fill('ci-sync');
    await dialog.getByLabel('For user').selectOption({ label: 'bert' });
    const created = answer('/v2/keys', 'POST');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    key = (await (await created).json()).key;
    const shown = page.getByRole('dialog', { name: 'API key created' });
    assert.equal(await shown.getByLabel('Key ci-sync').inputValue(), key);
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await shown
      .getByRole('status')
      .filter({ hasText: /Copied|refused/ })
      .waitFor();
    await screenshot(page, 'admin-02-key-shown');
    await shown.getByRole('button', { name: 'Done' }).click();
    // Shown once: nowhere on the page any more.
    assert.equal(await page.getByText(key).count(), 0);
    const me = await fetch(`${base}/v2/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { username: string }).username, 'bert');
    // The key list shows its last use once it was used.
    await page.reload();
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'ci-sync' });
    await row.waitFor();
    await screenshot(page, 'admin-03-keys');
    const revoked = answer('/v2/keys', 'DELETE');
    await row.getByRole('button', { name: 'Revoke key ci-sync of bert' }).click();
    assert.equal((await revoked).status(), 200);
    await row.getByText('Revoked').waitFor();
    const after = await fetch(`${base}/v2/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(after.status, 401);
  });

  await step('account', async () => {
    await page.getByRole('link', { name: 'My account: ada' }).click();
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    await noSeriousViolations('my account');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('ada-second-password');
    await page.getByLabel('Repeat the new password').fill('ada-second-password');
    const changed = answer('/v2/me/password', 'PUT');
    await page.getByRole('button', { name: 'Change password' }).click();
    assert.equal((await changed).status(), 200);
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    // Own keys: made here, shown once, listed with the others of mine, revoked.
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel('Name').fill('laptop');
    const created = answer('/v2/keys', 'POST');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const own = (await (await created).json()) as { key: string };
    const shown = page.getByRole('dialog', { name: 'API key created' });
    assert.equal(await shown.getByLabel('Key laptop').inputValue(), own.key);
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'laptop' });
    const revoked = answer('/v2/keys', 'DELETE');
    await row.getByRole('button', { name: 'Revoke key laptop of ada' }).click();
    assert.equal((await revoked).status(), 200);
    await row.getByText('Revoked').waitFor();
    assert.equal(
      await page
        .getByRole('table', { name: 'API keys' })
        .getByRole('row')
        .filter({ hasText: 'bert' })
        .count(),
      0,
      'only my own keys',
    );
    await screenshot(page, 'account-01');
    assert.deepEqual(browsing.foreignRequests, []);
  });
});
