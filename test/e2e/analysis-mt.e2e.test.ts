// The job analysis counts machine translation, in Chromium through a real server (issue 27): a loopback
// server speaking Apertium APy's protocol serves English→Spanish; after a tm+mt pre-translation the dialog's
// MT column holds the drafted words, the line below the table names the engine, and the weights form has the
// MT weight. Elements by role and accessible name.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { countWords } from '../../src/matching/word-count.ts';
import { type FakeApy, startFakeApy } from '../helpers/apertium.ts';
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

const EXACT = 'Open the file.';
const DRAFTED = ['The garden is green today.', 'Close every window before you leave.'];
const PAGE = `${EXACT}\n\n${DRAFTED.join('\n\n')}\n`;

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let fake: FakeApy;

before(async () => {
  if (browserSkipReason) return;
  fake = await startFakeApy();
  fake.answer.translate = (q) => `ES ${q}`;
  ({ ctx, base } = await serveWebApp('en,es,de', { TESSERA_MT_APERTIUM_URL: fake.url }));
  const api = client(
    ctx.app,
    await userKey(ctx, { username: 'pia', password: 'pia-password-1', role: 'admin' }),
  );
  const es = (await api.post('/v2/memories', { name: 'Spanish TM', srclang: 'en', trglang: 'es' })).json().id;
  const de = (await api.post('/v2/memories', { name: 'German TM', srclang: 'en', trglang: 'de' })).json().id;
  await api.post('/v2/segments', { memory_id: es, source: EXACT, target: 'Abra el archivo.' });
  const file = (await api.upload('/v2/files?name=site.txt', PAGE)).json();
  const created = await api.post('/v2/jobs', {
    name: 'Site',
    fileIds: [file.id],
    srcLang: 'en',
    languagePairs: [
      { trgLang: 'es', memoryId: es },
      { trgLang: 'de', memoryId: de },
    ],
  });
  assert.equal(created.statusCode, 200, created.body);
  const jobId = created.json().id;
  let documentId = 0;
  for (;;) {
    const job = (await api.get(`/v2/jobs/${jobId}`)).json();
    if (job.creationStatus !== 'PENDING') {
      const project = job.stats.projects.find((p: { trgLang: string }) => p.trgLang === 'es');
      documentId = (await api.get(`/v2/projects?id=${project.id}`)).json()[0].document[0].id;
      break;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const started = await api.post('/v2/documents/pretranslate', { id: [documentId], mode: 'tm+mt' });
  assert.equal(started.statusCode, 202, started.body);
  for (;;) {
    const doc = (await api.get(`/v2/documents?id=${documentId}`)).json();
    if (!doc.is_pretranslating && doc.status.pretranslation === 'idle') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  browsing = await openBrowser(base);
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
  await fake?.close();
});

test('the analysis shows MT drafts in their own column and which pairs MT can draft', {
  skip: browserSkipReason,
}, async () => {
  const { page } = browsing;
  await signInAt(page, `${base}/jobs`, 'pia', 'pia-password-1');
  const row = page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: 'Site' });
  const dialog = page.getByRole('dialog', { name: 'Analysis of Site' });
  await step(page, 'analysis-mt', async () => {
    await row.getByRole('button', { name: 'Analyse Site' }).click();
    const table = dialog.getByRole('table', { name: 'Leverage analysis' });
    await table.getByRole('rowheader', { name: 'All files, en → es' }).waitFor();
    const headers = await table.getByRole('columnheader').allInnerTexts();
    const mtColumn = headers.findIndex((h) => h.trim() === 'MT');
    const newColumn = headers.findIndex((h) => /^new$/i.test(h.trim()));
    assert.ok(mtColumn > 0 && newColumn === mtColumn + 1, headers.join('|'));
    assert.match(
      (await table.getByRole('columnheader', { name: 'MT' }).getAttribute('title')) ?? '',
      /Machine translation/,
    );
    const cellsOf = async (name: string) => {
      const r = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
      // The row header is the first column: cells start at the first band.
      return (await r.getByRole('cell').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    };
    const drafted = DRAFTED.reduce((n, s) => n + countWords(s), 0);
    const es = await cellsOf('All files, en → es');
    const de = await cellsOf('All files, en → de');
    assert.deepEqual([es[mtColumn - 1], es[newColumn - 1]], [drafted, 0], 'the drafts are MT, not new');
    assert.deepEqual([de[mtColumn - 1], de[newColumn - 1]], [0, drafted + countWords(EXACT)]);
    const coverage = dialog.getByRole('list', { name: 'Machine translation' });
    await coverage
      .getByRole('listitem')
      .filter({ hasText: 'en → es: machine translation (apertium) has no new words left to draft.' })
      .waitFor();
    await coverage
      .getByRole('listitem')
      .filter({ hasText: 'No machine translation engine serves en → de.' })
      .waitFor();
    assert.equal(await dialog.getByLabel('Weight of MT (machine translation)').inputValue(), '72');
    assert.deepEqual(await axeViolations(page), [], 'axe on the analysis with MT');
    await screenshot(page, 'analysis-mt-01-dialog');
  });
});
