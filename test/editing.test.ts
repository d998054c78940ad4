// The editor's server side through HTTP on every store: QA of a document, edits that are never lost
// (expected_updated_at), history and restore, find and replace with undo, browsing memory entries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

type Api = ReturnType<typeof client>;

/** An XLIFF 1.2 file of these sources (tagged text is XLIFF inline markup), with targets when given. */
function xliffOf(sources: readonly string[], targets?: readonly string[]): string {
  const units = sources
    .map((source, i) => {
      const target = targets ? `<target state="translated">${targets[i]}</target>` : '';
      return `<trans-unit id="u${i}"><source>${source}</source>${target}</trans-unit>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="de" datatype="plaintext" original="f.txt"><body>${units}</body></file></xliff>`;
}

for (const target of await storeTargets()) {
  describe(`editing on ${target.name}`, () => {
    let ctx: TestContext;
    let api: Api;
    let bob: Api;
    let otherApi: Api;
    let memoryId: number;
    let projectId: number;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
      bob = client(
        ctx.app,
        await userKey(ctx, { username: 'bob', password: 'bob-password', role: 'member' }),
      );
      otherApi = client(
        ctx.app,
        await userKey(ctx, {
          username: 'mallory',
          password: 'elsewhere1',
          role: 'admin',
          organization: 'rival',
        }),
      );
      memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json().id;
      projectId = (await api.post('/v2/projects', { name: 'Site', memory_id: memoryId })).json().id;
    });
    after(() => ctx.close());

    /** A plain-text document of these paragraphs, imported; answers its id and segments in order. */
    async function documentOf(paragraphs: readonly string[], name = 'doc.txt', content?: string) {
      const id = await api.uploadDocument(projectId, name, content ?? `${paragraphs.join('\n\n')}\n`);
      const page = await api.get(`/v2/documents/segments?id=${id}&limit=1000`);
      return { id, segments: page.json().segments as { id: number; source: string; updated_at: number }[] };
    }

    test('QA of a document: issues by segment with their position, counted by severity; tenancy', async () => {
      const doc = await documentOf(['Pay 1,000.5 EUR now.', 'Open the file.', 'See https://example.com.']);
      const [pay, open, see] = doc.segments;
      await api.put('/v2/segments', { id: pay.id, target: 'Zahlen Sie jetzt 1.000,5 EUR' });
      await api.put('/v2/segments', { id: open.id, target: 'Open the file.' });
      await api.put('/v2/segments', { id: see.id, target: 'Siehe https://example.de.', is_confirmed: true });
      const res = await api.get(`/v2/documents/qa?id=${doc.id}`);
      assert.equal(res.statusCode, 200, res.body);
      const report = res.json();
      assert.equal(report.document_id, doc.id);
      const found = report.issues.map((i: { segment_id: number; position: number; code: string }) => [
        i.segment_id,
        i.position,
        i.code,
      ]);
      assert.deepEqual(found, [
        [pay.id, 0, 'FINAL_PUNCTUATION'],
        [open.id, 1, 'TARGET_SAME_AS_SOURCE'],
        [see.id, 2, 'URL_MISSING'],
      ]);
      assert.deepEqual(report.counts, { error: 1, warning: 2 });
      assert.equal(report.issues[2].severity, 'error');
      assert.match(report.issues[2].message, /https:\/\/example\.com/);
      assert.equal((await otherApi.get(`/v2/documents/qa?id=${doc.id}`)).statusCode, 404);
      assert.equal((await api.get('/v2/documents/qa?id=999999')).statusCode, 404);
    });

    test('QA as a list: each issue carries its source excerpt; the segment list filters to segments with issues', async () => {
      const long = `Read the manual first, ${'and every word of this long sentence counts, '.repeat(6)}to the end.`;
      const doc = await documentOf(['Pay 1,000.5 EUR now.', 'Open the file.', 'All is well.', long, 'Done.']);
      const [pay, open, well, longSeg, done] = doc.segments;
      await api.put('/v2/segments', { id: pay.id, target: 'Zahlen Sie jetzt 1.000,5 EUR' });
      await api.put('/v2/segments', { id: open.id, target: 'Open the file.', is_confirmed: true });
      await api.put('/v2/segments', { id: well.id, target: 'Alles gut.', is_confirmed: true });
      await api.put('/v2/segments', { id: longSeg.id, target: 'Lesen Sie zuerst das Handbuch' });
      await api.put('/v2/segments', { id: done.id, target: 'Fertig. 3' });
      const report = (await api.get(`/v2/documents/qa?id=${doc.id}`)).json();
      const sources = new Map(
        report.issues.map((i: { position: number; source: string }) => [i.position, i.source]),
      );
      assert.equal(sources.get(0), 'Pay 1,000.5 EUR now.');
      // Tags left out, cut at a word, marked as cut.
      const excerpt = sources.get(3) as string;
      assert.match(excerpt, /^Read the manual first, and every word/);
      assert.ok(excerpt.length <= 161 && excerpt.endsWith('…'), excerpt);
      assert.equal(sources.has(2), false);

      const page = async (query: string) => {
        const res = await api.get(`/v2/documents/segments?id=${doc.id}&${query}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        return { total: body.total, positions: body.segments.map((s: { position: number }) => s.position) };
      };
      assert.deepEqual(await page('qa=any'), { total: 4, positions: [0, 1, 3, 4] });
      // Only errors: the number 3 added to "Fertig." is one; a missing final full stop is a warning.
      assert.deepEqual(await page('qa=error'), { total: 1, positions: [4] });
      // With the status and text filters, and paged.
      assert.deepEqual(await page('qa=any&status=confirmed'), { total: 1, positions: [1] });
      assert.deepEqual(await page('qa=any&q=FILE'), { total: 1, positions: [1] });
      assert.deepEqual(await page('qa=any&offset=1&limit=2'), { total: 4, positions: [1, 3] });
      // Agrees with the report, segment for segment.
      const withIssues = [...new Set(report.issues.map((i: { position: number }) => i.position))];
      assert.deepEqual((await page('qa=any')).positions, withIssues);

      const wrong = await api.get(`/v2/documents/segments?id=${doc.id}&qa=some`);
      assert.equal(wrong.statusCode, 400);
      assert.match(wrong.body, /qa/);
      assert.equal((await otherApi.get(`/v2/documents/segments?id=${doc.id}&qa=any`)).statusCode, 404);
    });

    test('PUT /v2/segments with expected_updated_at: a change made meanwhile is a 409 with the current segment', async () => {
      const doc = await documentOf(['The first sentence.', 'The second sentence.']);
      const [seg] = doc.segments;
      const read = (await api.get(`/v2/segments?id=${seg.id}`)).json();
      assert.equal(typeof read.updated_at, 'number');
      const first = await bob.put('/v2/segments', {
        id: seg.id,
        target: 'Der erste Satz.',
        expected_updated_at: read.updated_at,
      });
      assert.equal(first.statusCode, 200, first.body);
      // Within the same second too: updated_at grows with every change.
      assert.ok(first.json().updated_at > read.updated_at);
      const stale = await api.put('/v2/segments', {
        id: seg.id,
        target: 'Erster Satz.',
        expected_updated_at: read.updated_at,
      });
      assert.equal(stale.statusCode, 409, stale.body);
      const body = stale.json();
      assert.equal(body.code, 'SEGMENT_CONFLICT');
      assert.equal(body.current.id, seg.id);
      assert.equal(body.current.target, 'Der erste Satz.');
      assert.equal(body.current.updated_at, first.json().updated_at);
      // Based on the current version, it goes through; without expected_updated_at, always.
      const retry = await api.put('/v2/segments', {
        id: seg.id,
        target: 'Erster Satz.',
        expected_updated_at: body.current.updated_at,
      });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal((await api.put('/v2/segments', { id: seg.id, target: 'Satz eins.' })).statusCode, 200);
      // The segments page shows updated_at too.
      const page = (await api.get(`/v2/documents/segments?id=${doc.id}`)).json();
      assert.equal(
        page.segments[0].updated_at,
        (await api.get(`/v2/segments?id=${seg.id}`)).json().updated_at,
      );
    });

    test('history: every change of target or status is a version, newest first; restore one', async () => {
      const doc = await documentOf(['Save your work.']);
      const [seg] = doc.segments;
      await bob.put('/v2/segments', { id: seg.id, target: 'Speichern Sie.' });
      await bob.put('/v2/segments', { id: seg.id, target: 'Speichern Sie Ihre Arbeit.' });
      await api.put('/v2/segments', { id: seg.id, is_confirmed: true });
      // A change of nothing is no version.
      await api.put('/v2/segments', { id: seg.id, is_confirmed: true });
      const res = await api.get(`/v2/segments/history?id=${seg.id}`);
      assert.equal(res.statusCode, 200, res.body);
      const history = res.json();
      assert.equal(history.segment_id, seg.id);
      assert.deepEqual(
        history.versions.map((v: Record<string, unknown>) => [
          v.version,
          v.target,
          v.status,
          v.user,
          v.origin,
        ]),
        [
          [3, 'Speichern Sie Ihre Arbeit.', 'confirmed', 'admin', 'confirm'],
          [2, 'Speichern Sie Ihre Arbeit.', 'draft', 'bob', 'edit'],
          [1, 'Speichern Sie.', 'draft', 'bob', 'edit'],
        ],
      );
      assert.equal(typeof history.versions[0].created_at, 'number');

      const restored = await bob.post('/v2/segments/restore', { id: seg.id, version: 1 });
      assert.equal(restored.statusCode, 200, restored.body);
      assert.equal(restored.json().target, 'Speichern Sie.');
      assert.equal(restored.json().status, 'draft');
      const latest = (await api.get(`/v2/segments/history?id=${seg.id}`)).json().versions[0];
      assert.deepEqual([latest.version, latest.origin, latest.user], [4, 'restore', 'bob']);
      const stale = await bob.post('/v2/segments/restore', {
        id: seg.id,
        version: 2,
        expected_updated_at: 1,
      });
      assert.equal(stale.statusCode, 409);
      assert.equal((await bob.post('/v2/segments/restore', { id: seg.id, version: 99 })).statusCode, 404);
      assert.equal((await otherApi.get(`/v2/segments/history?id=${seg.id}`)).statusCode, 404);
    });

    test('history: pre-translation writes a version of each segment it fills, by who asked', async () => {
      await api.post('/v2/segments', {
        memory_id: memoryId,
        source: 'Close the window.',
        target: 'Schließe das Fenster.',
      });
      const doc = await documentOf(['Close the window.', 'Something else entirely.']);
      const res = await bob.post('/v2/documents/pretranslate', { id: [doc.id], auto_accept: true });
      assert.equal(res.statusCode, 202, res.body);
      for (let i = 0; (await api.get(`/v2/documents?id=${doc.id}`)).json().is_pretranslating; i++) {
        assert.ok(i < 3000, 'pre-translation never ended');
        await new Promise((r) => setTimeout(r, 20));
      }
      const [filled, untouched] = doc.segments;
      const versions = (await api.get(`/v2/segments/history?id=${filled.id}`)).json().versions;
      assert.deepEqual(
        versions.map((v: Record<string, unknown>) => [v.version, v.target, v.status, v.user, v.origin]),
        [[1, 'Schließe das Fenster.', 'confirmed', 'bob', 'pretranslate']],
      );
      const segment = (await api.get(`/v2/segments?id=${filled.id}`)).json();
      assert.equal(segment.updated_at, versions[0].created_at);
      assert.deepEqual((await api.get(`/v2/segments/history?id=${untouched.id}`)).json().versions, []);
    });

    test('find and replace: preview, apply as one batch, tags untouched, statuses, regex; undo', async () => {
      const doc = await documentOf(
        [],
        'tags.xlf',
        xliffOf(['Open the file <x id="file"/> file.', 'Close the file.', 'Print it.', 'Rename the folder.']),
      );
      const [open, close, print, rename] = doc.segments;
      await api.put('/v2/segments', { id: open.id, target: 'Öffne die Datei <x id="file"/> Datei.' });
      await api.put('/v2/segments', { id: close.id, target: 'Schließe die DATEI.', is_confirmed: true });
      await api.put('/v2/segments', { id: print.id, target: 'Drucke es.' });
      // Tags are not in the text: a tag that spells the word is never touched.
      await api.put('/v2/segments', { id: rename.id, target: 'Benenne den Ordner um.' });
      const body = { id: doc.id, find: 'datei', replace: 'Akte' };

      const preview = await api.post('/v2/documents/replace', { ...body, dry_run: true });
      assert.equal(preview.statusCode, 200, preview.body);
      assert.equal(preview.json().batch_id, null);
      assert.deepEqual(preview.json().changes, [
        {
          segment_id: open.id,
          position: 0,
          before: 'Öffne die Datei <x id="file"/> Datei.',
          after: 'Öffne die Akte <x id="file"/> Akte.',
        },
        { segment_id: close.id, position: 1, before: 'Schließe die DATEI.', after: 'Schließe die Akte.' },
      ]);
      // A dry run changes nothing.
      assert.equal(
        (await api.get(`/v2/segments?id=${open.id}`)).json().target,
        'Öffne die Datei <x id="file"/> Datei.',
      );
      // Case-sensitive and scoped by status.
      const scoped = await api.post('/v2/documents/replace', {
        ...body,
        find: 'Datei',
        case_sensitive: true,
        statuses: ['confirmed'],
        dry_run: true,
      });
      assert.equal(scoped.json().changed, 0);

      const applied = await bob.post('/v2/documents/replace', body);
      assert.equal(applied.statusCode, 200, applied.body);
      const batch = applied.json().batch_id;
      assert.equal(typeof batch, 'number');
      assert.equal(applied.json().changed, 2);
      const closed = (await api.get(`/v2/segments?id=${close.id}`)).json();
      assert.deepEqual([closed.target, closed.status], ['Schließe die Akte.', 'confirmed']);
      const history = (await api.get(`/v2/segments/history?id=${open.id}`)).json().versions[0];
      assert.deepEqual(
        [history.origin, history.user, history.target],
        ['replace', 'bob', 'Öffne die Akte <x id="file"/> Akte.'],
      );

      // Regular expressions with groups; a bad one is a 400 naming find.
      const regex = await api.post('/v2/documents/replace', {
        id: doc.id,
        find: '(\\w+) es\\.$',
        replace: '$1 das.',
        regex: true,
        dry_run: true,
      });
      assert.deepEqual(
        regex.json().changes.map((c: { after: string }) => c.after),
        ['Drucke das.'],
      );
      const bad = await api.post('/v2/documents/replace', {
        id: doc.id,
        find: '(unclosed',
        replace: '',
        regex: true,
      });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /"find"/);
      // Sources are searched (dry run) but never replaced.
      const sources = await api.post('/v2/documents/replace', {
        ...body,
        find: 'the',
        field: 'source',
        dry_run: true,
      });
      assert.equal(sources.json().changed, 3);
      assert.equal((await api.post('/v2/documents/replace', { ...body, field: 'source' })).statusCode, 400);
      assert.equal((await otherApi.post('/v2/documents/replace', body)).statusCode, 404);

      // Undo: refused when a segment changed since, else everything back as it was.
      const second = (
        await api.post('/v2/documents/replace', { id: doc.id, find: 'Akte', replace: 'Datei' })
      ).json();
      await api.put('/v2/segments', { id: close.id, target: 'Schließe sie.', is_confirmed: true });
      const refused = await api.post('/v2/documents/replace/undo', { id: doc.id, batch_id: second.batch_id });
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json().code, 'BATCH_CONFLICT');
      const third = (
        await api.post('/v2/documents/replace', { id: doc.id, find: 'Ordner', replace: 'Verzeichnis' })
      ).json();
      const undone = await api.post('/v2/documents/replace/undo', { id: doc.id, batch_id: third.batch_id });
      assert.equal(undone.statusCode, 200, undone.body);
      assert.deepEqual(undone.json(), { batch_id: third.batch_id, restored: 1 });
      const back = (await api.get(`/v2/segments?id=${rename.id}`)).json();
      assert.equal(back.target, 'Benenne den Ordner um.');
      assert.equal(
        (await api.get(`/v2/segments/history?id=${rename.id}`)).json().versions[0].origin,
        'restore',
      );
      assert.equal(
        (await api.post('/v2/documents/replace/undo', { id: doc.id, batch_id: third.batch_id })).statusCode,
        409,
      );
      assert.equal(
        (await api.post('/v2/documents/replace/undo', { id: doc.id, batch_id: 999999 })).statusCode,
        404,
      );
    });

    test('find and replace over a 20,000-segment document in one request, and its undo', async () => {
      const count = 20_000;
      const xliff = xliffOf(
        Array.from({ length: count }, (_, i) => `Sentence ${i} of the big file.`),
        Array.from({ length: count }, (_, i) => `Satz ${i} der großen Datei.`),
      );
      const doc = await documentOf([], 'big.xlf', xliff);
      assert.equal((await api.get(`/v2/documents?id=${doc.id}`)).json().num_segments, count);
      const body = { id: doc.id, find: 'großen', replace: 'langen' };
      let started = Date.now();
      const preview = await api.post('/v2/documents/replace', { ...body, dry_run: true });
      assert.equal(preview.statusCode, 200);
      assert.equal(preview.json().changed, count);
      const previewMs = Date.now() - started;
      started = Date.now();
      const applied = await api.post('/v2/documents/replace', body);
      assert.equal(applied.statusCode, 200, applied.body);
      assert.equal(applied.json().changed, count);
      const applyMs = Date.now() - started;
      const last = (await api.get(`/v2/documents/segments?id=${doc.id}&offset=${count - 1}`)).json()
        .segments[0];
      assert.equal(last.target, `Satz ${count - 1} der langen Datei.`);
      started = Date.now();
      const undone = await api.post('/v2/documents/replace/undo', {
        id: doc.id,
        batch_id: applied.json().batch_id,
      });
      assert.equal(undone.statusCode, 200, undone.body);
      assert.equal(undone.json().restored, count);
      const undoMs = Date.now() - started;
      const first = (await api.get(`/v2/documents/segments?id=${doc.id}&limit=1`)).json().segments[0];
      assert.equal(first.target, 'Satz 0 der großen Datei.');
      assert.ok(applyMs < 30_000, `preview ${previewMs} ms, apply ${applyMs} ms, undo ${undoMs} ms`);
    });

    test('memory entries: browsed by page and text; who added and who changed them', async () => {
      const tm = (await api.post('/v2/memories', { name: 'Browse', srclang: 'en', trglang: 'de' })).json().id;
      for (let i = 0; i < 5; i++) {
        await bob.post('/v2/segments', {
          memory_id: tm,
          source: `Line ${i} of the Manual`,
          target: `Zeile ${i}`,
        });
      }
      await api.post('/v2/segments', { memory_id: tm, source: 'Other', target: 'Handbuch' });
      const page = await api.get(`/v2/memories/entries?id=${tm}&offset=1&limit=2`);
      assert.equal(page.statusCode, 200, page.body);
      assert.equal(page.json().total, 6);
      assert.deepEqual(
        page.json().entries.map((e: { source: string }) => e.source),
        ['Line 1 of the Manual', 'Line 2 of the Manual'],
      );
      const found = (await api.get(`/v2/memories/entries?id=${tm}&q=${encodeURIComponent('MANUAL')}`)).json();
      assert.equal(found.total, 5);
      const inTarget = (await api.get(`/v2/memories/entries?id=${tm}&q=handbuch`)).json();
      assert.deepEqual(
        inTarget.entries.map((e: { target: string }) => e.target),
        ['Handbuch'],
      );
      const entry = found.entries[0];
      assert.deepEqual([entry.created_by, entry.updated_by], ['bob', 'bob']);
      // Edited by another user (PUT /v2/segments), deleted (DELETE /v2/memories/segment).
      const edited = await api.put('/v2/segments', { id: entry.id, target: 'Zeile null' });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.deepEqual([edited.json().created_by, edited.json().updated_by], ['bob', 'admin']);
      const after = (await api.get(`/v2/memories/entries?id=${tm}&limit=1`)).json().entries[0];
      assert.deepEqual([after.target, after.updated_by], ['Zeile null', 'admin']);
      // The same through the memory (PUT /v2/memories/segment): the entry must be of that memory.
      const second = found.entries[1];
      const byMemory = await bob.put('/v2/memories/segment', {
        id: tm,
        segment_id: second.id,
        target: 'Zeile eins',
      });
      assert.equal(byMemory.statusCode, 200, byMemory.body);
      assert.deepEqual([byMemory.json().target, byMemory.json().updated_by], ['Zeile eins', 'bob']);
      assert.equal(
        (await api.put('/v2/memories/segment', { id: memoryId, segment_id: second.id, target: 'x' }))
          .statusCode,
        404,
      );
      assert.equal(
        (await api.delete(`/v2/memories/segment?id=${tm}&segment_id=${entry.id}`)).statusCode,
        200,
      );
      assert.equal((await api.get(`/v2/memories/entries?id=${tm}`)).json().total, 5);
      assert.equal((await otherApi.get(`/v2/memories/entries?id=${tm}`)).statusCode, 404);
      assert.equal((await api.get(`/v2/memories/entries?id=${tm}&limit=0`)).statusCode, 400);
    });
  });
}
