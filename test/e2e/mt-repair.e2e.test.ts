// The repaired match in the editor's matches panel (issue 27), through a real server with the live Apertium
// engine (en→es): after the memory's raw match (still offered as it is), the match with its differing word
// patched by MT — labelled "Repaired by MT" with the engine named, the changed word marked and listed for
// screen readers; Alt+R (and its button, by accessible name) puts it into the target. Elements by role and name.
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
    target: 'La casa roja es grande.',
  });
  const project = (await api.post('/v2/projects', { name: 'Web', memory_id: memory.id })).json();
  const xliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="page.html" source-language="en" target-language="es" datatype="plaintext">
    <body>
      <trans-unit id="1"><source>The blue house is big.</source></trans-unit>
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

test('the repaired match follows the raw one, marks its changed word, and Alt+R inserts it', {
  skip: browserSkipReason ?? false,
}, async (t) => {
  if (!apertium) {
    t.skip('apertium-apy is not installed');
    return;
  }
  const { page } = anna;
  await step(page, 'repair-open', async () => {
    await signInAt(page, `${base}/documents/${documentId}?seg=1`, 'anna', 'anna-password-1');
    await page.getByRole('grid', { name: 'Segments' }).waitFor();
  });
  const panel = page.getByRole('region', { name: 'Matches' });
  const repaired = panel.getByRole('list', { name: 'Repaired match' });
  await step(page, 'repair-panel', async () => {
    // The raw match is offered as the memory has it.
    const raw = panel.getByRole('button', { name: /Insert match 1/ });
    await raw.waitFor();
    await repaired.waitFor();
    const text = await repaired.innerText();
    assert.match(text, /La casa azul es grande\./);
    assert.match(text, /Repaired by MT · apertium/);
    assert.match(text, /1 of 1 difference patched/);
    // The changed word is marked, and said in words for whoever does not see the mark.
    assert.equal(await repaired.locator('mark').innerText(), 'azul');
    assert.equal(await repaired.getByText('Changed words: azul').count(), 1);
    const order = await panel.evaluate((el) => {
      const all = (el as unknown as { innerText: string }).innerText;
      return [all.indexOf('La casa roja'), all.indexOf('La casa azul')];
    });
    assert.ok(order[0] >= 0 && order[0] < order[1], `raw match before the repair: ${order}`);
  });
  await screenshot(page, 'mt-repair-panel');

  const target = page.getByRole('textbox', { name: 'Target 1', exact: true });
  await step(page, 'repair-insert-key', async () => {
    await target.click();
    await page.keyboard.press('Alt+R');
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { activeElement: { textContent: string } | null } })
        .document;
      return doc.activeElement?.textContent?.includes('azul') ?? false;
    });
    assert.equal(await target.innerText(), 'La casa azul es grande.');
  });
  await screenshot(page, 'mt-repair-inserted');

  await step(page, 'repair-button', async () => {
    const button = panel.getByRole('button', { name: 'Insert the 80% match repaired' });
    assert.equal(await button.getAttribute('aria-keyshortcuts'), 'Alt+R');
    assert.deepEqual(await axeViolations(page), []);
  });

  await step(page, 'repair-help', async () => {
    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help
      .getByText('Insert the best match repaired by machine translation (shown after the matches)')
      .waitFor();
    await help.getByRole('button', { name: 'Close' }).click();
  });
  assert.deepEqual(anna.problems, []);
  assert.deepEqual(anna.foreignRequests, []);
});
