// Terms in the editor, in Chromium through a real server. A translator: the term of the source is underlined
// and says its translations, the Terms panel lists it (status in words, definition, no button for the forbidden
// one), Alt+Shift+1 inserts the preferred term, a forbidden term typed is a QA error that stops Ctrl+Enter
// until "Confirm anyway", and adding a term is refused with a reason. A project manager: select a word in the
// source and in the target, Alt+Shift+A, Enter — the term is in the termbase and underlined at once. Elements
// by role, accessible name or title; axe-core reports no serious or critical violation.
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
  signInAt,
  step as stepOf,
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const TOM = 'tom-correct-horse-42';
const PAM = 'pam-correct-horse-42';
const SOURCES = ['Delete the folder.', 'Save the file.'];
const FOLDER_TERMS = 'Term: Ordner (preferred); Verzeichnis (forbidden — do not use)';

let ctx: TestContext;
let base: string;
let browsing: Browsing | undefined;
let page: Page;
let pam: ReturnType<typeof client>;
let memoryId = 0;
let documentId = 0;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  pam = client(ctx.app, await userKey(ctx, { username: 'pam', password: PAM, role: 'project_manager' }));
  await userKey(ctx, { username: 'tom', password: TOM, role: 'translator', email: 'tom@example.com' });
  memoryId = (await pam.post('/v2/memories', { name: 'UI de', srclang: 'en', trglang: 'de' })).json().id;
  const concept = await pam.post(`/v2/memories/terms?id=${memoryId}`, {
    terms: [
      { lang: 'en', text: 'folder', definition: 'A container of files on a disk' },
      { lang: 'de', text: 'Ordner', status: 'preferred', part_of_speech: 'noun' },
      { lang: 'de', text: 'Verzeichnis', status: 'forbidden' },
    ],
  });
  assert.equal(concept.statusCode, 200, concept.body);
  const project = (await pam.post('/v2/projects', { name: 'UI', memory_id: memoryId })).json();
  documentId = await pam.uploadDocument(project.id, 'ui.txt', SOURCES.join('\n\n'));
  const shared = await pam.put('/v2/documents/share', {
    id: documentId,
    email: 'tom@example.com',
    is_translator: true,
  });
  assert.equal(shared.statusCode, 200, shared.body);
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

const step = (name: string, run: () => Promise<void>) => stepOf(page, name, run);

const answer = (path: string, method = 'GET') =>
  page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === method);

async function signIn(username: string, password: string, path: string) {
  browsing = await openBrowser(base);
  page = browsing.page;
  await signInAt(page, `${base}${path}`, username, password);
  await page.getByRole('grid', { name: 'Segments' }).waitFor();
}

/** The active target's editor (CodeMirror's content). */
const activeTarget = (n: number) => page.getByRole('textbox', { name: `Target ${n}`, exact: true });

/** Double-clicks a word of a segment's source, as a person selects it. */
async function doubleClickWord(source: string, word: string) {
  // In the page (a string: this file is typed without the DOM's names): the word's box on the screen.
  const box = await page.evaluate<{ x: number; y: number } | null>(`(() => {
    const cell = [...document.querySelectorAll('[role="gridcell"]')].find((c) => c.textContent === ${JSON.stringify(source)});
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent.indexOf(${JSON.stringify(word)});
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + ${word.length});
      const r = range.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    }
    return null;
  })()`);
  assert.ok(box, `"${word}" is in the source "${source}"`);
  await page.mouse.dblclick(box.x, box.y);
}

