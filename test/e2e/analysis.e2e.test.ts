// The analysis and the project's own actions in Chromium through a real server (issue 25): the job analysis
// dialog with its bands per file, weighted words, weights and CSV export; Download disabled before an export;
// delivering at 0 % asks first; words by status on the project page; a project's settings (name, memory, due
// date), archive with the list's Archived filter, and deletion confirmed in a dialog naming it; the translated
// original named with its target language; the document's words in the editor's header.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { countWords } from '../../src/matching/word-count.ts';
import { client } from '../helpers/api.ts';
import {
  axeViolations,
  type Browsing,
  browserSkipReason,
  openBrowser,
  screenshot,
  signInAt,
  step,
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const GUIDE = 'Open the file.\n\nSave the files now.\n\nOpen the file.\n\nClose it.\n';

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let api: ReturnType<typeof client>;
let jobId = 0;
let projectId = 0;
let otherMemory = 0;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  api = client(ctx.app, await userKey(ctx, { username: 'ada', password: 'ada-password-1', role: 'admin' }));
  const de = (await api.post('/v2/memories', { name: 'German TM', srclang: 'en', trglang: 'de' })).json().id;
  otherMemory = (await api.post('/v2/memories', { name: 'Client TM', srclang: 'en', trglang: 'de' })).json()
    .id;
  await api.post('/v2/segments', {
    memory_id: de,
    source: 'Open the file.',
    target: 'Öffnen Sie die Datei.',
  });
  await api.post('/v2/segments', { memory_id: de, source: 'Save the file now.', target: 'Speichern.' });
  const file = (await api.upload('/v2/files?name=guide.txt', GUIDE)).json();
  const created = await api.post('/v2/jobs', {
    name: 'Guide',
    fileIds: [file.id],
    srcLang: 'en',
    languagePairs: [{ trgLang: 'de', memoryId: de }],
  });
  assert.equal(created.statusCode, 200, created.body);
  jobId = created.json().id;
  for (;;) {
    const job = (await api.get(`/v2/jobs/${jobId}`)).json();
    if (job.creationStatus !== 'PENDING') {
      projectId = job.stats.projects[0].id;
      break;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  browsing = await openBrowser(base);
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

test('the job analysis: bands per file, weighted words, weights, CSV; Download after Export; delivery asks', {
  skip: browserSkipReason,
}, async () => {
  const { page } = browsing;
  await signInAt(page, `${base}/jobs`, 'ada', 'ada-password-1');
  const row = page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: 'Guide' });

  await step(page, 'analysis-download-disabled', async () => {
    await row.waitFor();
    const download = row.getByRole('button', { name: 'Download Guide' });
    assert.equal(await download.isDisabled(), true, 'no zip before an export');
    assert.match((await download.getAttribute('title')) ?? '', /Export the job first/);
  });

  const dialog = page.getByRole('dialog', { name: 'Analysis of Guide' });
  await step(page, 'analysis-dialog', async () => {
    await row.getByRole('button', { name: 'Analyse Guide' }).click();
    const table = dialog.getByRole('table', { name: 'Leverage analysis' });
    await table.waitFor();
    const header = await table.getByRole('row').first().innerText();
    assert.match(
      header.replace(/\s+/g, ' '),
      /FILE 101% 100% 95–99% 85–94% 75–84% REPETITIONS MT NEW WORDS WEIGHTED/i,
    );
    await table.getByRole('rowheader', { name: 'en → de' }).waitFor();
    const file = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'guide.txt' }) });
    const cells = (await file.getByRole('cell').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    const open = countWords('Open the file.');
    const total = countWords(GUIDE);
    // 101 %, 100 %, three fuzzy bands, repetitions, MT, new, words, weighted.
    assert.deepEqual(cells.slice(0, 2), [0, open]);
    assert.equal(cells[2] + cells[3] + cells[4], countWords('Save the files now.'));
    assert.deepEqual(cells.slice(5, 9), [open, 0, countWords('Close it.'), total]);
    await dialog.getByText(/Weighted words:/).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'axe on the analysis');
    await screenshot(page, 'analysis-01-dialog');
  });

  await step(page, 'analysis-weights', async () => {
    const weighted = async () => (await dialog.getByText(/Weighted words:/).innerText()).replace(/\s+/g, ' ');
    const before = await weighted();
    await dialog.getByLabel('Weight of New').fill('50');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/v2/analysis/weights') && r.request().method() === 'PUT',
    );
    await dialog.getByRole('button', { name: 'Save weights' }).click();
    assert.equal((await saved).status(), 200);
    await dialog.getByRole('status').filter({ hasText: 'Weights saved.' }).waitFor();
    for (let i = 0; (await weighted()) === before; i++) {
      assert.ok(i < 400, 'the analysis is weighed again');
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal((await api.get('/v2/analysis/weights')).json().weights.new, 50);
    await screenshot(page, 'analysis-02-weights');
  });

  await step(page, 'analysis-csv', async () => {
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'Guide-analysis.csv');
    const csv = await readFile((await file.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    assert.match(lines[0], /^Source language,Target language,File,Segments,Words,101% \(context\) words,/);
    assert.match(lines[1], /^en,de,guide\.txt,4,/);
    assert.match(lines.at(-1)!, /^,,Weights \(% of a new word\),,,0,10,30,60,80,10,72,50,,$/);
    await dialog.getByRole('button', { name: 'Reset to defaults' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Weights reset to the defaults.' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await step(page, 'analysis-deliver-asks', async () => {
    await row.getByRole('button', { name: 'Deliver Guide' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deliver Guide?' });
    await confirm.getByText('No segment of this job is confirmed yet (0% translated).').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'axe on the delivery confirmation');
    await screenshot(page, 'analysis-03-deliver-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await api.get(`/v2/jobs/${jobId}`)).json().status, 'active', 'Cancel delivers nothing');
    await row.getByRole('button', { name: 'Deliver Guide' }).click();
    await confirm.getByRole('button', { name: 'Deliver anyway' }).click();
    await row.getByRole('button', { name: 'Reactivate Guide' }).waitFor();
    assert.equal((await api.get(`/v2/jobs/${jobId}`)).json().status, 'delivered');
  });
});

test("a project's words by status, settings, archive and deletion", { skip: browserSkipReason }, async () => {
  const { page } = browsing;
  const project = (await api.get(`/v2/projects?id=${projectId}`)).json()[0];
  const [doc] = project.document;
  const [first] = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json().segments;
  await api.put('/v2/segments', { id: first.id, target: 'Öffnen Sie die Datei.', is_confirmed: true });

  await step(page, 'project-words', async () => {
    await page.goto(`${base}/projects/${projectId}`);
    const words = page.getByRole('table', { name: 'Words by status' });
    await words.waitFor();
    const cellsOf = async (name: string) =>
      (
        await words
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name }) })
          .getByRole('cell')
          .allInnerTexts()
      ).map(Number);
    // The guide opens the file twice: confirming the first fills its repetition too.
    const open = 2 * countWords('Open the file.');
    const total = countWords(GUIDE);
    // New, Draft, Pre-translated, Confirmed, Reviewed, Words.
    assert.deepEqual(await cellsOf('guide.txt'), [total - open, 0, 0, open, 0, total]);
    assert.deepEqual(await cellsOf('All documents'), [total - open, 0, 0, open, 0, total]);
    assert.deepEqual(await axeViolations(page), [], 'axe on the project page');
    await screenshot(page, 'analysis-04-project-words');
    // The translated original is named with its target language.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export original' }).click();
    assert.equal((await download).suggestedFilename(), 'guide.de.txt');
  });

  await step(page, 'editor-words', async () => {
    // The document's words in the editor's header, confirmed of all (the first "Open the file." and its
    // repetition, filled by propagation).
    await page.getByRole('link', { name: 'guide.txt' }).click();
    await page
      .getByText(`${2 * countWords('Open the file.')} / ${countWords(GUIDE)} words confirmed`)
      .waitFor();
    await screenshot(page, 'analysis-04b-editor-words');
    await page.goto(`${base}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Settings' }).waitFor();
  });

  await step(page, 'project-settings', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: `Settings of ${project.name}` });
    await dialog.getByLabel('Name').fill('Guide in German');
    await dialog.getByLabel('Memory').selectOption({ label: 'Client TM (0 entries)' });
    await dialog.getByLabel('Due date (optional)').fill('2030-05-01');
    const fill = dialog.getByRole('checkbox', { name: 'Fill repetitions when a segment is confirmed' });
    assert.equal(await fill.isChecked(), true, 'repetitions are filled by default');
    await fill.uncheck();
    assert.deepEqual(await axeViolations(page), [], 'axe on the settings');
    await screenshot(page, 'analysis-05-project-settings');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Guide in German' }).waitFor();
    await page.getByText('Memory: Client TM').waitFor();
    const saved = (await api.get(`/v2/projects?id=${projectId}`)).json()[0];
    assert.equal(saved.memory_id, otherMemory);
    assert.equal(saved.propagate_repetitions, false);
    const due = new Date(saved.due_date * 1000);
    assert.deepEqual([due.getFullYear(), due.getMonth(), due.getDate()], [2030, 4, 1]);
  });

  await step(page, 'project-archive', async () => {
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('button', { name: 'Unarchive' }).waitFor();
    await page.getByText('Archived', { exact: true }).waitFor();
    await page.goto(`${base}/projects`);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByText(/No projects yet/).waitFor();
    await page.getByRole('radio', { name: 'Archived' }).check();
    await page.getByRole('link', { name: 'Guide in German' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'axe on the archived list');
    await screenshot(page, 'analysis-06-archived-list');
  });

  await step(page, 'project-delete', async () => {
    await page.getByRole('link', { name: 'Guide in German' }).click();
    await page.getByRole('button', { name: 'Delete project' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the project Guide in German?' });
    await confirm
      .getByText('Its document and its translations are deleted with it.', { exact: false })
      .waitFor();
    await screenshot(page, 'analysis-07-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete project' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    assert.equal((await api.get(`/v2/projects?id=${projectId}`)).statusCode, 404);
  });
});
