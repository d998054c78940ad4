// What the translator sees is what the file gets (issue 23), walked in Chromium as a translator would, one test
// per finding: edge whitespace matched at 100 and exported once (1); tags edited safely (2); auto-accept off by
// default, exact only, and 101 % context matches (3); a missing placeholder stopping a confirmation, recorded,
// listed by document QA with what the export will do, and never dropped by the export (4); formatting marks in
// the source, the target and the matches (5); a match missing placeholders no longer offered, another
// placeholder in its place projected (6); placeholders shown as themselves (7); inline code readable from the
// keyboard and in full-tag mode (8). Elements by role and accessible name; each check ends on what was saved
// (the PUT body, GET /v2/segments) or on the exported file, checked with msgfmt -c.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page, Request } from 'playwright-core';
import { client } from '../helpers/api.ts';
import {
  axeViolations,
  type Browsing,
  browserSkipReason,
  openBrowser,
  SCREENSHOTS,
  screenshot,
  signInAt,
  step as stepOf,
} from '../helpers/browser.ts';
import { type TestContext, userKey } from '../helpers/context.ts';
import { serveWebApp } from '../helpers/web-server.ts';

if (browserSkipReason) process.stdout.write(`# SKIP ${browserSkipReason}\n`);

const PASSWORD = 'anna-correct-horse-42';

const HTML = `<html><body>
<h2><tt>Introduction</tt></h2>
<p>Read the <tt>manual</tt> now.</p>
<p><b>Table of contents</b></p>
<p>Use <b>this</b> or <i>that</i>, see <code>gettext</code>.</p>
</body></html>`;

const INLINE_CODE_HTML =
  '<html><body><p>Use <b>this</b> or <i>that</i>, see <code>gettext</code>.</p></body></html>';

const USAGE = 'Usage: %s [options]\n  -h, --help\tshow this help\n  -v  verbose output';
const USAGE_DE = 'Aufruf: %s [Optionen]\n  -h, --help\tdiese Hilfe zeigen\n  -v  ausführliche Ausgabe';
const PRICE = 'Price:\u00a050\u00a0EUR';
const DOUBLED = 'Press  Enter to continue';
const COPY = 'Copy %s to %s?';
const MATCH_SOURCE = 'Copy %1$s to %2$s?';
const MATCH_TARGET = '%1$s nach %2$s kopieren?';
const DELETE = 'Delete %s (3 files)?';
// Finding 1: a PO message ending in \n, and the memory's entry for it as real catalogs hold it (with the \n).
const EXITING = 'Exiting.';
const EXITING_DE = 'Programmende.';
// Finding 6: a message whose placeholders the entry "Available" lacks, and one whose placeholder differs.
const AVAILABLE = '%s / %s available';
const DELETE_FILES = 'Delete %d files from the disk now';
const DELETE_FILES_DE = '%d Dateien jetzt von der Festplatte löschen';

