// Documents through HTTP on every store: upload, segments, pre-translation, export, the 409 rule.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeZip } from '../src/formats/docx/zip-package.ts';
import { THREAD_MIN_BYTES } from '../src/modules/documents/document-thread.ts';
import { pretranslateTask } from '../src/modules/documents/pretranslate-task.ts';
import { findProject, memoryOfProject } from '../src/modules/projects/service.ts';
import { claimTask, completeTask, releaseTask } from '../src/tasks/queue.ts';
import { client, multipartBody } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

/** What the pre-translation task asks of projects, as app.ts hands it over. */
const projects = { findProject, memoryOfProject };

const XSD = join(import.meta.dirname, 'fixtures', 'schemas', 'xliff-core-1.2-strict.xsd');

const TEXT = 'Open the file. Save the file.\n\nThe file could not be saved.\n\nDr. Smith reviewed it.\n';

for (const target of await storeTargets()) {
  describe(`documents on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let otherApi: ReturnType<typeof client>;
    let memoryId: number;
    let projectId: number;
    before(async () => {
      ctx = await createContext(target, {
        TESSERA_MAX_UPLOAD_BYTES: String(1024 * 1024),
        TESSERA_READ_TIMEOUT_MS: '4000',
      });
      api = client(ctx.app, ctx.adminKey);
      otherApi = client(
        ctx.app,
        await userKey(ctx, {
          username: 'mallory',
          password: 'elsewhere1',
          role: 'admin',
          organization: 'rival',
        }),
      );
      memoryId = (await api.post('/v2/memories', { name: 'Project TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      for (const [source, t] of [
        ['Open the file.', 'Öffnen Sie die Datei.'],
        ['save the file.', 'Speichern Sie die Datei.'],
        ['The file could not be opened.', 'Die Datei konnte nicht geöffnet werden.'],
      ]) {
        await api.post('/v2/segments', { memory_id: memoryId, source, target: t });
      }
      projectId = (await api.post('/v2/projects', { name: 'Website', memory_id: memoryId })).json().id;
    });
    after(() => ctx.close());

    async function upload(name: string, body: string | Buffer, extra: Record<string, unknown> = {}) {
      const res = await api.upload('/v2/documents/files', body, {
        'lilt-api': JSON.stringify({ name, project_id: projectId, ...extra }),
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { id: number; import_in_progress: boolean };
    }

    async function waitForDocument(id: number, until: (d: Record<string, unknown>) => boolean) {
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (until(doc)) return doc;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`document ${id} never reached the state`);
    }
    const imported = (id: number) => waitForDocument(id, (d) => d.import_in_progress === false);
    const pretranslated = (id: number) =>
      waitForDocument(id, (d) => (d.status as { pretranslation: string }).pretranslation === 'idle');
    /** An upload asked to pre-translate: imported, then pre-translated. */
    const importedAndPretranslated = (id: number) =>
      waitForDocument(
        id,
        (d) =>
          d.import_in_progress === false &&
          (d.status as { pretranslation: string }).pretranslation === 'idle',
      );

    test('text: upload, segments, pre-translate, confirm, export both ways', async () => {
      const doc = await upload('guide.txt', TEXT);
      assert.equal(doc.import_in_progress, true);
      const ready = await imported(doc.id);
      assert.equal(ready.import_succeeded, true);
      assert.equal(ready.num_segments, 4);
      assert.equal(ready.format, 'text');

      // Untranslated: the original export is the upload, byte for byte.
      const untouched = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.equal(untouched.statusCode, 200);
      assert.equal(untouched.body, TEXT);
      // Named with its target language, as localisation tools expect (docs/FILES-AND-JOBS.md).
      assert.match(
        String(untouched.headers['content-disposition']),
        /^attachment; filename="guide\.de\.txt"/,
      );

      const pre = await api.post('/v2/documents/pretranslate', { id: [doc.id], auto_accept: true });
      assert.equal(pre.statusCode, 202);
      assert.equal(pre.json().is_pretranslating, true);
      await pretranslated(doc.id);
      const withSegments = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json();
      const segs = withSegments.segments as {
        id: number;
        source: string;
        target: string | null;
        is_confirmed: boolean;
        match_score: number | null;
      }[];
      assert.deepEqual(
        segs.map((s) => [s.source, s.target, s.is_confirmed, s.match_score]),
        [
          ['Open the file.', 'Öffnen Sie die Datei.', true, 100],
          // Case-only: pre-translated, never auto-accepted (auto-accept takes exact matches only).
          ['Save the file.', 'Speichern Sie die Datei.', false, 99],
          ['The file could not be saved.', 'Die Datei konnte nicht geöffnet werden.', false, 83],
          ['Dr. Smith reviewed it.', null, false, null],
        ],
      );

      // Confirm the last segment: it goes into the memory and the next query finds it with 100.
      const confirmed = await api.put('/v2/segments', {
        id: segs[3].id,
        target: 'Dr. Smith hat es geprüft.',
        is_confirmed: true,
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal(confirmed.json().is_confirmed, true);
      const q = (
        await api.get(
          `/v2/memories/query?id=${memoryId}&query=${encodeURIComponent('Dr. Smith reviewed it.')}`,
        )
      ).json();
      assert.equal(q[0].score, 100);
      assert.equal(q[0].target, 'Dr. Smith hat es geprüft.');
      assert.equal((await api.get(`/v2/segments?id=${segs[3].id}`)).json().document_id, doc.id);

      // A confirmed segment is never overwritten by a later pre-translation.
      await api.post('/v2/segments', {
        memory_id: memoryId,
        source: 'Dr. Smith reviewed it.',
        target: 'Falsch.',
      });
      await api.post('/v2/documents/pretranslate', { id: [doc.id] });
      await pretranslated(doc.id);
      assert.equal(
        (await api.get(`/v2/segments?id=${segs[3].id}`)).json().target,
        'Dr. Smith hat es geprüft.',
      );

      const merged = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.equal(
        merged.body,
        'Öffnen Sie die Datei. Speichern Sie die Datei.\n\nDie Datei konnte nicht geöffnet werden.\n\nDr. Smith hat es geprüft.\n',
      );

      const xliff = await api.get(`/v2/documents/files?id=${doc.id}`);
      assert.equal(xliff.statusCode, 200);
      assert.match(String(xliff.headers['content-type']), /^application\/xliff\+xml/);
      assert.match(String(xliff.headers['content-disposition']), /filename="guide\.txt\.xlf"/);
      const file = join(ctx.config.dataDir, 'guide.xlf');
      writeFileSync(file, xliff.rawPayload);
      execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });
      assert.match(xliff.body, /<target state="translated">Öffnen Sie die Datei\.<\/target>/);
      assert.match(
        xliff.body,
        /<target state="needs-review-translation">Die Datei konnte nicht geöffnet werden\.<\/target>/,
      );

      // The XLIFF uploads back into the same segments and targets.
      const back = await upload('guide.xlf', xliff.rawPayload);
      await imported(back.id);
      const again = (await api.get(`/v2/documents?id=${back.id}&with_segments=true`)).json();
      assert.deepEqual(
        again.segments.map((s: { source: string; target: string | null; is_confirmed: boolean }) => [
          s.source,
          s.target,
          s.is_confirmed,
        ]),
        (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`))
          .json()
          .segments.map((s: { source: string; target: string | null; is_confirmed: boolean }) => [
            s.source,
            s.target,
            s.is_confirmed,
          ]),
      );
    });

    test('the original export takes one translation per unit: units without segments, appended segments', async () => {
      // The last message's msgid is blank: a unit of the catalog, but no segment to translate.
      const po =
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Open the file."\nmsgstr ""\n\nmsgid " "\nmsgstr ""\n';
      const doc = await upload('blank-last.po', po);
      const ready = await imported(doc.id);
      assert.equal(ready.import_succeeded, true, String(ready.import_error_message));
      const [seg] = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json().segments;
      await api.put('/v2/segments', { id: seg.id, target: 'Öffnen Sie die Datei.', is_confirmed: true });
      // A segment added by hand belongs to no unit of the original: the XLIFF carries it, the PO does not.
      const appended = await api.post('/v2/segments', {
        document_id: doc.id,
        source: 'Added by hand.',
        target: 'Von Hand.',
      });
      assert.equal(appended.statusCode, 200, appended.body);
      const exported = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.equal(exported.statusCode, 200, exported.body);
      assert.match(exported.body, /msgid "Open the file."\nmsgstr "Öffnen Sie die Datei."/);
      assert.match(exported.body, /msgid " "\nmsgstr ""/);
      assert.doesNotMatch(exported.body, /Von Hand/);
      const xliff = await api.get(`/v2/documents/files?id=${doc.id}`);
      assert.match(xliff.body, /Von Hand\./);
    });

    test('a target whose inline tags are not the source’s is refused naming the tag; nothing is lost', async () => {
      const doc = await upload('tags.html', '<html><body><p>Click <b>here</b> to save.</p></body></html>\n');
      await imported(doc.id);
      const [seg] = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json().segments;
      const open = /<g [^>]*>/.exec(seg.source)![0];
      for (const [target, problem] of [
        [`Klicken Sie ${open}hier, um zu speichern.`, `tag ${open} is not closed`],
        ['Klicken Sie <g id="99">hier</g>.', 'tag <g id="99"> is not in the source'],
        ['Klicken Sie hier</g>.', 'tag </g> closes no open tag'],
      ]) {
        const res = await api.put('/v2/segments', { id: seg.id, target });
        assert.equal(res.statusCode, 400, target);
        assert.equal(res.json().message, `Parameter "target": ${problem}`);
      }
      const ok = await api.put('/v2/segments', {
        id: seg.id,
        target: `Klicken Sie ${open}hier</g>, um zu speichern.`,
        is_confirmed: true,
      });
      assert.equal(ok.statusCode, 200, ok.body);
      const html = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.match(html.body, /<p>Klicken Sie <b>hier<\/b>, um zu speichern\.<\/p>/);
    });

    test('a large document is parsed and merged in a worker thread, with the same results', async () => {
      const lines = Array.from({ length: 9000 }, (_, i) => `Sentence number ${i} is here.`);
      const text = `${lines.join('\n\n')}\n`;
      assert.ok(Buffer.byteLength(text) > THREAD_MIN_BYTES);
      const doc = await upload('large.txt', text);
      const ready = await imported(doc.id);
      assert.equal(ready.import_succeeded, true, String(ready.import_error_message));
      assert.equal(ready.num_segments, 9000);
      assert.equal((await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`)).body, text);
      const segs = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json().segments;
      await api.put('/v2/segments', {
        id: segs[8999].id,
        target: 'Satz Nummer 8999 ist hier.',
        is_confirmed: true,
      });
      const merged = (await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`)).body;
      assert.equal(merged, text.replace('Sentence number 8999 is here.', 'Satz Nummer 8999 ist hier.'));
      // A malformed large file fails with its line and column, from the thread too.
      const units = Array.from(
        { length: 6000 },
        (_, i) => `<trans-unit id="${i}"><source>Unit ${i} of a large file</source></trans-unit>`,
      );
      const broken = `<?xml version="1.0"?>\n<xliff version="1.2"><file original="x" source-language="en" datatype="plaintext"><body>\n${units.join('\n')}\n<trans-unit id="x"><source>oops</target>\n</body></file></xliff>\n`;
      assert.ok(Buffer.byteLength(broken) > THREAD_MIN_BYTES);
      const bad = await upload('large-broken.xlf', broken);
      const failed = await imported(bad.id);
      const line = broken.split('\n').findIndex((l) => l.includes('oops')) + 1;
      assert.match(
        String(failed.import_error_message),
        new RegExp(`^large-broken\\.xlf: .*line ${line}, column \\d+`),
      );
    });

    test('pre-translated: a sentence matched by a fragment starts with a capital; a capital is never lowered', async () => {
      const memory = (
        await api.post('/v2/memories', { name: 'Case TM', srclang: 'en', trglang: 'de' })
      ).json();
      for (const [source, target] of [
        ['could not open file "%s": %s', 'konnte Datei »%s« nicht öffnen: %s'],
        ['File could not be read', 'Datei konnte nicht gelesen werden'],
      ]) {
        await api.post('/v2/segments', { memory_id: memory.id, source, target });
      }
      const project = (await api.post('/v2/projects', { name: 'Case', memory_id: memory.id })).json();
      const doc = await upload('case.txt', 'Could not open file “%s”: %s\n\nfile could not be read\n', {
        project_id: project.id,
        pretranslate: 'TM',
      });
      await importedAndPretranslated(doc.id);
      const segs = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json().segments as {
        source: string;
        target: string | null;
      }[];
      assert.deepEqual(
        segs.map((x) => [x.source, x.target]),
        [
          ['Could not open file “%s”: %s', 'Konnte Datei »%s« nicht öffnen: %s'],
          ['file could not be read', 'Datei konnte nicht gelesen werden'],
        ],
      );
    });

    test('pre-translated PO: placeables repaired, drafts fuzzy, unrepairable placeholders fuzzy with a comment; msgfmt -c accepts it', async () => {
      const memory = (await api.post('/v2/memories', { name: 'PO TM', srclang: 'en', trglang: 'de' })).json();
      for (const [source, target] of [
        // A placeholder is content (docs/MATCHING.md §1): %s for %d is one word in seven, an 85 % match.
        ['%s file was moved to the folder', '%s-Datei wurde in den Ordner verschoben'],
        ['Copy %s to %s now', 'Kopiere jetzt %s nach %s'],
        ['Delete 3 files', '3 Dateien löschen'],
      ]) {
        await api.post('/v2/segments', { memory_id: memory.id, source, target });
      }
      const project = (await api.post('/v2/projects', { name: 'PO', memory_id: memory.id })).json();
      const po = [
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
        '',
        '#, c-format',
        'msgid "%d file was moved to the folder"',
        'msgstr ""',
        '',
        '#, c-format',
        'msgid "Copy %s to %d now"',
        'msgstr ""',
        '',
        'msgid "Delete 12 files"',
        'msgstr ""',
        '',
      ].join('\n');
      const res = await api.upload('/v2/documents/files', po, {
        'lilt-api': JSON.stringify({ name: 'app.po', project_id: project.id, pretranslate: 'TM' }),
      });
      const doc = res.json();
      await importedAndPretranslated(doc.id);
      const segs = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json().segments as {
        source: string;
        target: string | null;
        repairs: { from: string; to: string; kind: string }[] | null;
      }[];
      const bySource = new Map(segs.map((x) => [x.source, x]));
      const moved = bySource.get('%d file was moved to the folder');
      assert.equal(
        moved?.target,
        '%d-Datei wurde in den Ordner verschoben',
        'the match’s %s repaired to the source’s %d',
      );
      assert.deepEqual(moved?.repairs, [{ from: '%s', to: '%d', kind: 'placeholder' }]);
      assert.equal(bySource.get('Delete 12 files')?.target, '12 Dateien löschen');
      const exported = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.equal(exported.statusCode, 200);
      const file = join(ctx.config.dataDir, 'pretranslated.po');
      writeFileSync(file, exported.body);
      execFileSync('msgfmt', ['-c', '-o', '/dev/null', file], { stdio: 'pipe' });
      assert.match(
        exported.body,
        /#, fuzzy, c-format\nmsgid "%d file was moved to the folder"\nmsgstr "%d-Datei wurde in den Ordner verschoben"/,
      );
      // The match's one %s stands for two different placeholders of this source: not repaired (never a
      // guess), so written as the memory has it — and, its placeholders not corresponding, written fuzzy
      // with a comment saying why (msgfmt -c passes, and leaves it out). The XLIFF keeps it for review.
      assert.equal(bySource.get('Copy %s to %d now')?.target, 'Kopiere jetzt %s nach %s');
      assert.equal(bySource.get('Copy %s to %d now')?.repairs, null);
      assert.match(
        exported.body,
        /# Tessera: fuzzy, its placeholders would not run: Placeholder %d of the source became %s\n#, fuzzy, c-format\nmsgid "Copy %s to %d now"\nmsgstr "Kopiere jetzt %s nach %s"/,
      );
      const xliff = await api.get(`/v2/documents/files?id=${doc.id}`);
      assert.match(xliff.body, /<target state="needs-review-translation">Kopiere jetzt %s nach %s<\/target>/);
    });

    test('the editor’s pages: offset and limit, filters by status and text, totals and counts by status', async () => {
      const lines = Array.from({ length: 250 }, (_, i) =>
        i % 10 === 0 ? `Open the file ${i}.` : `Line number ${i} here.`,
      );
      const doc = await upload('pages.txt', `${lines.join('\n\n')}\n`);
      await imported(doc.id);
      const page = (qs: string) => api.get(`/v2/documents/segments?id=${doc.id}${qs}`);
      const first = (await page('&limit=100')).json();
      assert.equal(first.total, 250);
      assert.equal(first.segments.length, 100);
      assert.deepEqual(first.counts, { new: 250, draft: 0, pretranslated: 0, confirmed: 0, reviewed: 0 });
      const last = (await page('&offset=200&limit=100')).json();
      assert.deepEqual(
        last.segments.map((x: { position: number }) => x.position),
        Array.from({ length: 50 }, (_, i) => 200 + i),
      );
      await api.put('/v2/segments', {
        id: first.segments[10].id,
        target: 'Öffnen Sie die Datei 10.',
        is_confirmed: true,
      });
      await api.put('/v2/segments', { id: first.segments[11].id, target: 'Entwurf.' });
      const confirmed = (await page('&status=confirmed')).json();
      assert.equal(confirmed.total, 1);
      assert.equal(confirmed.segments[0].target, 'Öffnen Sie die Datei 10.');
      assert.equal(confirmed.counts.confirmed, 1);
      assert.equal(confirmed.counts.draft, 1);
      assert.equal((await page('&status=new,draft')).json().total, 249);
      const found = (await page(`&q=${encodeURIComponent('OPEN THE FILE')}`)).json();
      assert.equal(found.total, 25, 'source text, any case');
      assert.equal((await page(`&q=${encodeURIComponent('datei 10')}`)).json().total, 1, 'target text too');
      assert.equal(
        (await page(`&q=${encodeURIComponent('100%_')}`)).json().total,
        0,
        'LIKE wildcards are literal',
      );
      assert.equal((await page('&status=finished')).statusCode, 400);
      assert.equal((await otherApi.get(`/v2/documents/segments?id=${doc.id}`)).statusCode, 404);
    });

    test('POST /v2/segments with document_id appends a segment; DELETE removes it', async () => {
      const doc = await upload('append.txt', 'First line.\n');
      const before = await imported(doc.id);
      const res = await api.post('/v2/segments', {
        document_id: doc.id,
        source: 'Appended line.',
        target: 'Angehängt.',
      });
      assert.equal(res.statusCode, 200, res.body);
      const seg = res.json();
      assert.equal(seg.document_id, doc.id);
      assert.equal(seg.memory_id, null);
      assert.equal(seg.position, 1);
      assert.equal(seg.target, 'Angehängt.');
      const after = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json();
      assert.equal(after.num_segments, Number(before.num_segments) + 1);
      assert.deepEqual(
        after.segments.map((s: { source: string }) => s.source),
        ['First line.', 'Appended line.'],
      );
      const missing = await api.post('/v2/segments', { document_id: doc.id });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().message, 'Parameter "source" is required');
      assert.equal(
        (await otherApi.post('/v2/segments', { document_id: doc.id, source: 'x' })).statusCode,
        404,
      );
      assert.deepEqual((await api.delete(`/v2/segments?id=${seg.id}`)).json(), { id: seg.id, deleted: true });
      assert.equal((await api.get(`/v2/documents?id=${doc.id}`)).json().num_segments, before.num_segments);
    });

    test('the export answers 409 DOCUMENT_BUSY while a pre-translation is pending, then succeeds', async () => {
      const doc = await upload('busy.txt', 'Open the file.\n');
      await imported(doc.id);
      await ctx.app.worker.stop();
      try {
        const pre = await api.post('/v2/documents/pretranslate', { id: [doc.id] });
        assert.equal(pre.statusCode, 202);
        assert.equal(pre.json().documents[0].status.pretranslation, 'pending');
        for (const qs of ['', '&is_xliff=false']) {
          const busy = await api.get(`/v2/documents/files?id=${doc.id}${qs}`);
          assert.equal(busy.statusCode, 409);
          assert.deepEqual(busy.json(), {
            message: `Document ${doc.id} is being pre-translated; retry when status.pretranslation is idle`,
            code: 'DOCUMENT_BUSY',
          });
          // An estimate from the document's size: one short line waits a second or two, not a fixed five.
          assert.ok(
            ['1', '2'].includes(String(busy.headers['retry-after'])),
            String(busy.headers['retry-after']),
          );
        }
        await ctx.app.worker.drain();
      } finally {
        ctx.app.worker.start();
      }
      const done = (await api.get(`/v2/documents?id=${doc.id}`)).json();
      assert.equal(done.is_pretranslating, false);
      const ok = await api.get(`/v2/documents/files?id=${doc.id}&is_xliff=false`);
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.body, 'Öffnen Sie die Datei.\n');
    });

    test('pre-translation state moves pending → running → idle', async () => {
      const doc = await upload('states.txt', 'Open the file.\n\nSomething else entirely.\n');
      await imported(doc.id);
      await ctx.app.worker.stop();
      const seen: string[] = [];
      try {
        const pre = await api.post('/v2/documents/pretranslate', { id: [doc.id] });
        seen.push(pre.json().documents[0].status.pretranslation);
        // Run the task by hand, looking at the document from the API each time it reports progress.
        const task = (await claimTask(ctx.db, 'test-worker', 60))!;
        assert.equal(task.type, 'pretranslate');
        await pretranslateTask(ctx.app.indexes, projects).run(task, JSON.parse(task.params), {
          db: ctx.db,
          workerId: 'test-worker',
          log: ctx.app.log,
          signal: new AbortController().signal,
          progress: async () => {
            seen.push((await api.get(`/v2/documents?id=${doc.id}`)).json().status.pretranslation);
          },
          complete: (tx, result) => completeTask(tx, Number(task.id), 'test-worker', result),
        });
      } finally {
        ctx.app.worker.start();
      }
      const after = (await api.get(`/v2/documents?id=${doc.id}`)).json();
      seen.push(after.status.pretranslation);
      assert.deepEqual(seen, ['pending', 'running', 'idle']);
      assert.equal(after.is_pretranslating, false);
    });

    test('a pre-translation interrupted part-way changes nothing; its re-run counts the final state', async () => {
      // Three pages of segments: exact matches, case-only matches (never auto-accepted), no matches.
      const lines = Array.from({ length: 4500 }, (_, i) =>
        i % 3 === 0 ? 'Open the file.' : i % 3 === 1 ? 'Save the file.' : `Nothing like it ${i} here.`,
      );
      const doc = await upload('interrupted.txt', `${lines.join('\n\n')}\n`);
      await imported(doc.id);
      await ctx.app.worker.stop();
      try {
        await api.post('/v2/documents/pretranslate', { id: [doc.id], auto_accept: true });
        const task = (await claimTask(ctx.db, 'test-worker', 60))!;
        // Shut down after the first page was looked up: as when the process is stopped mid-task.
        const controller = new AbortController();
        await assert.rejects(
          pretranslateTask(ctx.app.indexes, projects).run(task, JSON.parse(task.params), {
            db: ctx.db,
            workerId: 'test-worker',
            log: ctx.app.log,
            signal: controller.signal,
            progress: async () => controller.abort(),
            complete: (tx, result) => completeTask(tx, task.id, 'test-worker', result),
          }),
        );
        const half = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json();
        assert.equal(half.status.pretranslation, 'pending', 'its task goes back to the queue');
        assert.equal(half.segments.filter((s: { target: string | null }) => s.target !== null).length, 0);
        const staged = await ctx.db.get<{ n: number }>(
          'SELECT COUNT(*) AS n FROM pretranslate_staging WHERE task_id = ?',
          [task.id],
        );
        assert.equal(staged?.n, 0);
        await releaseTask(ctx.db, task.id, 'test-worker');
        await ctx.app.worker.drain();
        const done = await api.waitForTask(task.id);
        const after = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json();
        const translated = after.segments.filter((s: { target: string | null }) => s.target !== null).length;
        const confirmed = after.segments.filter((s: { is_confirmed: boolean }) => s.is_confirmed).length;
        assert.deepEqual(done.result, {
          segments: 4500,
          translated,
          confirmed,
          modes: { requested: 'tm', ran: ['tm'], not_available: [] },
        });
        assert.equal(translated, 3000);
        assert.equal(confirmed, 1500);
      } finally {
        ctx.app.worker.start();
      }
    });

    test('a second pre-translation request replaces the options of one not begun, and is refused while one runs', async () => {
      const doc = await upload('twice.txt', 'Open the file.\n\nThe file could not be opened now.\n');
      await imported(doc.id);
      await ctx.app.worker.stop();
      try {
        assert.equal((await api.post('/v2/documents/pretranslate', { id: [doc.id] })).statusCode, 202);
        assert.equal(
          (await api.post('/v2/documents/pretranslate', { id: [doc.id], auto_accept: true })).statusCode,
          202,
        );
        const queued = await ctx.db.all<{ params: string }>(
          "SELECT params FROM tasks WHERE document_id = ? AND type = 'pretranslate' AND state = 'queued'",
          [doc.id],
        );
        assert.equal(queued.length, 1, 'one task, not two');
        assert.equal(JSON.parse(queued[0].params).auto_accept, true, 'with the newer options');
        // Begun: its options can no longer change.
        await ctx.db.run(
          "UPDATE tasks SET state = 'running', worker_id = 'w', started_at = ? WHERE document_id = ? AND type = 'pretranslate'",
          [Math.floor(Date.now() / 1000), doc.id],
        );
        const refused = await api.post('/v2/documents/pretranslate', { id: [doc.id], case_sensitive: true });
        assert.equal(refused.statusCode, 409);
        assert.equal(refused.json().code, 'DOCUMENT_BUSY');
        assert.ok(Number(refused.headers['retry-after']) >= 1);
        await ctx.db.run(
          "UPDATE tasks SET state = 'queued', worker_id = NULL WHERE document_id = ? AND type = 'pretranslate'",
          [doc.id],
        );
        await ctx.app.worker.drain();
      } finally {
        ctx.app.worker.start();
      }
      const after = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json();
      assert.equal(after.segments[0].is_confirmed, true, 'auto_accept of the second request applied');
    });

    test('a pre-translation whose process kept dying is given up, and the document is idle again', async () => {
      const doc = await upload('doomed.txt', 'Open the file.\n');
      await imported(doc.id);
      await ctx.app.worker.stop();
      try {
        await api.post('/v2/documents/pretranslate', { id: [doc.id] });
        // As if five workers had died running it: running, lease expired, five attempts used.
        await ctx.db.run(
          "UPDATE tasks SET state = 'running', attempts = 5, worker_id = 'dead', lease_until = 1 WHERE document_id = ? AND type = 'pretranslate' AND state = 'queued'",
          [doc.id],
        );
        await ctx.db.run("UPDATE documents SET pretranslate_state = 'running' WHERE id = ?", [doc.id]);
        await ctx.app.worker.drain();
      } finally {
        ctx.app.worker.start();
      }
      const after = (await api.get(`/v2/documents?id=${doc.id}`)).json();
      assert.equal(after.status.pretranslation, 'idle');
      const task = await ctx.db.get<{ state: string; error: string }>(
        "SELECT state, error FROM tasks WHERE document_id = ? AND type = 'pretranslate'",
        [doc.id],
      );
      assert.deepEqual({ ...task }, { state: 'failed', error: 'gave up after 5 attempts' });
      assert.equal((await api.get(`/v2/documents/files?id=${doc.id}`)).statusCode, 200);
    });

    test('a .docx that inflates past the limits is refused as a zip bomb', async () => {
      const bomb = await writeZip([
        {
          name: '[Content_Types].xml',
          data: Buffer.from('<Types/>'),
          directory: false,
          compressed: true,
          mtime: new Date(0),
        },
        {
          name: 'word/document.xml',
          data: Buffer.alloc(8 * 1024 * 1024, 32),
          directory: false,
          compressed: true,
          mtime: new Date(0),
        },
      ]);
      assert.ok(bomb.length < 100_000);
      const doc = await upload('bomb.docx', bomb);
      const failed = await imported(doc.id);
      assert.equal(failed.import_succeeded, false);
      assert.match(String(failed.import_error_message), /^bomb\.docx: .*(bomb|ratio|inflate)/i);
    });

    test('an import in progress also blocks the export', async () => {
      await ctx.app.worker.stop();
      let doc: { id: number };
      try {
        doc = await upload('pending.txt', 'Text.\n');
        const busy = await api.get(`/v2/documents/files?id=${doc.id}`);
        assert.equal(busy.statusCode, 409);
        assert.equal(
          busy.json().message,
          `Document ${doc.id} is being imported; retry when import_in_progress is false`,
        );
        await ctx.app.worker.drain();
      } finally {
        ctx.app.worker.start();
      }
      assert.equal((await api.get(`/v2/documents/files?id=${doc!.id}`)).statusCode, 200);
    });

    test('upload parameters: individual headers, query, multipart; pretranslate on upload', async () => {
      let res = await api.upload('/v2/documents/files', 'Open the file.\n', {
        name: 'h.txt',
        project_id: String(projectId),
      });
      assert.equal(res.statusCode, 200, res.body);
      res = await api.upload(
        `/v2/documents/files?name=q.txt&project_id=${projectId}&pretranslate=TM&auto_accept=true`,
        'Open the file.\n',
      );
      assert.equal(res.statusCode, 200, res.body);
      await imported(res.json().id);
      const pre = await pretranslated(res.json().id);
      assert.equal(pre.num_confirmed, 1);
      const form = multipartBody(
        { project_id: String(projectId) },
        { name: 'm.txt', data: Buffer.from('Save the file.\n') },
      );
      res = await api.upload('/v2/documents/files', form.body, { 'content-type': form.contentType });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().name, 'm.txt');
    });

    test('bad uploads: 415 listing formats, 413, bad names, unknown project, malformed files', async () => {
      let res = await api.upload('/v2/documents/files', 'x', {
        name: 'slides.pptx',
        project_id: String(projectId),
      });
      assert.equal(res.statusCode, 415);
      assert.match(
        res.json().message,
        /^File "slides\.pptx" has an unsupported type; supported: .*\.txt.*\.po.*\.json/,
      );
      res = await api.upload('/v2/documents/files', Buffer.alloc(1024 * 1024 + 10, 97), {
        name: 'big.txt',
        project_id: String(projectId),
      });
      assert.equal(res.statusCode, 413);
      for (const name of ['../up.txt', 'dir/file.txt', 'a\u0001b.txt', 'C:\\x.txt']) {
        res = await api.upload('/v2/documents/files', 'x', {
          'lilt-api': JSON.stringify({ name, project_id: projectId }),
        });
        assert.equal(res.statusCode, 400, name);
        assert.match(res.json().message, /"name"/);
      }
      // Every channel a name can arrive by: the query, the LILT-API header, a multipart field, the file part's
      // own name (which must be refused as it is, not cut to its last path part).
      for (const name of ['../etc/passwd.txt', 'a\u0085b.txt', 'a\u2028b.txt', 'invoice\u202efdp.txt']) {
        const channels = [
          await api.upload(
            `/v2/documents/files?project_id=${projectId}&name=${encodeURIComponent(name)}`,
            'x',
          ),
          await api.upload('/v2/documents/files', 'x', {
            'lilt-api': JSON.stringify({ name, project_id: projectId }),
          }),
        ];
        const field = multipartBody(
          { project_id: String(projectId), name },
          { name: 'ok.txt', data: Buffer.from('x') },
        );
        channels.push(
          await api.upload('/v2/documents/files', field.body, { 'content-type': field.contentType }),
        );
        const file = multipartBody({ project_id: String(projectId) }, { name, data: Buffer.from('x') });
        channels.push(
          await api.upload('/v2/documents/files', file.body, { 'content-type': file.contentType }),
        );
        for (const [i, answer] of channels.entries()) {
          assert.equal(answer.statusCode, 400, `${JSON.stringify(name)} by channel ${i}: ${answer.body}`);
          assert.match(answer.json().message, /"name"/);
        }
      }
      res = await api.upload('/v2/documents/files', 'x', { name: 'a.txt', project_id: '999999' });
      assert.equal(res.statusCode, 404);
      res = await otherApi.upload('/v2/documents/files', 'x', {
        name: 'a.txt',
        project_id: String(projectId),
      });
      assert.equal(res.statusCode, 404);
      res = await api.upload('/v2/documents/files', 'x', { name: 'a.txt' });
      assert.equal(res.json().message, 'Parameter "project_id" is required');

      const broken = await upload(
        'broken.xlf',
        '<?xml version="1.0"?>\n<xliff version="1.2">\n<file><body>\n<trans-unit id="1"><source>x</target>\n</body></file></xliff>\n',
      );
      const failed = await imported(broken.id);
      assert.equal(failed.import_succeeded, false);
      assert.match(String(failed.import_error_message), /^broken\.xlf: .*line 4, column \d+/);
      const json = await upload('bad.json', '{"a": "b",\n  "c": }');
      const failedJson = await imported(json.id);
      assert.match(String(failedJson.import_error_message), /^bad\.json: .*line 2/);
      // YAML nested thousands deep is refused in words, not V8's; aliases are never expanded (billion laughs).
      const deep = await upload('deep.yaml', `a: ${'['.repeat(50_000)}x${']'.repeat(50_000)}\n`);
      assert.match(
        String((await imported(deep.id)).import_error_message),
        /^deep\.yaml: YAML: nested too deeply at line \d+/,
      );
      // Nested emphasis: the Markdown parser's time grows with its square (36 s for these 48 KB). It runs in
      // a thread, so the server answers meanwhile, and the reading deadline ends it with the file named.
      const slow = await upload('slow.md', `${'*a '.repeat(8_000)}x${' a*'.repeat(8_000)}\n`);
      assert.equal((await api.get(`/v2/documents?id=${slow.id}`)).statusCode, 200);
      const timedOut = await imported(slow.id);
      assert.equal(timedOut.import_succeeded, false);
      assert.match(
        String(timedOut.import_error_message),
        /^slow\.md: reading it as markdown took longer than \d+(\.\d+)? s, far longer than a file of its size takes/,
      );
      // Sentence splitting takes time in the square of a paragraph's length: one long paragraph of short
      // "sentences", below and above the size read in a thread, imports whole and in order.
      for (const repeats of [3_000, 20_000]) {
        const questions = await upload(`questions-${repeats}.txt`, `${'x? '.repeat(repeats)}\n`);
        const read = await imported(questions.id);
        assert.equal(read.import_succeeded, true, String(read.import_error_message));
        assert.equal(read.num_segments, repeats);
      }
      const item = '"Hello world, this is text."';
      let laughs = `a: &a [${Array(9).fill(item).join(', ')}]\n`;
      for (const [i, level] of [...'bcdefghij'].entries()) {
        laughs += `${level}: &${level} [${Array(9).fill(`*${'abcdefghij'[i]}`).join(', ')}]\n`;
      }
      const bomb = await upload('laughs.yaml', laughs);
      const laughed = await imported(bomb.id);
      assert.equal(laughed.import_succeeded, true, String(laughed.import_error_message));
      assert.equal(laughed.num_segments, 9, 'the anchored strings once each, no alias expanded');
      // XML that declares entities is refused; HTML has no DTD, so a declared entity stays literal text.
      const xmlEntity = await upload(
        'strings.xml',
        '<?xml version="1.0"?>\n<!DOCTYPE resources [<!ENTITY x "expanded">]>\n<resources><string name="a">&x;</string></resources>\n',
      );
      const refused = await imported(xmlEntity.id);
      assert.equal(refused.import_succeeded, false);
      assert.match(String(refused.import_error_message), /^strings\.xml: .*entit/i);
      const htmlEntity = await upload(
        'entity.html',
        '<!DOCTYPE html [<!ENTITY x "expanded">]><html><body><p>Keep &x; here.</p></body></html>',
      );
      await imported(htmlEntity.id);
      const htmlSegments = (await api.get(`/v2/documents?id=${htmlEntity.id}&with_segments=true`)).json()
        .segments;
      assert.ok(!JSON.stringify(htmlSegments).includes('expanded'), 'no entity was expanded');
      assert.equal((await otherApi.get(`/v2/documents?id=${broken.id}`)).statusCode, 404);
    });
  });
}
