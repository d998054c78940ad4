// What Lilt's own clients send — its Drupal connector, its Node SDK at its three versions, its Python SDK —
// answered as Lilt answers it, on every store.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`Lilt's clients on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let memoryId: number;
    let projectId: number;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json().id;
      await api.post('/v2/segments', {
        memory_id: memoryId,
        source: 'Open the file.',
        target: 'Öffnen Sie die Datei.',
      });
      projectId = (await api.post('/v2/projects', { name: 'Site', memory_id: memoryId })).json().id;
    });
    after(() => ctx.close());

    async function waitForDocument(id: number, until: (d: Record<string, unknown>) => boolean) {
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (until(doc)) return doc;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`document ${id} never reached the state`);
    }
    const idle = (id: number) =>
      waitForDocument(
        id,
        (d) =>
          d.import_in_progress === false &&
          (d.status as { pretranslation: string }).pretranslation === 'idle',
      );

    /** The result of the document's last pre-translation task, read through GET /v2/tasks. */
    async function lastPretranslation(documentId: number) {
      const row = await ctx.db.get<{ id: number }>(
        "SELECT MAX(id) AS id FROM tasks WHERE document_id = ? AND type = 'pretranslate'",
        [documentId],
      );
      return (await api.waitForTask(row!.id)).result;
    }

    const NO_MT = [{ mode: 'mt', reason: 'no machine translation engine is configured' }];

    test('the Drupal connector\'s "TM & MT": pretranslate TM+MT in LILT-API runs the memory and says MT did not run', async () => {
      const res = await api.upload('/v2/documents/files', 'Open the file.\n\nSomething new.\n', {
        'lilt-api': JSON.stringify({ name: 'page.txt', project_id: projectId, pretranslate: 'TM+MT' }),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().pretranslation_modes, {
        requested: 'tm+mt',
        ran: ['tm'],
        not_available: NO_MT,
      });
      const doc = await idle(res.json().id);
      const result = await lastPretranslation(doc.id as number);
      assert.deepEqual(result.modes, { requested: 'tm+mt', ran: ['tm'], not_available: NO_MT });
      assert.equal(result.translated, 1);
      const segments = (await api.get(`/v2/documents?id=${doc.id}&with_segments=true`)).json().segments;
      assert.equal(segments[0].target, 'Öffnen Sie die Datei.');
      assert.equal(segments[1].target, null, 'no segment is filled as if MT had run');
    });

    test('the older Node SDK: GET /v2/ answers as GET /v2; pre-translation options in the query, the body winning', async () => {
      const root = await api.get('/v2/');
      assert.equal(root.statusCode, 200, root.body);
      assert.deepEqual(root.json(), (await api.get('/v2')).json());
      assert.equal((await ctx.app.inject({ method: 'GET', url: '/v2/' })).statusCode, 401);

      const confirmedAfter = async (query: string, body: Record<string, unknown>) => {
        const up = await api.upload('/v2/documents/files', 'Open the file.\n', {
          'lilt-api': JSON.stringify({ name: 'q.txt', project_id: projectId }),
        });
        const id = up.json().id;
        await idle(id);
        const res = await api.post(`/v2/documents/pretranslate?${query}`, { id: [id], ...body });
        assert.equal(res.statusCode, 202, res.body);
        await idle(id);
        const [segment] = (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments;
        assert.equal(segment.target, 'Öffnen Sie die Datei.');
        return segment.is_confirmed as boolean;
      };
      assert.equal(
        await confirmedAfter('auto_accept=true', {}),
        true,
        'the SDK sends auto_accept in the query',
      );
      assert.equal(await confirmedAfter('autoAccept=true', {}), true);
      assert.equal(await confirmedAfter('auto_accept=true', { auto_accept: false }), false, 'the body wins');
      assert.equal(await confirmedAfter('auto_accept=false', {}), false);
      const bad = await api.post('/v2/documents/pretranslate?auto_accept=maybe', { id: [1] });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /auto_accept/);
    });

    test('mode tm+mt, MT and tm on /v2/documents/pretranslate; anything else names the parameter', async () => {
      const up = await api.upload('/v2/documents/files', 'Open the file.\n', {
        'lilt-api': JSON.stringify({ name: 'm.txt', project_id: projectId }),
      });
      const id = up.json().id;
      await idle(id);
      for (const [mode, requested, notAvailable] of [
        ['tm+mt', 'tm+mt', NO_MT],
        ['MT', 'mt', NO_MT],
        ['tm', 'tm', []],
      ] as const) {
        const res = await api.post('/v2/documents/pretranslate', { id: [id], mode });
        assert.equal(res.statusCode, 202, res.body);
        assert.deepEqual(res.json().modes, { requested, ran: ['tm'], not_available: notAvailable });
        await idle(id);
        assert.deepEqual((await lastPretranslation(id)).modes.requested, requested);
      }
      const bad = await api.post('/v2/documents/pretranslate', { id: [id], mode: 'nmt' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /mode/);
    });

    test("the Python and Node SDKs' CommentsApi: ids in the query, CommentBody in the body, is_resolved as a string", async () => {
      const id = await api.uploadDocument(projectId, 'comments.txt', 'Open the file.\n');
      const [segment] = (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments;
      // create_comment(document_id, segment_id, CommentBody(text, annotations))
      const created = await api.post(`/v2/comments?document_id=${id}&segment_id=${segment.id}`, {
        text: 'Datei or Akte?',
        annotations: [{ text: 'terminology' }],
      });
      assert.equal(created.statusCode, 201, created.body);
      const comment = created.json();
      for (const field of [
        'id',
        'text',
        'annotations',
        'is_resolved',
        'document_id',
        'segment_id',
        'user_id',
        'created_at',
      ]) {
        assert.ok(field in comment, `Comment.${field}`);
      }
      assert.equal(typeof comment.segment_revision_id, 'number');
      // get_document_comments(document_id): DocumentComments, lists keyed by segment id
      const byDocument = await api.get(`/v2/comments?document_id=${id}`);
      assert.deepEqual(byDocument.json(), { [segment.id]: [comment] });
      // update_comment(comment_id, document_id, CommentBody(is_resolved='true'))
      const updated = await api.put(`/v2/comments?comment_id=${comment.id}&document_id=${id}`, {
        text: 'Datei.',
        is_resolved: 'true',
      });
      assert.equal(updated.statusCode, 200, updated.body);
      assert.equal(updated.json().is_resolved, true);
      assert.equal(updated.json().text, 'Datei.');
      // delete_comment(comment_id): CommentDeleteResponse {id}
      const deleted = await api.delete(`/v2/comments?comment_id=${comment.id}`);
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.equal(deleted.json().id, comment.id);
    });

    test("the Python SDK's termbase and lexicon: import_memory_file (.csv, has_header_row), export_termbase, download_termbase, query_lexicon, update_lexicon", async () => {
      // import_memory_file(memory_id, name, body, has_header_row=True): parameters in the LILT-API header
      const imported = await api.upload('/v2/memories/import', 'source text,target text\nfile,Datei\n', {
        'lilt-api': JSON.stringify({ memory_id: memoryId, name: 'termbase.csv', has_header_row: true }),
      });
      assert.equal(imported.statusCode, 200, imported.body);
      assert.equal(imported.json().id, memoryId);
      // export_termbase(id): POST with the id in the query and no body; TermbaseExportResponse {id, is_processing}
      const started = await api.inject('POST', `/v2/memories/termbase/export?id=${memoryId}`);
      assert.equal(started.statusCode, 200, started.body);
      assert.deepEqual(started.json(), { id: memoryId, is_processing: 0 });
      // download_termbase(id): the CSV
      const csv = await api.get(`/v2/memories/termbase/download?id=${memoryId}`);
      assert.match(csv.body, /\r\nfile,Datei,preferred,/);
      // update_lexicon(LexiconUpdateParameters(memory_id, source, target))
      const added = await api.post('/v2/lexicon', {
        memory_id: memoryId,
        source: 'folder',
        target: 'Ordner',
      });
      assert.deepEqual(added.json(), { memory_id: memoryId, success: true });
      // query_lexicon(memory_id, srclang, trglang, query, n=n): list[LexiconEntry]
      const lexicon = await api.get(`/v2/lexicon?memory_id=${memoryId}&srclang=en&trglang=de&query=file&n=5`);
      assert.equal(lexicon.statusCode, 200, lexicon.body);
      const [entry] = lexicon.json();
      assert.deepEqual(entry.translations[0], {
        source: 'file',
        target: 'Datei',
        frequency: 1,
        memory_id: memoryId,
        status: 'preferred',
        origin: 'termbase',
      });
      assert.deepEqual(entry.examples, [
        { source: 'Open the file.', target: 'Öffnen Sie die Datei.', memory_id: memoryId },
      ]);
    });

    test("the SDKs' workflow calls: templates, assign_document, done/translation and done/review with float ids, unlocks", async () => {
      // WorkflowsApi.get_workflow_templates: a list of WorkflowTemplate, stages with name and assignment_type.
      const templates = (await api.get('/v2/workflows/templates')).json();
      const twoStage = templates.find((t: { stages: unknown[] }) => t.stages.length === 2);
      assert.deepEqual(Object.keys(twoStage).sort(), ['id', 'name', 'stages', 'team_id']);
      assert.deepEqual(Object.keys(twoStage.stages[0]).sort(), ['assignment_type', 'name']);
      const project = (
        await api.post('/v2/projects', {
          name: 'Reviewed',
          memory_id: memoryId,
          workflow_template_id: twoStage.id,
        })
      ).json().id;
      const up = await api.upload('/v2/documents/files', 'Open the file.\n', {
        'lilt-api': JSON.stringify({ name: 'w.txt', project_id: project }),
      });
      const id = up.json().id;
      await idle(id);
      await api.post('/v2/users', {
        username: 'sdk-reviewer',
        password: 'password-1234',
        role: 'reviewer',
        email: 'r@example.com',
      });
      // DocumentsApi.assign_document: DocumentAssignmentParameters as the Python SDK serializes it (a datetime
      // as isoformat, no zone).
      const assigned = await api.put('/v2/documents/share', {
        id,
        email: 'r@example.com',
        is_translator: false,
        is_reviewer: true,
        due_date: '2027-01-31T00:00:00',
      });
      assert.equal(assigned.statusCode, 200, assigned.body);
      assert.deepEqual(assigned.json(), { id });
      const doc = (await api.get(`/v2/documents?id=${id}`)).json();
      assert.equal(doc.reviewer_email, 'r@example.com');
      assert.equal(doc.translator_email, null);
      assert.equal(doc.assignees[0].due_date, Date.UTC(2027, 0, 31) / 1000);
      const segment = (await api.get(`/v2/documents/segments?id=${id}`)).json().segments[0];
      await api.put('/v2/segments', { id: segment.id, target: 'Öffnen Sie die Datei.', is_confirmed: true });
      // document_translation_done and documents_done_review_post: documentIds as list[float], isDone.
      const raw = (url: string, body: string) =>
        ctx.app.inject({
          method: 'POST',
          url,
          headers: {
            authorization: `Basic ${Buffer.from(`${ctx.adminKey}:${ctx.adminKey}`).toString('base64')}`,
            'content-type': 'application/json',
          },
          payload: body,
        });
      const translated = await raw('/v2/documents/done/translation', `{"documentIds": [${id}.0]}`);
      assert.equal(translated.statusCode, 200, translated.body);
      assert.deepEqual(translated.json(), [id]);
      const reviewed = await raw('/v2/documents/done/review', `{"documentIds": [${id}.0], "isDone": true}`);
      assert.deepEqual(reviewed.json(), [id]);
      assert.equal((await api.get(`/v2/documents?id=${id}`)).json().is_review_complete, true);
      // document_unlock and SegmentsApi.unlock_segments.
      assert.deepEqual((await raw('/v2/documents/done/unlock', `{"documentIds": [${id}]}`)).json(), [id]);
      const doc2 = (await api.get(`/v2/documents?id=${id}`)).json();
      assert.equal(doc2.is_review_complete, false);
      assert.equal(doc2.stage, 'translate');
      await api.put('/v2/segments', { id: segment.id, is_reviewed: true });
      assert.deepEqual((await raw('/v2/segments/review/unlock', `{"segmentIds": [${segment.id}]}`)).json(), [
        segment.id,
      ]);
      assert.equal((await api.get(`/v2/segments?id=${segment.id}`)).json().is_reviewed, false);
    });
  });
}

