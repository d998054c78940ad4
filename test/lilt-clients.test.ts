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
  });
}
