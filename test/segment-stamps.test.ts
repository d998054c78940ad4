// A document segment's updated_at tells every change apart (expected_updated_at relies on it) without running
// ahead of the clock when it is edited quickly, on every store.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`segment stamps on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    test('rapid edits: each updated_at is new, and none is ahead of the clock', async () => {
      const memoryId = (await api.post('/v2/memories', { name: 'M', srclang: 'en', trglang: 'de' })).json()
        .id;
      const projectId = (await api.post('/v2/projects', { name: 'P', memory_id: memoryId })).json().id;
      const up = await api.upload('/v2/documents/files', 'Save your work.\n', {
        'lilt-api': JSON.stringify({ name: 'a.txt', project_id: projectId }),
      });
      let segment: { id: number; updated_at: number } | undefined;
      for (let i = 0; i < 500 && !segment; i++) {
        const doc = (await api.get(`/v2/documents?id=${up.json().id}&with_segments=true`)).json();
        if (!doc.import_in_progress) segment = doc.segments[0];
        else await new Promise((r) => setTimeout(r, 20));
      }
      let base = segment!.updated_at;
      const stamps = [base];
      for (const text of ['Speichern', 'Speichern Sie', 'Speichern Sie Ihre Arbeit.']) {
        const res = await api.put('/v2/segments', {
          id: segment!.id,
          target: text,
          expected_updated_at: base,
        });
        assert.equal(res.statusCode, 200, res.body);
        const clock = Math.floor(Date.now() / 1000);
        base = res.json().updated_at;
        assert.ok(base <= clock, `updated_at ${base} is ahead of the clock ${clock}`);
        stamps.push(base);
      }
      assert.deepEqual([...new Set(stamps)], stamps, 'every change has an updated_at of its own');
      const stale = await api.put('/v2/segments', {
        id: segment!.id,
        target: 'x',
        expected_updated_at: stamps[2],
      });
      assert.equal(stale.statusCode, 409);
    });
  });
}
