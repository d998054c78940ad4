// The machine translation in the editor's matches panel (issue 27), through a real server with the live
// Apertium engine (en→es): after the memory's match, the MT suggestion named by its engine; Alt+0 (and its
// button, by accessible name) puts it into the target with the source's tag. Elements by role and name.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Apertium, startApertium } from '../helpers/apertium.ts';
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

let apertium: Apertium | null = null;
let ctx: TestContext;
let base: string;
let anna: Browsing;
let documentId: number;

before(async () => {
  if (browserSkipReason) return;
  apertium = await startApertium();
  if (!apertium) return;
  ({ ctx, base } = await serveWebApp('en,es', { TESSERA_MT_APERTIUM_URL: apertium.url }));
  const api = client(
    ctx.app,
    await userKey(ctx, { username: 'anna', password: 'anna-password-1', role: 'member' }),
  );
  const memory = (await api.post('/v2/memories', { name: 'Web es', srclang: 'en', trglang: 'es' })).json();
  await api.post('/v2/segments', {
    memory_id: memory.id,
    source: 'The red house is big.',
    target: 'La casa colorada es enorme.',
  });
  const project = (await api.post('/v2/projects', { name: 'Web', memory_id: memory.id })).json();
  const xliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="page.html" source-language="en" target-language="es" datatype="plaintext">
    <body>
      <trans-unit id="1"><source>The <g id="1">red</g> house is small.</source></trans-unit>
      <trans-unit id="2"><source>The garden is green.</source></trans-unit>
    </body>
  </file>
</xliff>`;
  documentId = await api.uploadDocument(project.id, 'page.xlf', xliff);
  anna = await openBrowser(base);
});

after(async () => {
  await anna?.close();
  await ctx?.close();
  await apertium?.stop();
});

test('the MT suggestion follows the memory’s match, names its engine, and Alt+0 inserts it', {
  skip: browserSkipReason ?? false,
}, async (t) => {
  if (!apertium) {
    t.skip('apertium-apy is not installed');
    return;
  }
  const { page } = anna;
  await step(page, 'mt-open', async () => {
    await signInAt(page, `${base}/documents/${documentId}?seg=1`, 'anna', 'anna-password-1');
    await page.getByRole('grid', { name: 'Segments' }).waitFor();
  });
  const panel = page.getByRole('region', { name: 'Matches' });
  const mt = panel.getByRole('list', { name: 'Machine translation' });
  await step(page, 'mt-panel', async () => {
    await panel.getByRole('button', { name: /Insert match 1/ }).waitFor();
    await mt.waitFor();
    assert.match(await mt.innerText(), /Machine translation · apertium/);
    assert.match(await mt.innerText(), /pequeña/);
    // The memory's match comes first, the machine translation after it.
    const order = await panel.evaluate((el) => {
      const text = (el as unknown as { innerText: string }).innerText;
      return [text.indexOf('enorme'), text.indexOf('pequeña')];
    });
    assert.ok(order[0] >= 0 && order[0] < order[1], `match before MT: ${order}`);
  });
  await screenshot(page, 'mt-suggestion-panel');

  const target = page.getByRole('textbox', { name: 'Target 1', exact: true });
  await step(page, 'mt-insert-key', async () => {
    await target.click();
    await page.keyboard.press('Alt+0');
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { activeElement: { textContent: string } | null } })
        .document;
      return doc.activeElement?.textContent?.includes('pequeña') ?? false;
    });
    assert.match(await target.innerText(), /pequeña/);
  });
  await screenshot(page, 'mt-suggestion-inserted');

  await step(page, 'mt-button', async () => {
    const button = panel.getByRole('button', { name: 'Insert machine translation' });
    assert.equal(await button.getAttribute('aria-keyshortcuts'), 'Alt+0');
    assert.deepEqual(await axeViolations(page), []);
  });

  await step(page, 'mt-help', async () => {
    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Insert the machine translation (shown after the matches)').waitFor();
    await help.getByRole('button', { name: 'Close' }).click();
  });
  assert.deepEqual(anna.problems, []);
  assert.deepEqual(anna.foreignRequests, []);
});
