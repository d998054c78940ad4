// The Jobs page in Chromium through a real server: a job made over the API (two target languages) is listed with
// its languages and words; its analysis shows words by band per file and language pair; it is exported, the
// zip downloaded, and delivered after a confirmation. axe-core reports no serious or critical violation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
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

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let api: ReturnType<typeof client>;
let jobId = 0;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de,fr'));
  api = client(
    ctx.app,
    await userKey(ctx, { username: 'anna', password: 'anna-password-1', role: 'member' }),
  );
  const de = (await api.post('/v2/memories', { name: 'de', srclang: 'en', trglang: 'de' })).json().id;
  const fr = (await api.post('/v2/memories', { name: 'fr', srclang: 'en', trglang: 'fr' })).json().id;
  const file = (
    await api.upload('/v2/files?name=guide.txt', 'Open the file.\n\nSave the file.\n\nClose it.')
  ).json();
  const created = await api.post('/v2/jobs', {
    name: 'Guide',
    fileIds: [file.id],
    srcLang: 'en',
    languagePairs: [
      { trgLang: 'de', memoryId: de },
      { trgLang: 'fr', memoryId: fr },
    ],
  });
  assert.equal(created.statusCode, 200, created.body);
  jobId = created.json().id;
  for (;;) {
    if ((await api.get(`/v2/jobs/${jobId}`)).json().creationStatus !== 'PENDING') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  browsing = await openBrowser(base);
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

test('the Jobs page lists a job, analyses it, exports and downloads its zip, delivers it', {
  skip: browserSkipReason,
}, async () => {
  const { page } = browsing;
  try {
    await signInAt(page, `${base}/jobs`, 'anna', 'anna-password-1');
    await page.getByRole('heading', { name: 'Jobs' }).waitFor();
    const row = page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: 'Guide' });
    await row.waitFor();
    assert.match(await row.innerText(), /en → de, fr|en → fr, de/);
    assert.deepEqual(await axeViolations(page), [], 'axe on the jobs page');

    const analysed = page.waitForResponse((r) => r.url().endsWith(`/v2/jobs/${jobId}/stats`));
    await row.getByRole('button', { name: 'Analyse Guide' }).click();
    const stats = await (await analysed).json();
    const dialog = page.getByRole('dialog', { name: 'Analysis of Guide' });
    const table = dialog.getByRole('table', { name: 'Leverage analysis' });
    await table.waitFor();
    // The header, then per pair its heading, a row per file and its total, then the job's total.
    assert.equal(await table.getByRole('row').count(), 1 + stats.projects.length * 3 + 1);
    assert.match(
      await table.getByRole('row').last().innerText(),
      new RegExp(`All language pairs(\\s+\\d+){7}\\s+${stats.sourceWords}\\b`),
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the analysis');
    await screenshot(page, 'jobs-01-analysis');
    await dialog.getByRole('button', { name: 'Close' }).click();

    const exported = page.waitForResponse((r) => r.url().includes(`/v2/jobs/${jobId}/export`));
    await row.getByRole('button', { name: 'Export Guide' }).click();
    assert.equal((await exported).status(), 200);
    for (;;) {
      const job = (await api.get(`/v2/jobs/${jobId}`)).json();
      if (job.isProcessing !== 1) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Download Guide' }).click();
    assert.match((await download).suggestedFilename(), /\.zip$/);

    const delivered = page.waitForResponse((r) => r.url().endsWith(`/v2/jobs/${jobId}/deliver`));
    await row.getByRole('button', { name: 'Deliver Guide' }).click();
    // Nothing is confirmed: delivering asks first.
    await page
      .getByRole('dialog', { name: 'Deliver Guide?' })
      .getByRole('button', { name: 'Deliver anyway' })
      .click();
    assert.equal((await delivered).status(), 200);
    await row.getByRole('button', { name: 'Reactivate Guide' }).waitFor();
    await screenshot(page, 'jobs-02-delivered');
  } catch (err) {
    (err as Error).message += `\n(screenshot: ${await screenshot(page, 'failure-jobs').catch(() => 'none')})`;
    throw err;
  }
});

test('New job: files uploaded, pairs chosen in the table, the job made with their options', {
  skip: browserSkipReason,
}, async () => {
  const { page } = browsing;
  try {
    // Signed in by the test above: the session cookie is the browser context's.
    await page.goto(`${base}/jobs`);
    await page.getByRole('button', { name: 'New job' }).click();
    const dialog = page.getByRole('dialog', { name: 'New job' });
    await dialog.getByLabel('Job name').fill('Release notes');
    // Nothing chosen yet: the dialog says what is missing, and nothing is sent.
    await dialog.getByRole('button', { name: 'Create job' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Choose at least one source file.' }).waitFor();
    await dialog.getByLabel('Source files').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Open the file.\n\nPrint it.') },
      { name: 'more.md', mimeType: 'text/markdown', buffer: Buffer.from('# Save\n\nSave the file.\n') },
    ]);
    const pairs = dialog.getByRole('table', { name: 'Language pairs' });
    await pairs.getByRole('checkbox', { name: 'German (de)', exact: true }).check();
    await pairs.getByRole('checkbox', { name: 'French (fr)', exact: true }).check();
    await pairs.getByRole('checkbox', { name: 'Pre-translate into French (fr)' }).uncheck();
    // Auto-accept is off until chosen, and says what it confirms.
    const accept = pairs.getByRole('combobox', { name: 'Auto-accept into German (de)' });
    assert.equal(await accept.inputValue(), 'none');
    await accept.selectOption({ label: 'Confirm exact matches (100 %, identical text and tags)' });
    assert.equal(
      await dialog.getByRole('alert').count(),
      0,
      'the stale message is gone once the form changed',
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the new job dialog');
    await screenshot(page, 'jobs-03-new-job');
    const posted = page.waitForRequest((r) => r.url().endsWith('/v2/jobs') && r.method() === 'POST');
    const created = page.waitForResponse(
      (r) => r.url().endsWith('/v2/jobs') && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Create job' }).click();
    const body = (await posted).postDataJSON();
    assert.equal((await created).status(), 200);
    assert.equal(body.name, 'Release notes');
    assert.equal(body.srcLang, 'en');
    assert.equal(body.fileIds.length, 2);
    assert.deepEqual(
      body.languagePairs.map(
        (p: { trgLang: string; pretranslate: boolean; autoAccept: boolean; autoAcceptScope?: string }) => [
          p.trgLang,
          p.pretranslate,
          p.autoAccept,
          p.autoAcceptScope,
        ],
      ),
      [
        ['de', true, true, 'exact'],
        ['fr', false, false, undefined],
      ],
    );
    // The server made it: two projects, one document per file each, and the page lists it.
    const job = await (await created).json();
    let made = (await api.get(`/v2/jobs/${job.id}`)).json();
    while (made.creationStatus === 'PENDING') {
      await new Promise((r) => setTimeout(r, 25));
      made = (await api.get(`/v2/jobs/${job.id}`)).json();
    }
    assert.equal(made.creationStatus, 'COMPLETE');
    assert.deepEqual(made.stats.projects.map((p: { trgLang: string }) => p.trgLang).sort(), ['de', 'fr']);
    const files = (await api.get('/v2/files')).json().map((f: { name: string }) => f.name);
    assert.ok(files.includes('notes.txt') && files.includes('more.md'));
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('table', { name: 'Jobs' })
      .getByRole('row')
      .filter({ hasText: 'Release notes' })
      .waitFor();
  } catch (err) {
    (err as Error).message +=
      `\n(screenshot: ${await screenshot(page, 'failure-new-job').catch(() => 'none')})`;
    throw err;
  }
});