const po = (messages: string[]) =>
  [
    'msgid ""',
    'msgstr ""',
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
    '',
    ...messages.flatMap((m) => [
      `msgid "${m.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`,
      'msgstr ""',
      '',
    ]),
  ].join('\n');

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="test" creationtool="test" creationtoolversion="1"/><body>
<tu><tuv xml:lang="en"><seg>${USAGE}</seg></tuv><tuv xml:lang="de"><seg>${USAGE_DE}</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>${MATCH_SOURCE}</seg></tuv><tuv xml:lang="de"><seg>${MATCH_TARGET}</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>${EXITING}\n</seg></tuv><tuv xml:lang="de"><seg>${EXITING_DE}\n</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>Available</seg></tuv><tuv xml:lang="de"><seg>Verfügbar</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>${DELETE_FILES.replace('%d', '%s')}</seg></tuv><tuv xml:lang="de"><seg>${DELETE_FILES_DE.replace('%d', '%s')}</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>done.</seg></tuv><tuv xml:lang="de"><seg>fertig.</seg></tuv></tu>
</body></tmx>`;

const CONTEXT_SOURCES = ['Open the door.', 'Close the window.', 'Turn off the light.'];
const CONTEXT_TARGETS = ['Öffne die Tür.', 'Schließe das Fenster.', 'Mach das Licht aus.'];

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let api: ReturnType<typeof client>;
let memoryId = 0;
let projectId = 0;

interface Segment {
  id: number;
  position: number;
  source: string;
  target: string | null;
  status: string;
  is_confirmed: boolean;
  match_score: number | null;
  updated_at: number;
}

async function upload(name: string, body: string): Promise<number> {
  const uploaded = await api.upload('/v2/documents/files', body, {
    'lilt-api': JSON.stringify({ name, project_id: projectId }),
  });
  assert.equal(uploaded.statusCode, 200, uploaded.body);
  const id = uploaded.json().id;
  for (;;) {
    const doc = (await api.get(`/v2/documents?id=${id}`)).json();
    if (!doc.import_in_progress) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return id;
}

const segmentsOf = async (documentId: number): Promise<Segment[]> =>
  (await api.get(`/v2/documents/segments?id=${documentId}&limit=100`)).json().segments;

const segmentById = async (id: number): Promise<Segment> => (await api.get(`/v2/segments?id=${id}`)).json();

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  api = client(ctx.app, await userKey(ctx, { username: 'anna', password: PASSWORD, role: 'member' }));
  const memory = (await api.post('/v2/memories', { name: 'Manual de', srclang: 'en', trglang: 'de' })).json();
  memoryId = memory.id;
  const imported = await api.upload('/v2/memories/import', TMX, {
    'lilt-api': JSON.stringify({ memory_id: memoryId, name: 'seed.tmx' }),
  });
  assert.equal((await api.waitForTask(imported.json().job_id)).state, 'succeeded');
  projectId = (await api.post('/v2/projects', { name: 'Manual', memory_id: memoryId })).json().id;
  browsing = await openBrowser(base);
  page = browsing.page;
  await signInAt(page, `${base}/projects/${projectId}`, 'anna', PASSWORD);
  await page.getByRole('heading', { name: 'Manual' }).waitFor();
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

const step = (name: string, run: () => Promise<void>) => stepOf(page, name, run);

/** Which element has the focus, by its accessible name (aria-label). */
const focusedName = () =>
  page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null");

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000) {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > ms) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens a document at segment n with the focus in its target. */
async function openSegment(documentId: number, n: number) {
  await page.goto(`${base}/documents/${documentId}?seg=${n}`);
  await page.getByRole('textbox', { name: `Target ${n}`, exact: true }).waitFor();
  await until('focus in the target', focusedName, (name) => name === `Target ${n}`);
}

const target = (n: number) => page.getByRole('textbox', { name: `Target ${n}`, exact: true });
const rowOf = (n: number) => page.getByRole('row').filter({ has: target(n) });
/** The source cell of segment n (the grid's second column). */
const sourceOf = (n: number) => rowOf(n).getByRole('gridcell').nth(1);
const segmentPanel = () => page.getByRole('region', { name: 'Segment' });
const matchesPanel = () => page.getByRole('region', { name: 'Matches' });

/** Presses Ctrl+Enter and answers the confirmation's PUT body and answer. */
async function confirm(): Promise<{ body: Record<string, unknown>; saved: Segment }> {
  const put = page.waitForResponse(
    (r) =>
      r.url().endsWith('/v2/segments') &&
      r.request().method() === 'PUT' &&
      r.request().postDataJSON().is_confirmed,
  );
  await page.keyboard.press('Control+Enter');
  const answer = await put;
  assert.equal(answer.status(), 200, await answer.text());
  return { body: answer.request().postDataJSON(), saved: await answer.json() };
}

async function press(key: string, times: number) {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

/** msgfmt -c on a catalog: "" when it passes, else what it printed. */
function msgfmtErrors(po: string): string {
  const run = spawnSync('msgfmt', ['-c', '-o', '/dev/null', '-'], { input: po, encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.status === 0 ? '' : run.stderr;
}

/** Clicks the editor's "Export original" and answers the downloaded file's name and text. */
async function exportOriginal(): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export original' }).click(),
  ]);
  return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
}

test('finding 1: a PO message ending in \\n matches at 100 %, is inserted without it and exported with it once', {
  skip: browserSkipReason,
}, async () => {
  const documentId = await upload('exiting.po', po([`${EXITING}\n`]));
  const [segment] = await segmentsOf(documentId);
  // The \n belongs to the file's skeleton: the segment is the sentence.
  assert.equal(segment.source, EXITING);

  await step('match-at-100', async () => {
    await openSegment(documentId, 1);
    assert.equal(await sourceOf(1).innerText(), EXITING);
    assert.equal(await sourceOf(1).getByRole('img', { name: 'line break' }).count(), 0);
    const match = matchesPanel().getByRole('listitem').first();
    await match.getByText(EXITING_DE).waitFor();
    // The memory's entry had the same \n: nothing to tell them apart, so 100 with no points off.
    await match.getByText('100%', { exact: true }).waitFor();
    assert.equal(await match.getByRole('list', { name: 'Points off' }).count(), 0);
    assert.equal(await match.getByRole('img', { name: 'line break' }).count(), 0);
    await screenshot(page, 'edges-01-match-100');
  });

  await step('inserted-and-confirmed', async () => {
    await page.keyboard.press('Alt+1');
    await target(1).getByText(EXITING_DE).waitFor();
    assert.equal(await target(1).innerText(), EXITING_DE);
    assert.equal(await target(1).getByRole('img', { name: 'line break' }).count(), 0);
    await screenshot(page, 'edges-02-inserted');
    const { body } = await confirm();
    assert.equal(body.target, EXITING_DE);
    assert.equal((await segmentById(segment.id)).target, EXITING_DE);
  });

  await step('exported-once', async () => {
    const exported = await exportOriginal();
    assert.equal(exported.name, 'exiting.de.po');
    // The skeleton's \n once: never the doubled `msgstr "Programmende.\n" "\n"` of before.
    assert.match(exported.text, /\nmsgid "Exiting\.\\n"\nmsgstr "Programmende\.\\n"\n/);
    assert.doesNotMatch(exported.text, /"\\n"\n"\\n"|\\n\\n/);
    assert.equal(msgfmtErrors(exported.text), '');
  });
  assert.deepEqual(browsing.problems, []);
});

test('finding 2: overtyping keeps every keystroke; deleted tags are listed and restored, never clumped or called placed', {
  skip: browserSkipReason,
}, async () => {
  const documentId = await upload('manual.html', HTML);
  const segments = await segmentsOf(documentId);
  assert.deepEqual(
    segments.map((s) => s.source),
    [
      '<g id="1" ctype="x-tt">Introduction</g>',
      'Read the <g id="1" ctype="x-tt">manual</g> now.',
      '<g id="1" ctype="bold">Table of contents</g>',
      'Use <g id="1" ctype="bold">this</g> or <g id="2" ctype="italic">that</g>, see <ph id="3" ctype="x-code">&lt;code&gt;gettext&lt;/code&gt;</ph>.',
    ],
  );

  await step('overtype-pair', async () => {
    await openSegment(documentId, 1);
    // Copy the source, select all, type: every keystroke lands, inside the pair.
    await page.keyboard.press('Control+I');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Einleitung');
    assert.equal((await target(1).innerText()).replace(/\s/g, ''), '1Einleitung/1');
    await segmentPanel().getByText('All tags placed.').waitFor();
    await screenshot(page, 'tags-01-overtyped');
    const { body } = await confirm();
    assert.equal(body.target, '<g id="1" ctype="x-tt">Einleitung</g>');
    assert.equal((await segmentById(segments[0].id)).target, '<g id="1" ctype="x-tt">Einleitung</g>');
  });

  await step('overtype-mid-sentence', async () => {
    // The confirmation moved on to segment 2.
    await until('focus on 2', focusedName, (n) => n === 'Target 2');
    await page.keyboard.press('Control+I');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Lies jetzt das Handbuch.');
    // The tags went with the selection: nothing typed before chips clumped at the end.
    assert.equal(await target(2).getByRole('img', { name: /^tag / }).count(), 0);
    assert.equal(await target(2).innerText(), 'Lies jetzt das Handbuch.');
    const missing = segmentPanel().getByText('Missing tags:');
    await missing.waitFor();
    assert.deepEqual(await missing.getByRole('img').allInnerTexts(), ['1', '/1']);
    assert.equal(await segmentPanel().getByText('All tags placed.').count(), 0);
    // Select "Handbuch" and Alt+T: the pair wraps it.
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await press('Shift+ArrowLeft', 'Handbuch'.length);
    await page.keyboard.press('Alt+T');
    await segmentPanel().getByText('All tags placed.').waitFor();
    await screenshot(page, 'tags-02-wrapped');
    const { body } = await confirm();
    assert.equal(body.target, 'Lies jetzt das <g id="1" ctype="x-tt">Handbuch</g>.');
  });

  await step('delete-and-type', async () => {
    await until('focus on 3', focusedName, (n) => n === 'Target 3');
    await page.keyboard.press('Control+I');
    // The words inside the pair selected and deleted: the pair stays, empty — and the panel says so.
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Delete');
    assert.equal(await target(3).getByRole('img', { name: /^tag / }).count(), 2);
    await segmentPanel()
      .getByText(/^Nothing between/)
      .waitFor();
    assert.equal(await segmentPanel().getByText('All tags placed.').count(), 0);
    // An empty pair around text the source encloses: a QA warning.
    await page
      .getByRole('list', { name: 'QA issues of segment 3' })
      .getByRole('listitem')
      .filter({ hasText: /^Warning\s*Tag pair 1 \(<b>…<\/b>\) is empty/ })
      .waitFor();
    await screenshot(page, 'tags-03-empty-pair');
    // Typing goes between the chips.
    await page.keyboard.type('Inhaltsverzeichnis');
    await segmentPanel().getByText('All tags placed.').waitFor();
    // Select all, Delete, type: the tags go (never an empty pair left behind), Missing tags lists them.
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('Inhalt');
    assert.equal(await target(3).getByRole('img', { name: /^tag / }).count(), 0);
    await segmentPanel().getByText('Missing tags:').waitFor();
    // A missing tag is an error: Ctrl+Enter is refused.
    await page.keyboard.press('Control+Enter');
    await page
      .getByRole('alert')
      .filter({ hasText: /Not confirmed: \d QA error/ })
      .waitFor();
    // Select the text, Alt+T: the missing pair wraps it.
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Alt+T');
    await segmentPanel().getByText('All tags placed.').waitFor();
    const { body } = await confirm();
    assert.equal(body.target, '<g id="1" ctype="bold">Inhalt</g>');
  });

  assert.deepEqual(browsing.problems, []);
});

test('finding 8: inline code shows its content on keyboard focus and in full-tag mode; Missing tags names each pair', {
  skip: browserSkipReason,
}, async () => {
  const documentId = await upload('inline-code.html', INLINE_CODE_HTML);
  const [segment] = await segmentsOf(documentId);
  assert.equal(
    segment.source,
    'Use <g id="1" ctype="bold">this</g> or <g id="2" ctype="italic">that</g>, see <ph id="3" ctype="x-code">&lt;code&gt;gettext&lt;/code&gt;</ph>.',
  );

  await step('missing-labels-and-focus', async () => {
    await openSegment(documentId, 1);
    await page.keyboard.type('Nimm dies');
    // Each missing tag by its own pair: "/2" closes pair 2.
    const missing = segmentPanel().getByText('Missing tags:');
    await missing.waitFor();
    assert.deepEqual(await missing.getByRole('img').allInnerTexts(), ['1', '/1', '2', '/2', '3/']);
    await screenshot(page, 'inline-code-01-missing');
    // The source's chips: the cursor next to one shows its code in a tooltip.
    await page.keyboard.press('Control+I');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    assert.equal(await tip.innerText(), 'Tag 3/: <code>gettext</code>');
    await screenshot(page, 'inline-code-02-cursor-tooltip');
    // Shift+Tab: the keyboard reaches the source's chips, which show their code on focus.
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedName(), 'tag 3/');
    const shown = await page.evaluate("getComputedStyle(document.activeElement, '::after').content");
    assert.match(String(shown), /<code>gettext<\/code>/);
    await screenshot(page, 'inline-code-03-focused-chip');
  });

  await step('full-tag-mode', async () => {
    await page.keyboard.press('Alt+Shift+M');
    const toggle = page.getByRole('button', { name: 'Full tags' });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    const source = sourceOf(1);
    assert.equal(await source.getByRole('img', { name: 'tag 3/' }).innerText(), '<code>gettext</code>');
    assert.equal(await source.getByRole('img', { name: 'tag 1', exact: true }).innerText(), '<b>');
    assert.equal(await source.getByRole('img', { name: 'tag /2' }).innerText(), '</i>');
    assert.equal(await target(1).getByRole('img', { name: 'tag 3/' }).innerText(), '<code>gettext</code>');
    await screenshot(page, 'inline-code-04-full-tags');
    // Remembered by this browser.
    await openSegment(documentId, 1);
    assert.equal(await page.getByRole('button', { name: 'Full tags' }).getAttribute('aria-pressed'), 'true');
    await page.getByRole('button', { name: 'Full tags' }).click();
    assert.equal(await sourceOf(1).getByRole('img', { name: 'tag 3/' }).innerText(), '3/');
  });
  assert.deepEqual(browsing.problems, []);
});

test('finding 5: formatting marks: line breaks, tabs, no-break and doubled spaces shown, and line breaks kept', {
  skip: browserSkipReason,
}, async () => {
  const documentId = await upload('usage.po', po([USAGE, PRICE, DOUBLED]));
  const segments = await segmentsOf(documentId);
  const usage = segments.find((s) => s.source === USAGE);
  assert.ok(usage, JSON.stringify(segments.map((s) => s.source)));
  const n = usage.position + 1;

  await step('source-and-matches', async () => {
    await openSegment(documentId, n);
    const source = sourceOf(n);
    assert.equal(await source.getByRole('img', { name: 'line break' }).count(), 2);
    assert.equal(await source.getByRole('img', { name: 'tab' }).count(), 1);
    assert.equal(await source.getByRole('img', { name: '2 spaces' }).count(), 3);
    // The structure reads: the line breaks break the lines.
    assert.match(await source.innerText(), /\[options\]\n {2}-h, --help\tshow this help\n {2}-v {2}verbose/);
    const match = matchesPanel().getByRole('listitem').first();
    await match.getByRole('img', { name: 'line break' }).first().waitFor();
    assert.equal(await match.getByRole('img', { name: 'line break' }).count(), 4, 'target and source');
    assert.match(await match.innerText(), /\[Optionen\]\n {2}-h, --help\tdiese Hilfe/);
    assert.deepEqual(await axeViolations(page), [], 'axe on formatting marks');
    await screenshot(page, 'marks-01-source-and-match');
  });

  await step('target', async () => {
    await page.keyboard.press('Alt+1');
    await target(n).getByText('ausführliche Ausgabe').waitFor();
    assert.equal(await target(n).getByRole('img', { name: 'line break' }).count(), 2);
    assert.match(await target(n).innerText(), /\[Optionen\]↵?\n/);
    await screenshot(page, 'marks-02-target');
    const { body } = await confirm();
    assert.equal(body.target, USAGE_DE, 'line breaks and the tab kept as they are');
    assert.equal((await segmentById(usage.id)).target, USAGE_DE);
  });

  await step('no-break-and-doubled-spaces', async () => {
    const price = segments.find((s) => s.source === PRICE)!;
    const doubled = segments.find((s) => s.source === DOUBLED)!;
    await openSegment(documentId, price.position + 1);
    assert.equal(
      await sourceOf(price.position + 1)
        .getByRole('img', { name: 'no-break space' })
        .count(),
      2,
    );
    assert.equal(
      await sourceOf(doubled.position + 1)
        .getByRole('img', { name: '2 spaces' })
        .count(),
      1,
    );
    await page.keyboard.press('Control+I');
    await target(price.position + 1)
      .getByRole('img', { name: 'no-break space' })
      .first()
      .waitFor();
    await screenshot(page, 'marks-03-spaces');
    const { body } = await confirm();
    assert.equal(body.target, PRICE);
  });
  assert.deepEqual(browsing.problems, []);
});

test('finding 7: placeholders shown as themselves in the diff, replace preview and history; protected; projected', {
  skip: browserSkipReason,
}, async () => {
  const documentId = await upload('copy.po', po([COPY, '%(count)d files in {name}']));
  const segments = await segmentsOf(documentId);
  const copy = segments.find((s) => s.source === COPY)!;
  const n = copy.position + 1;

  await step('diff', async () => {
    await openSegment(documentId, n);
    assert.equal(await sourceOf(n).getByRole('img', { name: 'placeholder %s' }).count(), 2);
    const match = matchesPanel().getByRole('listitem').first();
    await match.getByRole('deletion').first().waitFor();
    // `%1$s` against `%s`: the difference a software translator checks, readable — never "?".
    const removed = match.getByRole('deletion');
    const added = match.getByRole('insertion');
    assert.ok((await removed.allInnerTexts()).includes('%1$s'), (await removed.allInnerTexts()).join('|'));
    assert.ok((await added.allInnerTexts()).includes('%s'), (await added.allInnerTexts()).join('|'));
    assert.equal(await matchesPanel().getByRole('img', { name: 'tag ?' }).count(), 0);
    await screenshot(page, 'placeholders-01-diff');
  });

  await step('insert-and-protect', async () => {
    // Alt+1 puts this source's placeholders where the match had its own.
    await page.keyboard.press('Alt+1');
    await target(n).getByText('kopieren?').waitFor();
    assert.equal(await target(n).getByRole('img', { name: 'placeholder %s' }).count(), 2);
    assert.equal(await target(n).innerText(), '%s nach %s kopieren?');
    // A placeholder is one unit: Delete at its start takes all of it, never half.
    await page.keyboard.press('Home');
    await page.keyboard.press('Delete');
    assert.equal(await target(n).innerText(), ' nach %s kopieren?');
    await page.keyboard.press('Control+Z');
    assert.equal(await target(n).innerText(), '%s nach %s kopieren?');
    // The cursor steps over it as one unit.
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('X');
    assert.equal(await target(n).innerText(), '%sX nach %s kopieren?');
    await page.keyboard.press('Backspace');
    await screenshot(page, 'placeholders-02-target');
    const { body } = await confirm();
    assert.equal(body.target, '%s nach %s kopieren?');
    assert.equal((await segmentById(copy.id)).target, '%s nach %s kopieren?');
  });

  await step('replace-preview-and-history', async () => {
    await openSegment(documentId, n);
    await page.keyboard.press('Control+Shift+F');
    const dialog = page.getByRole('dialog', { name: 'Find and replace' });
    await dialog.getByLabel('Find').fill('kopieren');
    await dialog.getByLabel('Replace with').fill('kopieren lassen');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const changes = dialog.getByRole('table', { name: 'Changes' });
    await changes.getByRole('row').nth(1).waitFor();
    assert.equal(await changes.getByRole('img', { name: 'placeholder %s' }).count(), 2);
    await screenshot(page, 'placeholders-03-replace-preview');
    const applied = page.waitForResponse((r) => r.url().endsWith('/v2/documents/replace'));
    await dialog.getByRole('button', { name: 'Replace all' }).click();
    assert.equal((await applied).status(), 200);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'History' }).click();
    const versions = page.getByRole('list', { name: `Versions of segment ${n}` });
    await versions.getByRole('listitem').nth(1).waitFor();
    assert.ok((await versions.getByRole('img', { name: 'placeholder %s' }).count()) >= 2);
    assert.equal(await versions.getByRole('img', { name: 'tag ?' }).count(), 0);
    await screenshot(page, 'placeholders-04-history');
    assert.equal((await segmentById(copy.id)).target, '%s nach %s kopieren lassen?');
  });
  assert.deepEqual(browsing.problems, []);
});

test('finding 7: placeholders a filter protected as code elements read as their native code in the diff', {
  skip: browserSkipReason,
}, async () => {
  // JSON messages: their placeholders are protected as code elements (`<ph id="1">{{count}}</ph>`).
  const documentId = await upload(
    'files.json',
    JSON.stringify({ files: 'You have {{count}} files', hello: 'Hello {name}, welcome back!' }),
  );
  const [files, hello] = await segmentsOf(documentId);
  assert.equal(files.source, 'You have <ph id="1">{{count}}</ph> files');
  for (const [source, target] of [
    ['You have <ph id="2">{{total}}</ph> new files', 'Sie haben <ph id="2">{{total}}</ph> neue Dateien'],
    ['Hello {name}, welcome back again!', 'Hallo {name}, willkommen zurück!'],
  ]) {
    assert.equal((await api.post('/v2/segments', { memory_id: memoryId, source, target })).statusCode, 200);
  }

  await step('diff-of-protected-placeholders', async () => {
    await openSegment(documentId, files.position + 1);
    const match = matchesPanel().getByRole('listitem').first();
    await match.getByRole('deletion').first().waitFor();
    const diff = match.locator('.match-source');
    // Another placeholder in its place: struck and inserted as their text, never as `<ph id="1">…</ph>`.
    assert.deepEqual(await diff.getByRole('deletion').allInnerTexts(), ['{{total}}', 'new']);
    assert.deepEqual(await diff.getByRole('insertion').allInnerTexts(), ['{{count}}']);
    assert.equal(await diff.getByRole('img', { name: 'placeholder {{count}}' }).count(), 1);
    assert.doesNotMatch(await diff.innerText(), /<ph|<\/ph>/);
    // Alt+1 would put this segment's {{count}} in: the match says so.
    assert.match(
      await match.innerText(),
      /Inserted with this segment’s placeholders and numbers: Sie haben \{\{count\}\} neue Dateien/,
    );
    await screenshot(page, 'placeholders-05-diff-protected');
  });

  await step('same-placeholder-written-otherwise', async () => {
    await openSegment(documentId, hello.position + 1);
    const match = matchesPanel().getByRole('listitem').first();
    await match.getByRole('deletion').first().waitFor();
    const diff = match.locator('.match-source');
    // `{name}` typed in the match, protected here: the same placeholder, not a change.
    assert.deepEqual(await diff.getByRole('deletion').allInnerTexts(), ['again']);
    assert.deepEqual(await diff.getByRole('insertion').allInnerTexts(), []);
    assert.equal(await diff.getByRole('img', { name: 'placeholder {name}' }).count(), 1);
  });
  assert.deepEqual(browsing.problems, []);
});

test('finding 6: a match missing placeholders is no match; another placeholder in its place costs 2 and is projected', {
  skip: browserSkipReason,
}, async () => {
  const documentId = await upload('available.po', po([AVAILABLE, DELETE_FILES]));
  const [available, deleteFiles] = await segmentsOf(documentId);
  assert.deepEqual([available.source, deleteFiles.source], [AVAILABLE, DELETE_FILES]);

  await step('no-match-without-placeholders', async () => {
    await openSegment(documentId, 1);
    // "Available" lacks both placeholders — two of three content tokens: 31, no longer a 96 % match.
    await matchesPanel().getByText('No match of 75% or more in the memory.').waitFor();
    // The entry is still there for the translator who looks it up.
    const concordance = page.getByRole('region', { name: 'Concordance' });
    const search = concordance.getByRole('searchbox', { name: 'Search the memory' });
    await search.fill('available');
    await search.press('Enter');
    await concordance.getByText('Verfügbar').waitFor();
    assert.equal((await target(1).innerText()).trim(), '', 'nothing inserted');
    await screenshot(page, 'placeholder-score-01-no-match');
  });

  await step('placeholder-penalty-and-projection', async () => {
    await openSegment(documentId, 2);
    const match = matchesPanel().getByRole('listitem').first();
    await match.getByText('98%', { exact: true }).waitFor();
    assert.deepEqual(
      await match.getByRole('list', { name: 'Points off' }).getByRole('listitem').allInnerTexts(),
      ['placeholder −2'],
    );
    assert.deepEqual(await match.getByRole('deletion').allInnerTexts(), ['%s']);
    assert.deepEqual(await match.getByRole('insertion').allInnerTexts(), ['%d']);
    // The match says what Alt+1 will insert: the memory's %s becomes this source's %d.
    assert.match(
      await match.innerText(),
      /Inserted with this segment’s placeholders and numbers: %d Dateien jetzt von der Festplatte löschen/,
    );
    // Alt+1: nothing lost, nothing to retype.
    await page.keyboard.press('Alt+1');
    await target(2).getByText('Dateien jetzt').waitFor();
    assert.equal(await target(2).innerText(), DELETE_FILES_DE);
    assert.equal(await target(2).getByRole('img', { name: 'placeholder %d' }).count(), 1);
    assert.equal(
      await page
        .getByRole('list', { name: 'QA issues of segment 2' })
        .getByRole('listitem')
        .filter({ hasText: /^Error/ })
        .count(),
      0,
    );
    await screenshot(page, 'placeholder-score-02-projected');
    const { body } = await confirm();
    assert.equal(body.target, DELETE_FILES_DE);
    assert.equal((await segmentById(deleteFiles.id)).target, DELETE_FILES_DE);
  });
  assert.deepEqual(browsing.problems, []);
});

test('finding 4: a missing placeholder stops the confirmation until "Confirm anyway", history says so, and the export never drops it', {
  skip: browserSkipReason,
}, async () => {
  const documentId = await upload('delete.po', po([DELETE]));
  const [segment] = await segmentsOf(documentId);
  let errors: string[] = [];

  await step('blocked', async () => {
    await openSegment(documentId, 1);
    // "%s" and the 3 left out.
    await page.keyboard.type('Dateien löschen?');
    const issues = page.getByRole('list', { name: 'QA issues of segment 1' });
    const errorItems = issues.getByRole('listitem').filter({ hasText: /^Error/ });
    await errorItems.filter({ hasText: 'Placeholder %s of the source is missing' }).waitFor();
    errors = (await errorItems.allInnerTexts()).map((t) => t.replace(/^Error\s*/, ''));
    let confirmations = 0;
    const count = (r: Request) => {
      if (r.method() === 'PUT' && r.url().endsWith('/v2/segments') && r.postDataJSON()?.is_confirmed)
        confirmations++;
    };
    page.on('request', count);
    await page.keyboard.press('Control+Enter');
    const refusal = page.getByRole('alert').filter({ hasText: /^Not confirmed: \d QA errors?/ });
    await refusal.waitFor();
    page.off('request', count);
    assert.equal(confirmations, 0);
    assert.match(await refusal.innerText(), new RegExp(`Not confirmed: ${errors.length} QA error`));
    await screenshot(page, 'qa-placeholder-01-blocked');
    const put = page.waitForResponse(
      (r) => r.url().endsWith('/v2/segments') && r.request().method() === 'PUT',
    );
    await refusal.getByRole('button', { name: 'Confirm anyway' }).click();
    const body = (await put).request().postDataJSON();
    assert.deepEqual([body.target, body.is_confirmed], ['Dateien löschen?', true]);
    assert.equal((await segmentById(segment.id)).is_confirmed, true);
  });

  await step('history', async () => {
    const history = (await api.get(`/v2/segments/history?id=${segment.id}`)).json();
    assert.deepEqual(history.versions[0].qa_errors, errors);
    await openSegment(documentId, 1);
    await page.getByRole('button', { name: 'History' }).click();
    const versions = page.getByRole('list', { name: 'Versions of segment 1' });
    const noted = versions
      .getByRole('listitem')
      .first()
      .getByText(new RegExp(`^Confirmed with ${errors.length} QA errors?: `));
    await noted.waitFor();
    assert.match(await noted.innerText(), /Placeholder %s of the source is missing/);
    await screenshot(page, 'qa-placeholder-02-history');
  });

  await step('document-qa-lists-what-the-export-does', async () => {
    await page.getByRole('button', { name: /^QA: \d+ errors?/ }).click();
    const dialog = page.getByRole('dialog', { name: 'QA issues' });
    await dialog
      .getByRole('note')
      .getByText(
        /^Placeholders that would not run: 1 confirmed segment will be exported as a draft \(fuzzy\)/,
      )
      .waitFor();
    const listed = dialog
      .getByRole('list', { name: 'QA issues of the document' })
      .getByRole('listitem')
      .filter({ hasText: 'Exported as a draft' });
    assert.equal(await listed.count(), 1);
    assert.match(await listed.innerText(), /Placeholder %s of the source is missing/);
    await screenshot(page, 'qa-placeholder-03-document-qa');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await step('po-exported-fuzzy', async () => {
    // PO has a mark for it: the confirmed work is in the file, as a draft with a comment saying why.
    const exported = await exportOriginal();
    assert.ok(
      exported.text.includes(
        '# Tessera: fuzzy, its placeholders would not run: Placeholder %s of the source is missing\n' +
          '#, fuzzy\nmsgid "Delete %s (3 files)?"\nmsgstr "Dateien löschen?"\n',
      ),
      exported.text,
    );
    assert.equal(msgfmtErrors(exported.text), '');
  });

  await step('json-refused-naming-the-segment', async () => {
    // JSON has no such mark: the export of the original is refused, naming the segment, never the source put
    // in its place.
    const json = await upload('count.json', JSON.stringify({ files: 'You have {{count}} files' }));
    await openSegment(json, 1);
    await page.keyboard.type('Sie haben Dateien');
    const refusal = page.getByRole('alert').filter({ hasText: /^Not confirmed/ });
    await page.keyboard.press('Control+Enter');
    await refusal.getByRole('button', { name: 'Confirm anyway' }).click();
    await until(
      'confirmed',
      async () => (await segmentsOf(json))[0].status,
      (s) => s === 'confirmed',
    );
    // The Segment panel names what is missing as the chip reads: a placeholder, not a tag.
    await segmentPanel()
      .getByText('Missing placeholders:')
      .getByRole('img', { name: 'placeholder {{count}}' })
      .waitFor();
    assert.equal(await segmentPanel().getByText('Missing tags:').count(), 0);
    await page.getByRole('button', { name: 'Export original' }).click();
    const note = page.getByRole('status').filter({ hasText: /^Not exported/ });
    await note.waitFor();
    assert.equal(
      await note.innerText(),
      'Not exported: the placeholders of confirmed segment 1 would not run (Placeholder {{count}} of the source ' +
        'is missing), and JSON has no mark for a draft. Correct it (the QA list names it) or export XLIFF.',
    );
    // The buttons stay on one line: the note opens below its button.
    const [replace, exportButton] = await Promise.all([
      page.getByRole('button', { name: 'Replace…' }).boundingBox(),
      page.getByRole('button', { name: 'Export original' }).boundingBox(),
    ]);
    assert.equal(replace?.y, exportButton?.y);
    await screenshot(page, 'qa-placeholder-04-json-refused');
    // Corrected, it exports.
    await target(1).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Sie haben Dateien');
    await page.keyboard.press('Home');
    await press('ArrowRight', 'Sie haben '.length);
    await page.keyboard.press('Alt+T');
    await page.keyboard.type(' ');
    await segmentPanel().getByText('All placeholders placed.').waitFor();
    await confirm();
    const exported = await exportOriginal();
    assert.deepEqual(JSON.parse(exported.text), { files: 'Sie haben {{count}} Dateien' });
  });
  assert.deepEqual(browsing.problems, []);
});

test('finding 3: auto-accept is off by default, says what it confirms, takes exact matches only; context matches show as 101 %', {
  skip: browserSkipReason,
}, async () => {
  // A first document translated and confirmed: the memory holds its sentences in their context.
  const first = await upload('rooms-1.txt', CONTEXT_SOURCES.join('\n\n'));
  for (const [i, s] of (await segmentsOf(first)).entries())
    await api.put('/v2/segments', { id: s.id, target: CONTEXT_TARGETS[i], is_confirmed: true });
  const second = await upload('rooms-2.txt', CONTEXT_SOURCES.join('\n\n'));
  const middle = (await segmentsOf(second))[1];

  await step('pretranslate-dialog', async () => {
    await page.goto(`${base}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Pre-translate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pre-translate from the memory' });
    assert.ok(await dialog.getByRole('radio', { name: /^Confirm nothing/ }).isChecked());
    await dialog
      .getByRole('radio', { name: 'Confirm exact matches (100 %, identical text and tags)' })
      .waitFor();
    for (const doc of await dialog.getByRole('checkbox').all())
      if ((await doc.getAttribute('value')) !== String(second)) await doc.uncheck();
    await dialog.getByRole('radio', { name: /^Confirm only context matches \(101 %/ }).check();
    assert.deepEqual(await axeViolations(page), [], 'axe on the pre-translate dialog');
    await screenshot(page, 'auto-accept-01-dialog');
    const started = page.waitForResponse((r) => r.url().endsWith('/v2/documents/pretranslate'));
    await dialog.getByRole('button', { name: 'Start pre-translation' }).click();
    const answer = await started;
    assert.equal(answer.status(), 202);
    assert.deepEqual(answer.request().postDataJSON(), {
      id: [second],
      auto_accept: true,
      auto_accept_scope: 'context',
    });
    await until(
      'pre-translation',
      async () => (await api.get(`/v2/documents?id=${second}`)).json(),
      (d) => !d.is_pretranslating,
    );
  });

  await step('jobs-dialog', async () => {
    await page.goto(`${base}/jobs`);
    await page.getByRole('button', { name: 'New job' }).click();
    const dialog = page.getByRole('dialog', { name: 'New job' });
    const pairs = dialog.getByRole('table', { name: 'Language pairs' });
    await pairs.getByRole('checkbox', { name: 'German (de)', exact: true }).check();
    const accept = pairs.getByRole('combobox', { name: 'Auto-accept into German (de)' });
    assert.equal(await accept.inputValue(), 'none');
    assert.deepEqual(await accept.getByRole('option').allInnerTexts(), [
      'Confirm nothing: every match stays to be checked',
      'Confirm exact matches (100 %, identical text and tags)',
      'Confirm only context matches (101 %, exact and in the same context)',
    ]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  await step('context-match-101', async () => {
    const query = (
      await api.get(
        `/v2/memories/query?id=${memoryId}&query=${encodeURIComponent(middle.source)}&segment_id=${middle.id}`,
      )
    ).json();
    // The server's own context match: flagged in the match's metadata, confirmed by the "context" choice.
    assert.equal(query[0].metadata.context_match, true);
    assert.equal((await segmentById(middle.id)).is_confirmed, true);
    const queried = page.waitForRequest((r) => r.url().includes('/v2/memories/query'));
    await openSegment(second, 2);
    // The editor names the segment, so that the server can compare its context.
    assert.equal(new URL((await queried).url()).searchParams.get('segment_id'), String(middle.id));
    await matchesPanel().getByText('101%', { exact: true }).first().waitFor();
    await rowOf(2).getByText('101%', { exact: true }).waitFor();
    await screenshot(page, 'auto-accept-02-context-match');
    await matchesPanel().screenshot({ path: join(SCREENSHOTS, 'auto-accept-03-matches-101.png') });
  });

  await step('exact-only', async () => {
    // "done." → "fertig.": 99 (case). "Confirm exact matches" fills it in and leaves it to the translator;
    // the exact "Open the door." is confirmed.
    const doc = await upload('done.txt', ['Done.', 'Open the door.'].join('\n\n'));
    await page.goto(`${base}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Pre-translate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pre-translate from the memory' });
    for (const box of await dialog.getByRole('checkbox').all())
      if ((await box.getAttribute('value')) !== String(doc)) await box.uncheck();
    await dialog
      .getByRole('radio', { name: 'Confirm exact matches (100 %, identical text and tags)' })
      .check();
    const started = page.waitForResponse((r) => r.url().endsWith('/v2/documents/pretranslate'));
    await dialog.getByRole('button', { name: 'Start pre-translation' }).click();
    assert.deepEqual((await started).request().postDataJSON(), {
      id: [doc],
      auto_accept: true,
      auto_accept_scope: 'exact',
    });
    await until(
      'pre-translation',
      async () => (await api.get(`/v2/documents?id=${doc}`)).json(),
      (d) => !d.is_pretranslating,
    );
    const [done, open] = await segmentsOf(doc);
    assert.deepEqual(
      [done.target, done.match_score, done.is_confirmed],
      // Its first letter raised: the segment starts with a capital, the stored "done." did not.
      ['Fertig.', 99, false],
      'a 99 % match is never confirmed',
    );
    assert.deepEqual([open.target, open.match_score, open.is_confirmed], ['Öffne die Tür.', 100, true]);
    const repairAsked = page.waitForResponse(
      (r) =>
        r.url().includes('/v2/translate/repairs') && new URL(r.url()).searchParams.get('source') === 'Done.',
    );
    await openSegment(doc, 1);
    await rowOf(1).getByText('99%', { exact: true }).waitFor();
    assert.equal(await rowOf(1).getByText('Confirmed', { exact: true }).count(), 0);
    await rowOf(2).getByText('Confirmed', { exact: true }).waitFor();
    await matchesPanel().getByRole('listitem').first().getByRole('list', { name: 'Points off' }).waitFor();
    // The MT repair of "fertig." is "Fertig.", what inserting the match writes already: not offered twice.
    const repairs = await (
      await api.get(`/v2/translate/repairs?memory_id=${memoryId}&source=${encodeURIComponent('Done.')}`)
    ).json();
    assert.equal(repairs.repairs[0]?.target, 'Fertig.');
    await repairAsked;
    // Two frames after the answer: what it shows is painted. (Run in the page; the test's types have no DOM.)
    await page.evaluate(
      'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null))))',
    );
    assert.equal(await matchesPanel().getByRole('list', { name: 'Repaired match' }).count(), 0);
    await screenshot(page, 'auto-accept-04-exact-only');
  });
  assert.deepEqual(browsing.foreignRequests, []);
  assert.deepEqual(browsing.problems, []);
});