for (const target of await storeTargets()) {
  describe(`memory sync by time (Lilt's sync_down_memory) on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    /** The sources of a TMX answer, in order. */
    const sources = (tmx: string) =>
      [...tmx.matchAll(/<tuv xml:lang="en"><seg>([^<]*)<\/seg>/g)].map((m) => m[1]);

    test('from_time, to_time and when select the entries created, updated or deleted in the window', async () => {
      const memoryId = (await api.post('/v2/memories', { name: 'Sync', srclang: 'en', trglang: 'de' })).json()
        .id;
      const ids: Record<string, number> = {};
      for (const [source, t] of [
        ['Old entry', 'Alter Eintrag'],
        ['Edited entry', 'Bearbeiteter Eintrag'],
        ['New entry', 'Neuer Eintrag'],
      ]) {
        ids[source] = (await api.post('/v2/segments', { memory_id: memoryId, source, target: t })).json().id;
      }
      // Times as a memory written over a while would hold them.
      const times: [string, number, number][] = [
        ['Old entry', 1_000, 1_000],
        ['Edited entry', 1_000, 2_000],
        ['New entry', 3_000, 3_000],
      ];
      for (const [source, created, updated] of times) {
        await ctx.db.run('UPDATE memory_entries SET created_at = ?, updated_at = ? WHERE id = ?', [
          created,
          updated,
          ids[source],
        ]);
      }
      const sync = async (query: string) => {
        const res = await api.get(`/v2/memories/sync?id=${memoryId}${query}`);
        assert.equal(res.statusCode, 200, res.body);
        return sources(res.body);
      };
      assert.deepEqual(await sync(''), ['Old entry', 'Edited entry', 'New entry']);
      assert.deepEqual(await sync('&from_time=1500'), ['Edited entry', 'New entry']);
      assert.deepEqual(await sync('&from_time=1500&to_time=3000'), ['Edited entry']);
      assert.deepEqual(await sync('&from_time=500&to_time=1500&when=Created'), ['Old entry', 'Edited entry']);
      assert.deepEqual(await sync('&from_time=1500&when=created'), ['New entry']);

      const started = Math.floor(Date.now() / 1000);
      const del = await api.delete(`/v2/memories/segment?id=${memoryId}&segment_id=${ids['New entry']}`);
      assert.equal(del.statusCode, 200, del.body);
      const deleted = await api.get(`/v2/memories/sync?id=${memoryId}&from_time=${started - 1}&when=Deleted`);
      assert.equal(deleted.statusCode, 200);
      assert.deepEqual(sources(deleted.body), ['New entry']);
      assert.match(deleted.body, /<seg>Neuer Eintrag<\/seg>/);
      assert.match(deleted.body, new RegExp(`tuid="${ids['New entry']}"`));
      assert.deepEqual(
        await sync('&from_time=1500'),
        ['Edited entry'],
        'a deleted entry is no longer a change',
      );
      assert.deepEqual(await sync(`&from_time=${started + 3600}&when=deleted`), []);

      const backwards = await api.get(`/v2/memories/sync?id=${memoryId}&from_time=2000&to_time=1000`);
      assert.equal(backwards.statusCode, 400);
      assert.match(backwards.json().message, /to_time/);
      const badWhen = await api.get(`/v2/memories/sync?id=${memoryId}&when=sometimes`);
      assert.equal(badWhen.statusCode, 400);
      assert.match(badWhen.json().message, /when/);
    });
  });
}