test('a translator sees the term, inserts it by key, and a forbidden term stops the confirmation', {
  skip: browserSkipReason,
}, async () => {
  await signIn('tom', TOM, `/documents/${documentId}?seg=1`);
  const terms = page.getByRole('region', { name: 'Terms' });
  const qa = page.getByRole('list', { name: 'QA issues of segment 1' });

  await step('the term underlined in the source, and in the Terms panel', async () => {
    const mark = page.getByTitle(FOLDER_TERMS);
    await mark.waitFor();
    assert.equal(await mark.innerText(), 'folder');
    assert.equal(await mark.getAttribute('aria-description'), FOLDER_TERMS);
    const list = terms.getByRole('list', { name: 'Terms of segment 1' });
    await list.waitFor();
    await list.getByText('A container of files on a disk').waitFor();
    await list.getByText('preferred', { exact: true }).waitFor();
    await list.getByText('forbidden — do not use').waitFor();
    assert.equal(await list.getByRole('button', { name: 'Ordner' }).count(), 1);
    assert.equal(await list.getByRole('button', { name: /Verzeichnis/ }).count(), 0, 'not insertable');
    assert.equal(
      await list.getByRole('button', { name: 'Ordner' }).getAttribute('title'),
      'Insert term 1 (Alt+Shift+1)',
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the Terms panel');
    await screenshot(page, 'terms-panel-translator');
  });

  await step('Alt+Shift+1 inserts the preferred term at the cursor', async () => {
    await activeTarget(1).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Löschen Sie den ');
    await page.keyboard.press('Alt+Shift+1');
    await page.keyboard.type('.');
    await page.waitForFunction(
      `document.querySelector('[role="textbox"][aria-label="Target 1"]')?.textContent === 'Löschen Sie den Ordner.'`,
    );
    assert.equal(await qa.count(), 0, 'no QA issue with the preferred term');
  });

  await step('a forbidden term typed is a QA error that stops Ctrl+Enter', async () => {
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Löschen Sie das Verzeichnis.');
    await qa.getByText('"Verzeichnis" is a forbidden term; use "Ordner"').waitFor();
    let saved = false;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && new URL(r.url()).pathname === '/v2/segments') saved = true;
    });
    await page.keyboard.press('Control+Enter');
    await page.getByRole('alert').filter({ hasText: 'Not confirmed: 1 QA error.' }).waitFor();
    await page.waitForTimeout(300);
    assert.equal(saved, false, 'nothing sent');
    await screenshot(page, 'terms-forbidden-blocked');
  });

  await step('adding a term needs the project manager role', async () => {
    await activeTarget(1).click();
    await page.keyboard.press('Alt+Shift+A');
    await page
      .getByRole('status')
      .filter({ hasText: 'Adding a term to the termbase needs the project manager role' })
      .waitFor();
    assert.equal(await page.getByRole('dialog', { name: 'Add a term' }).isVisible(), false);
  });

  await step('"Confirm anyway" confirms it, and the server records the error', async () => {
    const put = answer('/v2/segments', 'PUT');
    await page.getByRole('button', { name: 'Confirm anyway' }).click();
    assert.equal((await put).status(), 200);
    const history = (await pam.get(`/v2/documents/segments?id=${documentId}`)).json().segments;
    const res = await pam.get(`/v2/segments/history?id=${history[0].id}`);
    assert.deepEqual(res.json().versions[0].qa_errors, ['"Verzeichnis" is a forbidden term; use "Ordner"']);
  });
  await browsing?.close();
  browsing = undefined;
});

test('a project manager adds a term from the source and target selections in two keystrokes', {
  skip: browserSkipReason,
}, async () => {
  await signIn('pam', PAM, `/documents/${documentId}?seg=2`);
  const terms = page.getByRole('region', { name: 'Terms' });

  await step('select in the source and the target, Alt+Shift+A, Enter', async () => {
    await terms.getByText('No termbase term in segment 2.').waitFor();
    await activeTarget(2).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Speichern Sie die Datei.');
    await doubleClickWord('Save the file.', 'file');
    await activeTarget(2).click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+Shift+ArrowLeft');
    await page.keyboard.press('Alt+Shift+A');
    const dialog = page.getByRole('dialog', { name: 'Add a term' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('textbox', { name: 'Source term (en)' }).inputValue(), 'file');
    assert.equal(await dialog.getByRole('textbox', { name: 'Target term (de)' }).inputValue(), 'Datei');
    await screenshot(page, 'terms-add-dialog');
    const created = answer('/v2/memories/terms', 'POST');
    await page.keyboard.press('Enter');
    assert.equal((await created).status(), 200);
    await dialog.waitFor({ state: 'hidden' });
  });

  await step('the new term is in the termbase, underlined and in the panel at once', async () => {
    const concepts = (await pam.get(`/v2/memories/terms?id=${memoryId}&q=file`)).json().concepts as {
      terms: { lang: string; text: string; status: string }[];
    }[];
    assert.deepEqual(
      concepts.map((c) => c.terms.map((t) => `${t.lang}:${t.text}:${t.status}`)),
      [['en:file:preferred', 'de:Datei:preferred']],
    );
    const mark = page.getByTitle('Term: Datei (preferred)');
    await mark.waitFor();
    assert.equal(await mark.innerText(), 'file');
    await terms
      .getByRole('list', { name: 'Terms of segment 2' })
      .getByRole('button', { name: 'Datei' })
      .waitFor();
    await screenshot(page, 'terms-added-manager');
  });
});
