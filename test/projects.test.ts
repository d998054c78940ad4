// Projects through HTTP on every store: the language pair from the memory, the documents listed, filters,
// update, delete, tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`projects on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let otherApi: ReturnType<typeof client>;
    let memoryId: number;
    let projectId: number;
    before(async () => {
      ctx = await createContext(target);
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
      projectId = (await api.post('/v2/projects', { name: 'Website', memory_id: memoryId })).json().id;
    });
    after(() => ctx.close());

    async function upload(name: string, body: string) {
      const res = await api.upload('/v2/documents/files', body, {
        'lilt-api': JSON.stringify({ name, project_id: projectId }),
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { id: number; import_in_progress: boolean };
    }

    async function imported(id: number) {
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${id}`)).json();
        if (doc.import_in_progress === false) return doc;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`document ${id} was never imported`);
    }

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
  });
}
