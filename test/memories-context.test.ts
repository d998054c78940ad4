// Auto-accept and context (101 %) matches through HTTP on every store: auto-accept confirms only exact
// matches (never a case-only or whitespace-only 99), and with the context scope only matches whose stored
// context — the key, or the neighbouring sources — is the segment's (docs/MATCHING.md §2.6).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

interface DocSegment {
  id: number;
  source: string;
  target: string | null;
  is_confirmed: boolean;
  match_score: number | null;
  context_match: boolean;
}

for (const target of await storeTargets()) {
  describe(`auto-accept and context matches on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    async function project(name: string) {
      const memory = (await api.post('/v2/memories', { name, srclang: 'en', trglang: 'de' })).json();
      const made = (await api.post('/v2/projects', { name, memory_id: memory.id })).json();
      return { memoryId: memory.id as number, projectId: made.id as number };
    }

    async function uploadDocument(projectId: number, name: string, body: string) {
      const res = await api.upload('/v2/documents/files', body, {
        'lilt-api': JSON.stringify({ name, project_id: projectId }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().id as number;
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (!doc.import_in_progress) {
          assert.equal(doc.import_succeeded, true, doc.import_error_message);
          return id;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('import never ended');
    }

    async function pretranslate(id: number, options: Record<string, unknown> = {}) {
      const res = await api.post('/v2/documents/pretranslate', { id: [id], ...options });
      assert.equal(res.statusCode, 202, res.body);
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (doc.status.pretranslation === 'idle') return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('pre-translation never ended');
    }

    const segmentsOf = async (id: number) =>
      (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments as DocSegment[];

    test('auto-accept confirms only exact matches: a case-only 99 is pre-translated, not confirmed', async () => {
      const { memoryId, projectId } = await project('Exact only');
      for (const [source, translation] of [
        ['save the file.', 'Datei speichern.'],
        ['Open the file.', 'Datei öffnen.'],
        ['root', 'Wurzel'],
      ]) {
        await api.post('/v2/segments', { memory_id: memoryId, source, target: translation });
      }
      const id = await uploadDocument(projectId, 'a.txt', 'Save the file.\n\nOpen the file.\n\nRoot\n');
      for (const options of [{ auto_accept: true }, { auto_accept: true, case_sensitive: false }]) {
        await pretranslate(id, options);
        assert.deepEqual(
          (await segmentsOf(id)).map((s) => [s.source, s.target, s.match_score, s.is_confirmed]),
          [
            ['Save the file.', 'Datei speichern.', 99, false],
            ['Open the file.', 'Datei öffnen.', 100, true],
            ['Root', 'Wurzel', 99, false],
          ],
          JSON.stringify(options),
        );
      }
    });
  });
}
