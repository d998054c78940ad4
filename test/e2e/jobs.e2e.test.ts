// The Jobs page in Chromium through a real server: a job made over the API (two target languages) is listed with
// its languages and words; its analysis shows exact, fuzzy and new words per language pair; it is exported, the
// zip downloaded, and delivered. axe-core reports no serious or critical violation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { client } from '../helpers/api.ts';
import {
  axeViolations,
  type Browsing,
  browserSkipReason,
  openBrowser,
  screenshot,
} from '../helpers/browser.ts';
import { createContext, type TestContext, userKey } from '../helpers/context.ts';
import { storeTargets } from '../helpers/stores.ts';
import { ensureWebBuild } from '../helpers/web-build.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let api: ReturnType<typeof client>;
let jobId = 0;

before(async () => {
  if (browserSkipReason) return;
  await ensureWebBuild();
  const [sqlite] = await storeTargets();
  ctx = await createContext(sqlite, { TESSERA_LANGUAGES: 'en,de,fr' });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
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
    await page.goto(`${base}/jobs`);
    await page.getByLabel('Username').fill('anna');
    await page.getByLabel('Password').fill('anna-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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
    assert.equal(await table.getByRole('row').count(), 1 + stats.projects.length + 1);
    assert.match(
      await table.getByRole('row').last().innerText(),
      new RegExp(`All\\s+${stats.sourceWords}\\b`),
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
    assert.equal((await delivered).status(), 200);
    await row.getByRole('button', { name: 'Reactivate Guide' }).waitFor();
    await screenshot(page, 'jobs-02-delivered');
  } catch (err) {
    (err as Error).message += `\n(screenshot: ${await screenshot(page, 'failure-jobs').catch(() => 'none')})`;
    throw err;
  }
});
