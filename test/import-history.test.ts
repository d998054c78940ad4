// Targets that come with an uploaded file (XLIFF, PO) are version 1 of their segments' history, on every
// store, so that an edit of them can be undone by restoring it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { migrate } from '../src/store/migrate.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const XLIFF = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en" target-language="de" datatype="plaintext"><body>
    <trans-unit id="1"><source>Save your work.</source><target state="translated">Speichern Sie Ihre Arbeit.</target></trans-unit>
    <trans-unit id="2"><source>Close the file.</source></trans-unit>
  </body></file>
</xliff>
`;

const PO = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: de\\n"

msgid "Open the file."
msgstr "Öffnen Sie die Datei."
`;

for (const target of await storeTargets()) {
  describe(`imported targets in the history on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let projectId: number;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
      const memoryId = (await api.post('/v2/memories', { name: 'TM', srclang: 'en', trglang: 'de' })).json()
        .id;
      projectId = (await api.post('/v2/projects', { name: 'App', memory_id: memoryId })).json().id;
    });
    after(() => ctx.close());

    async function imported(name: string, body: string) {
      const up = await api.upload('/v2/documents/files', body, {
        'lilt-api': JSON.stringify({ name, project_id: projectId }),
      });
      assert.equal(up.statusCode, 200, up.body);
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${up.json().id}&with_segments=true`)).json();
        if (!doc.import_in_progress) {
          assert.equal(doc.import_succeeded, true, doc.import_error_message);
          return doc.segments as { id: number; target: string | null; status: string }[];
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('never imported');
    }

    for (const [name, body, importedTarget] of [
      ['app.xlf', XLIFF, 'Speichern Sie Ihre Arbeit.'],
      ['app.po', PO, 'Öffnen Sie die Datei.'],
    ] as const) {
      test(`${name}: the target that came with the file is version 1 and can be restored after an edit`, async () => {
        const [seg, ...rest] = await imported(name, body);
        assert.equal(seg.target, importedTarget);
        const edited = await api.put('/v2/segments', { id: seg.id, target: 'Ein Fehler.' });
        assert.equal(edited.statusCode, 200, edited.body);

        const history = (await api.get(`/v2/segments/history?id=${seg.id}`)).json();
        assert.deepEqual(
          history.versions.map((v: Record<string, unknown>) => [v.version, v.target, v.origin, v.user]),
          [
            [2, 'Ein Fehler.', 'edit', 'admin'],
            [1, importedTarget, 'import', 'admin'],
          ],
        );
        const restored = await api.post('/v2/segments/restore', { id: seg.id, version: 1 });
        assert.equal(restored.statusCode, 200, restored.body);
        assert.equal(restored.json().target, importedTarget);
        for (const other of rest.filter((s) => s.target === null)) {
          const none = (await api.get(`/v2/segments/history?id=${other.id}`)).json();
          assert.deepEqual(none.versions, [], 'a segment imported without a target has no version');
        }
      });
    }

    test('migration 021 gives targets imported before it, never changed since, their version 1', async () => {
      const [seg] = await imported('before.xlf', XLIFF);
      // The state an import left before targets were versioned: version 0, no history; 021 not yet applied.
      await ctx.db.run('DELETE FROM segment_versions WHERE segment_id = ?', [seg.id]);
      await ctx.db.run('UPDATE document_segments SET version = 0 WHERE id = ?', [seg.id]);
      await ctx.db.run("DELETE FROM schema_migrations WHERE version LIKE '021%'", []);
      assert.deepEqual(
        (await migrate(ctx.db)).map((v) => v.slice(0, 3)),
        ['021'],
      );
      const history = (await api.get(`/v2/segments/history?id=${seg.id}`)).json();
      assert.deepEqual(
        history.versions.map((v: Record<string, unknown>) => [v.version, v.target, v.origin, v.user]),
        [[1, 'Speichern Sie Ihre Arbeit.', 'import', null]],
      );
      await api.put('/v2/segments', { id: seg.id, target: 'Ein Fehler.' });
      const restored = await api.post('/v2/segments/restore', { id: seg.id, version: 1 });
      assert.equal(restored.json().target, 'Speichern Sie Ihre Arbeit.');
    });
  });
}
