// A memory keeps its text in Unicode NFC, on every store: what a Mac (NFD) and what Windows (NFC) type is one
// entry, found by either form of the query.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const NFC = { source: 'Caf\u00e9 is open.', target: 'Das Caf\u00e9 hat ge\u00f6ffnet.' };
const NFD = { source: 'Cafe\u0301 is open.', target: 'Das Cafe\u0301 hat geo\u0308ffnet.' };

for (const target of await storeTargets()) {
  describe(`NFC in memories on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    const isNfc = (text: string) => text === text.normalize('NFC');

    test('entries are written in NFC by hand, by import and by confirmation; twins are one entry', async () => {
      const memoryId = (await api.post('/v2/memories', { name: 'NFC', srclang: 'en', trglang: 'de' })).json()
        .id;
      const first = (await api.post('/v2/segments', { memory_id: memoryId, ...NFD })).json();
      assert.equal(first.source, NFC.source);
      assert.equal(first.target, NFC.target);
      const twin = (await api.post('/v2/segments', { memory_id: memoryId, ...NFC })).json();
      assert.equal(twin.id, first.id, 'the NFC twin is the same entry');

      const up = await api.upload(
        '/v2/memories/import',
        'Te\u0301\tTe\u0301e\nCafe\u0301 is open.\tDas Cafe\u0301 hat geo\u0308ffnet.\n',
        {
          'lilt-api': JSON.stringify({ memory_id: memoryId, name: 'mac.tsv' }),
        },
      );
      assert.deepEqual((await api.waitForTask(up.json().job_id)).result, {
        imported: 1,
        skipped: 0,
        duplicates: 1,
      });

      const projectId = (await api.post('/v2/projects', { name: 'P', memory_id: memoryId })).json().id;
      const doc = await api.upload('/v2/documents/files', 'Cre\u0300me bru\u0302le\u0301e.\n', {
        'lilt-api': JSON.stringify({ name: 'menu.txt', project_id: projectId }),
      });
      let segments: { id: number }[] = [];
      for (let i = 0; i < 500 && segments.length === 0; i++) {
        const d = (await api.get(`/v2/documents?id=${doc.json().id}&with_segments=true`)).json();
        if (!d.import_in_progress) segments = d.segments;
        else await new Promise((r) => setTimeout(r, 20));
      }
      const confirmed = await api.put('/v2/segments', {
        id: segments[0].id,
        target: 'Cre\u0300me bru\u0302le\u0301e.',
        is_confirmed: true,
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);

      const page = (await api.get(`/v2/memories/entries?id=${memoryId}`)).json();
      assert.equal(page.total, 3);
      for (const e of page.entries) assert.ok(isNfc(e.source) && isNfc(e.target), JSON.stringify(e.source));
      // Either form of a query finds them: the text search and the matcher.
      for (const q of ['Caf\u00e9', 'Cafe\u0301', 'T\u00e9']) {
        const found = (
          await api.get(`/v2/memories/entries?id=${memoryId}&q=${encodeURIComponent(q)}`)
        ).json();
        assert.equal(found.total, 1, q);
      }
      const hits = (
        await api.get(`/v2/memories/query?id=${memoryId}&query=${encodeURIComponent(NFD.source)}`)
      ).json();
      assert.deepEqual(
        hits.map((h: { source: string; score: number }) => [h.source, h.score]),
        [[NFC.source, 100]],
      );
    });
  });
}
