// The active segment is always drawn, focused and at a fixed height — a third down the list — after every kind of
// move (issue 25): a deep link, a reload, Alt+↓/Alt+↑, Ctrl+Enter, Alt+G, a status filter and a search, on a
// document of many thousand segments. Each check reads the row's box against the list's visible area (never a
// CSS class) and which element has the focus; a screenshot is kept of each. A reload right after a confirmation,
// before the outbox forgot it, must not leave the focus in a conflict dialog (the CI failure of the deliverable
// test).
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

const PASSWORD = 'anna-correct-horse-42';
const SEGMENTS = 12_000;
// Some paragraphs longer than others: rows of different heights, measured only once drawn.
const TEXT = Array.from({ length: SEGMENTS }, (_, i) =>
  i % 7 === 3
    ? `Paragraph ${i + 1} is a longer one, which wraps over several lines in the grid so that its row is taller than the estimate the list starts from, and the rows above a segment are measured only once drawn.`
    : `Paragraph ${i + 1} of the handbook.`,
).join('\n\n');

let ctx: TestContext;
let base: string;
let browsing: Browsing;
let page: Page;
let api: ReturnType<typeof client>;
let documentId = 0;

before(async () => {
  if (browserSkipReason) return;
  ({ ctx, base } = await serveWebApp('en,de'));
  api = client(ctx.app, await userKey(ctx, { username: 'anna', password: PASSWORD, role: 'member' }));
  const memory = (
    await api.post('/v2/memories', { name: 'Handbook de', srclang: 'en', trglang: 'de' })
  ).json();
  const projectId = (await api.post('/v2/projects', { name: 'Handbook', memory_id: memory.id })).json().id;
  const uploaded = await api.upload('/v2/documents/files', TEXT, {
    'lilt-api': JSON.stringify({ name: 'handbook.txt', project_id: projectId }),
  });
  assert.equal(uploaded.statusCode, 200, uploaded.body);
  documentId = uploaded.json().id;
  for (;;) {
    const doc = (await api.get(`/v2/documents?id=${documentId}`)).json();
    if (!doc.import_in_progress) {
      assert.equal(doc.num_segments, SEGMENTS);
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  browsing = await openBrowser(base, { width: 1280, height: 800 });
  page = browsing.page;
  await signInAt(page, `${base}/projects/${projectId}`, 'anna', PASSWORD);
  await page.getByRole('heading', { name: 'Handbook' }).waitFor();
});

after(async () => {
  await browsing?.close();
  await ctx?.close();
});

const step = (name: string, run: () => Promise<void>) => stepOf(page, name, run);

interface Placement {
  focused: string | null;
  /** The row's top and bottom as fractions of the list's visible area (0 its top edge, 1 its bottom edge). */
  top: number | null;
  bottom: number | null;
  /** The QA lines' bottom, when there are any. */
  qaBottom: number | null;
}

/** Where segment n's row stands in the list's visible area, and which element has the focus. */
async function placement(n: number): Promise<Placement> {
  const focused = await page.evaluate<string | null>(
    "document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName ?? null",
  );
  const area = await page.getByRole('grid', { name: 'Segments' }).getByRole('rowgroup').nth(1).boundingBox();
  const target = page.getByRole('textbox', { name: `Target ${n}`, exact: true });
  const row = page.getByRole('row').filter({ has: target });
  const box = (await row.count()) === 1 ? await row.boundingBox() : null;
  const qa = page.getByRole('list', { name: `QA issues of segment ${n}` });
  const qaBox = (await qa.count()) === 1 ? await qa.boundingBox() : null;
  if (!area || !box) return { focused, top: null, bottom: null, qaBottom: null };
  const at = (y: number) => Math.round(((y - area.y) / area.height) * 100) / 100;
  return {
    focused,
    top: at(box.y),
    bottom: at(box.y + box.height),
    qaBottom: qaBox ? at(qaBox.y + qaBox.height) : null,
  };
}

/**
 * Waits until segment n is focused, wholly in view, and its top a third down the list (between 15 % and 45 %
 * of the visible area; `anywhere` for the first rows, which cannot scroll down that far).
 */
async function expectPlaced(n: number, shot: string, anywhere = false) {
  const started = Date.now();
  let last: Placement | null = null;
  for (;;) {
    last = await placement(n);
    const inView = last.top !== null && last.top >= 0 && last.bottom !== null && last.bottom <= 1;
    const third = anywhere || (last.top !== null && last.top >= 0.15 && last.top <= 0.45);
    const qaInView = last.qaBottom === null || last.qaBottom <= 1;
    if (last.focused === `Target ${n}` && inView && third && qaInView) break;
    if (Date.now() - started > 20_000) {
      await screenshot(page, `failure-position-${shot}`);
      assert.fail(`segment ${n} not placed: ${JSON.stringify(last)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await screenshot(page, `position-${shot}`);
  return last;
}

test('the active segment is drawn, focused and a third down the list after every kind of move', {
  skip: browserSkipReason,
}, async () => {
  await step('deep-link', async () => {
    await page.goto(`${base}/documents/${documentId}?seg=7000`);
    await expectPlaced(7000, '01-deep-link');
  });

  await step('reload', async () => {
    await page.reload();
    await expectPlaced(7000, '02-reload');
  });

  await step('next-previous', async () => {
    for (const n of [7001, 7002, 7003, 7004, 7005]) {
      await page.keyboard.press('Alt+ArrowDown');
      await expectPlaced(n, `03-next-${n}`);
    }
    await page.keyboard.press('Alt+ArrowUp');
    await expectPlaced(7004, '04-previous');
  });

  await step('confirm-and-next', async () => {
    // A target with a QA warning (no final full stop): the row with its QA lines stays wholly in view.
    await page.keyboard.type('Absatz 7004 des Handbuchs');
    await page.getByRole('list', { name: 'QA issues of segment 7004' }).waitFor();
    await expectPlaced(7004, '05-qa-lines');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/v2/segments') && r.request().method() === 'PUT' && r.ok(),
    );
    await page.keyboard.press('Control+Enter');
    await saved;
    await expectPlaced(7005, '06-confirm-and-next');
  });

  await step('go-to', async () => {
    for (const n of [11_990, 120, 5, SEGMENTS]) {
      await page.keyboard.press('Alt+G');
      const dialog = page.getByRole('dialog', { name: 'Go to segment' });
      await dialog.getByLabel('Segment number').fill(String(n));
      await dialog.getByRole('button', { name: 'Go' }).click();
      // The first rows and the last cannot stand a third down: the list does not scroll past its ends.
      await expectPlaced(n, `07-go-to-${n}`, n <= 5 || n === SEGMENTS);
    }
  });

  await step('filter', async () => {
    await page.getByRole('button', { name: /^Confirmed/ }).click();
    await expectPlaced(7004, '08-filter-confirmed', true);
    await page.getByRole('button', { name: /^All/ }).click();
    await expectPlaced(1, '09-filter-all', true);
  });

  await step('search', async () => {
    const search = page.getByRole('searchbox', { name: 'Search segments' });
    await search.click();
    await page.keyboard.type('Paragraph 9876 ');
    await page.getByRole('status').filter({ hasText: '1 shown' }).waitFor();
    // Typing in the search keeps the focus there; Enter takes it to the segment found.
    assert.equal(
      await page.evaluate('document.activeElement?.getAttribute("aria-label")'),
      'Search segments',
    );
    await page.keyboard.press('Enter');
    await expectPlaced(9876, '10-search', true);
    await search.fill('');
    await page.keyboard.press('Enter');
    await expectPlaced(1, '11-search-cleared', true);
  });

  await step('deep-link-filtered', async () => {
    await page.goto(`${base}/documents/${documentId}?seg=9000&status=new`);
    await expectPlaced(9000, '12-deep-link-filtered');
  });

  await step('reload-after-confirmation', async () => {
    // What a reload right after a confirmation can find: its outbox item, not yet deleted, of a save the server
    // already has. Sent again it meets a newer version of the same text and confirmation: no conflict to choose.
    const [segment] = (await api.get(`/v2/documents/segments?id=${documentId}&offset=8000&limit=1`)).json()
      .segments;
    const before = segment.updated_at;
    const saved = (
      await api.put('/v2/segments', {
        id: segment.id,
        target: 'Absatz 8001 des Handbuchs.',
        is_confirmed: true,
      })
    ).json();
    assert.ok(saved.updated_at >= before);
    const item = {
      seq: Date.now() * 1000,
      document_id: documentId,
      user: 'anna',
      segment_id: segment.id,
      target: 'Absatz 8001 des Handbuchs.',
      is_confirmed: true,
      expected_updated_at: before - 1,
      queued_at: Date.now(),
    };
    await page.evaluate(`new Promise((resolve, reject) => {
      const open = indexedDB.open('tessera');
      open.onsuccess = () => {
        const tx = open.result.transaction('outbox', 'readwrite');
        tx.objectStore('outbox').put(${JSON.stringify(item)});
        tx.oncomplete = () => { open.result.close(); resolve(); };
        tx.onerror = () => reject(tx.error);
      };
      open.onerror = () => reject(open.error);
    })`);
    const replayed = page.waitForResponse(
      (r) => r.url().endsWith('/v2/segments') && r.request().method() === 'PUT',
    );
    await page.goto(`${base}/documents/${documentId}?seg=8001`);
    assert.equal((await replayed).status(), 409);
    await expectPlaced(8001, '13-reload-after-confirmation');
    assert.equal(await page.getByRole('dialog').count(), 0);
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
  });

  assert.ok((await page.getByRole('row').count()) < 200);
  assert.deepEqual(browsing.problems, []);
  assert.deepEqual(browsing.foreignRequests, []);
});

test('QA as a list: the count opens every issue with its segment, a choice goes there; F8 and the filter', {
  skip: browserSkipReason,
}, async () => {
  const sentences = [
    'Open the file.',
    'Delete 3 files.',
    'Close the window.',
    'Save your work.',
    'Print the page.',
    'Exit the program.',
  ];
  const project = (await api.get('/v2/projects')).json()[0];
  const uploaded = await api.upload('/v2/documents/files', sentences.join('\n\n'), {
    'lilt-api': JSON.stringify({ name: 'qa.txt', project_id: project.id }),
  });
  const qaDoc = uploaded.json().id;
  while ((await api.get(`/v2/documents?id=${qaDoc}`)).json().import_in_progress)
    await new Promise((r) => setTimeout(r, 50));
  const segments = (await api.get(`/v2/documents/segments?id=${qaDoc}`)).json().segments;
  const targets = [
    'Öffnen Sie die Datei.',
    'Dateien löschen.', // the 3 left out: an error
    'Schließen Sie das Fenster.',
    'Speichern Sie Ihre Arbeit', // no final full stop: a warning
    'Drucken Sie die Seite.',
    'Beenden Sie das Programm.',
  ];
  for (const [i, s] of segments.entries())
    await api.put('/v2/segments', { id: s.id, target: targets[i], is_confirmed: true });

  await step('qa-list', async () => {
    await page.goto(`${base}/documents/${qaDoc}?seg=1`);
    await expectPlaced(1, '20-qa-open', true);
    await page.getByRole('button', { name: 'QA: 1 error, 1 warning' }).click();
    const dialog = page.getByRole('dialog', { name: 'QA issues' });
    const items = dialog.getByRole('list', { name: 'QA issues of the document' }).getByRole('listitem');
    await items.first().waitFor();
    assert.equal(await items.count(), 2);
    const texts = await items.allInnerTexts();
    assert.match(texts[0], /^2\s+Delete 3 files\.\s+Error/);
    assert.match(texts[1], /^4\s+Save your work\.\s+Warning/);
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'qa-list-01-dialog');
    // Enter on an issue takes the editor to its segment.
    await items.nth(1).getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expectPlaced(4, 'qa-list-02-chosen', true);
    assert.equal(await page.getByRole('dialog').count(), 0);
  });

  await step('next-issue-key', async () => {
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    await expectPlaced(1, 'qa-list-03-back', true);
    await page.keyboard.press('F8');
    await expectPlaced(2, 'qa-list-04-f8', true);
    await page.keyboard.press('F8');
    await expectPlaced(4, 'qa-list-05-f8-again', true);
    await page.keyboard.press('F8');
    await page.getByRole('status').filter({ hasText: 'No QA issue after this segment.' }).waitFor();
    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Next segment with a QA issue').waitFor();
    await help.getByRole('button', { name: 'Close' }).click();
    await expectPlaced(4, 'qa-list-06-help-closed', true);
  });

  await step('has-qa-issues-filter', async () => {
    await page.getByRole('button', { name: /^Has QA issues 2$/ }).click();
    await page.getByRole('status').filter({ hasText: '2 shown' }).waitFor();
    await expectPlaced(2, 'qa-list-07-filter', true);
    const numbers = await page
      .getByRole('grid', { name: 'Segments' })
      .getByRole('rowgroup')
      .nth(1)
      .getByRole('row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-rowindex')));
    assert.equal(numbers.length, 2);
    assert.match(page.url(), /[?&]qa=1/);
    // From a status filter that hides the segment, the QA list clears the filter and goes there.
    await page.getByRole('button', { name: /^All/ }).click();
    await page.getByRole('button', { name: /^New/ }).click();
    await page.getByRole('status').filter({ hasText: '0 shown' }).waitFor();
    await page.getByRole('button', { name: 'QA: 1 error, 1 warning' }).click();
    await page.getByRole('dialog', { name: 'QA issues' }).getByRole('button', { name: /^4\s/ }).click();
    await expectPlaced(4, 'qa-list-08-from-other-filter', true);
  });

  await step('qa-count-on-the-project-page', async () => {
    // The document row's QA count opens the document with only its segments that have issues.
    await page.goto(`${base}/projects/${project.id}`);
    await page.getByRole('link', { name: 'QA issues of qa.txt: 1 error, 1 warning' }).click();
    await page.getByRole('status').filter({ hasText: '2 shown' }).waitFor();
    assert.equal(
      await page.getByRole('button', { name: /^Has QA issues 2$/ }).getAttribute('aria-pressed'),
      'true',
    );
    await screenshot(page, 'qa-list-09-from-project-page');
  });
  assert.deepEqual(browsing.problems, []);
});

test('at 1,024 × 768 the editor fits: nothing overflows, the side panel is whole; context labels read as words', {
  skip: browserSkipReason,
}, async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  try {
    await step('narrow', async () => {
      await page.goto(`${base}/documents/${documentId}?seg=7000`);
      await expectPlaced(7000, '30-narrow-1024');
      const overflow = await page.evaluate<{ scroll: number; client: number }>(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      );
      assert.ok(overflow.scroll <= overflow.client, `the page scrolls sideways: ${JSON.stringify(overflow)}`);
      for (const name of ['Segment', 'Matches', 'Concordance']) {
        const box = await page.getByRole('region', { name }).boundingBox();
        assert.ok(
          box && box.x >= 0 && box.x + box.width <= 1024,
          `${name} panel cut: ${JSON.stringify(box)}`,
        );
      }
      for (const name of ['Replace…', 'Export XLIFF', 'Export original', 'Shortcuts']) {
        const box = await page.getByRole('button', { name, exact: true }).boundingBox();
        assert.ok(box && box.x + box.width <= 1024, `${name} cut: ${JSON.stringify(box)}`);
      }
      const search = await page.getByRole('searchbox', { name: 'Search segments' }).boundingBox();
      assert.ok(search && search.x + search.width <= 1024, `search cut: ${JSON.stringify(search)}`);
      await screenshot(page, 'narrow-1024x768');
    });

    await step('context-labels', async () => {
      const project = (await api.get('/v2/projects')).json()[0];
      const upload = async (name: string, body: string) => {
        const id = (
          await api.upload('/v2/documents/files', body, {
            'lilt-api': JSON.stringify({ name, project_id: project.id }),
          })
        ).json().id;
        while ((await api.get(`/v2/documents?id=${id}`)).json().import_in_progress)
          await new Promise((r) => setTimeout(r, 50));
        return id;
      };
      const html = await upload(
        'terms.html',
        '<html><body><dl><dt>Segment</dt><dd>A piece of text.</dd></dl></body></html>',
      );
      const po = await upload(
        'files.po',
        [
          'msgid ""',
          'msgstr ""',
          '"Content-Type: text/plain; charset=UTF-8\\n"',
          '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
          '',
          'msgid "One file"',
          'msgid_plural "%d files"',
          'msgstr[0] ""',
          'msgstr[1] ""',
          '',
        ].join('\n'),
      );
      const contextOf = () => page.getByRole('region', { name: 'Segment' }).getByTitle(/^Context: /);
      await page.goto(`${base}/documents/${html}?seg=1`);
      await contextOf().filter({ hasText: 'Definition term' }).waitFor();
      assert.equal(await contextOf().getAttribute('title'), 'Context: dt');
      await page.keyboard.press('Alt+ArrowDown');
      await contextOf()
        .filter({ hasText: /^Definition$/ })
        .waitFor();
      await page.goto(`${base}/documents/${po}?seg=1`);
      await contextOf().filter({ hasText: 'Plural form 1 (msgstr[0])' }).waitFor();
      await screenshot(page, 'context-label-po');
    });
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});
