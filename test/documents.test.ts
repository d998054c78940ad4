// Projects and documents through HTTP on every store: upload, segments, pre-translation, export, the 409 rule.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeZip } from '../src/formats/docx/zip-package.ts';
import { claimJob, completeJob } from '../src/jobs/queue.ts';
import { pretranslateHandler } from '../src/modules/documents/pretranslate-job.ts';
import { client, multipartBody } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const XSD = join(import.meta.dirname, '..', '..', 'shared', 'schemas', 'xliff-core-1.2-strict.xsd');

const TEXT = 'Open the file. Save the file.\n\nThe file could not be saved.\n\nDr. Smith reviewed it.\n';

for (const target of await storeTargets()) {
  describe(`projects and documents on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let otherApi: ReturnType<typeof client>;
    let memoryId: number;
    let projectId: number;
    before(async () => {
      ctx = await createContext(target, { TESSERA_MAX_UPLOAD_BYTES: String(1024 * 1024) });
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

    test('projects: language pair from the memory, documents listed, filters, update, tenancy', async () => {
      const res = await api.post('/v2/projects', {
        name: 'Docs',
        memory_id: memoryId,
        due_date: 1800000000,
        metadata: { team: 'web' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const project = res.json();
      assert.equal(project.srclang, 'en');
      assert.equal(project.trglang, 'de');
      assert.equal(project.state, 'backlog');
      assert.equal(project.archived, false);
      assert.deepEqual(project.metadata, { team: 'web' });
      assert.deepEqual(project.document, []);
      const updated = (
        await api.put('/v2/projects', { id: project.id, state: 'inProgress', archived: true })
      ).json();
      assert.equal(updated.state, 'inProgress');
      assert.equal(updated.archived, true);
      const archived = (await api.get('/v2/projects?archived=true')).json() as { id: number }[];
      assert.deepEqual(
        archived.map((p) => p.id),
        [project.id],
      );
      const both = (await api.get(`/v2/projects?id=${projectId},${project.id}`)).json() as { id: number }[];
      assert.deepEqual(
        both.map((p) => p.id),
        [projectId, project.id],
      );
      assert.equal((await api.put('/v2/projects', { id: project.id, state: 'finished' })).statusCode, 400);
      assert.equal((await api.post('/v2/projects', { name: 'x', memory_id: 999999 })).statusCode, 404);
      assert.equal(
        (await api.post('/v2/projects', { memory_id: memoryId })).json().message,
        'Parameter "name" is required',
      );
      assert.equal(
        (await otherApi.post('/v2/projects', { name: 'steal', memory_id: memoryId })).statusCode,
        404,
      );
      assert.equal((await otherApi.get(`/v2/projects?id=${project.id}`)).statusCode, 404);

      const doc = await upload('inside.txt', 'One line.\n');
      await imported(doc.id);
      // Only the document uploaded into this project is listed with it.
      const own = await api.upload('/v2/documents/files', 'Another line.\n', {
        'lilt-api': JSON.stringify({ name: 'own.txt', project_id: project.id }),
      });
      await imported(own.json().id);
      const listed = (await api.get(`/v2/projects?id=${project.id}`)).json()[0];
      assert.deepEqual(
        listed.document.map((d: { name: string }) => d.name),
        ['own.txt'],
      );
      assert.deepEqual((await api.delete(`/v2/projects?id=${project.id}`)).json(), {
        id: project.id,
        deleted: true,
      });
      assert.equal((await api.get(`/v2/documents?id=${own.json().id}`)).statusCode, 404);
    });

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
      assert.match(String(untouched.headers['content-disposition']), /^attachment; filename="guide\.txt"/);

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
          ['Save the file.', 'Speichern Sie die Datei.', true, 99],
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
          assert.equal(busy.headers['retry-after'], '5');
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
        // Run the job by hand, looking at the document from the API each time it reports progress.
        const job = (await claimJob(ctx.db, 'test-worker', 60))!;
        assert.equal(job.type, 'pretranslate');
        await pretranslateHandler(ctx.app.indexes)(job, {
          db: ctx.db,
          workerId: 'test-worker',
          signal: new AbortController().signal,
          progress: async () => {
            seen.push((await api.get(`/v2/documents?id=${doc.id}`)).json().status.pretranslation);
          },
          complete: (tx, result) => completeJob(tx, Number(job.id), 'test-worker', result),
        });
      } finally {
        ctx.app.worker.start();
      }
      const after = (await api.get(`/v2/documents?id=${doc.id}`)).json();
      seen.push(after.status.pretranslation);
      assert.deepEqual(seen, ['pending', 'running', 'idle']);
      assert.equal(after.is_pretranslating, false);
    });

    test('a pre-translation whose process kept dying is given up, and the document is idle again', async () => {
      const doc = await upload('doomed.txt', 'Open the file.\n');
      await imported(doc.id);
      await ctx.app.worker.stop();
      try {
        await api.post('/v2/documents/pretranslate', { id: [doc.id] });
        // As if five workers had died running it: running, lease expired, five attempts used.
        await ctx.db.run(
          "UPDATE jobs SET state = 'running', attempts = 5, worker_id = 'dead', lease_until = 1 WHERE document_id = ? AND type = 'pretranslate' AND state = 'queued'",
          [doc.id],
        );
        await ctx.db.run("UPDATE documents SET pretranslate_state = 'running' WHERE id = ?", [doc.id]);
        await ctx.app.worker.drain();
      } finally {
        ctx.app.worker.start();
      }
      const after = (await api.get(`/v2/documents?id=${doc.id}`)).json();
      assert.equal(after.status.pretranslation, 'idle');
      const job = await ctx.db.get<{ state: string; error: string }>(
        "SELECT state, error FROM jobs WHERE document_id = ? AND type = 'pretranslate'",
        [doc.id],
      );
      assert.deepEqual({ ...job }, { state: 'failed', error: 'gave up after 5 attempts' });
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
