// Auto-accept and context (101 %) matches through HTTP on every store: auto-accept confirms only exact
// matches (never a case-only or whitespace-only 99), and with the context scope only matches whose stored
// context — the key, or the neighbouring sources — is the segment's (docs/MATCHING.md §2.6).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';
import { tmxErrors } from './helpers/xmllint.ts';

interface Match {
  source: string;
  target: string;
  score: number;
  metadata: { context_match: boolean; match_type: string };
}

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

    const query = async (memoryId: number, text: string, segmentId?: number) => {
      const res = await api.get(
        `/v2/memories/query?id=${memoryId}&query=${encodeURIComponent(text)}${segmentId ? `&segment_id=${segmentId}` : ''}`,
      );
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as Match[]).map((m) => [m.target, m.score, m.metadata.context_match]);
    };

    async function importMemory(memoryId: number, name: string, body: string) {
      const res = await api.upload('/v2/memories/import', body, {
        'lilt-api': JSON.stringify({ memory_id: memoryId, name }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const task = await api.waitForTask(res.json().task_id);
      assert.equal(task.state, 'succeeded', JSON.stringify(task));
      return task.result as { imported: number; skipped: number; duplicates: number };
    }

    const FLOW = 'Before it.\n\nClick OK.\n\nAfter it.\n';

    test('a confirmed segment is stored with its neighbours: the same place elsewhere is a context match', async () => {
      const { memoryId, projectId } = await project('Flow');
      const first = await uploadDocument(projectId, 'first.txt', FLOW);
      const [, click] = await segmentsOf(first);
      await api.put('/v2/segments', { id: click.id, target: 'Klicken Sie auf OK.', is_confirmed: true });
      // The same source added by hand, without a context.
      await api.post('/v2/segments', { memory_id: memoryId, source: 'Click OK.', target: 'OK klicken.' });

      const same = await uploadDocument(projectId, 'same.txt', FLOW);
      const other = await uploadDocument(projectId, 'other.txt', 'Elsewhere.\n\nClick OK.\n\nAfter it.\n');
      const [, sameClick] = await segmentsOf(same);
      const [, otherClick] = await segmentsOf(other);
      const plain = await query(memoryId, 'Click OK.');
      assert.deepEqual(plain.map((m) => m[2]).sort(), [false, false], 'no context match without a segment');
      assert.deepEqual(await query(memoryId, 'Click OK.', sameClick.id), [
        ['Klicken Sie auf OK.', 100, true],
        ['OK klicken.', 100, false],
      ]);
      assert.deepEqual(
        await query(memoryId, 'Click OK.', otherClick.id),
        plain,
        'another place: no context match',
      );
      const n1 = await api.get(
        `/v2/memories/query?id=${memoryId}&query=Click%20OK.&n=1&segment_id=${sameClick.id}`,
      );
      assert.equal(n1.json()[0].target, 'Klicken Sie auf OK.', 'a context match ranks first even at n=1');
      const missing = await api.get(`/v2/memories/query?id=${memoryId}&query=x&segment_id=999999`);
      assert.equal(missing.statusCode, 404);

      // Auto-accept with the context scope confirms the context match only; the exact scope any exact match.
      await pretranslate(same, { auto_accept: true, auto_accept_scope: 'context' });
      await pretranslate(other, { auto_accept: true, auto_accept_scope: 'context' });
      const pick = (s: DocSegment) => [s.target, s.match_score, s.context_match, s.is_confirmed];
      assert.deepEqual(pick((await segmentsOf(same))[1]), ['Klicken Sie auf OK.', 100, true, true]);
      assert.deepEqual(pick((await segmentsOf(other))[1]), [plain[0][0], 100, false, false]);
      await pretranslate(other, { auto_accept: true });
      assert.deepEqual(pick((await segmentsOf(other))[1]), [plain[0][0], 100, false, true]);

      // The upload's parameters take the scope too; an edit clears the context flag with the score.
      const uploaded = await api.upload('/v2/documents/files', FLOW, {
        'lilt-api': JSON.stringify({
          name: 'uploaded.txt',
          project_id: projectId,
          pretranslate: 'TM',
          auto_accept: true,
          auto_accept_scope: 'context',
        }),
      });
      const uploadedId = uploaded.json().id as number;
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${uploadedId}`)).json();
        if (!doc.import_in_progress && doc.status.pretranslation === 'idle') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const [, uploadedClick] = await segmentsOf(uploadedId);
      assert.deepEqual(pick(uploadedClick), ['Klicken Sie auf OK.', 100, true, true]);
      const edited = await api.put('/v2/segments', { id: uploadedClick.id, target: 'Auf OK klicken.' });
      assert.deepEqual([edited.json().match_score, edited.json().context_match], [null, false]);
    });

    test('keys are contexts where the format has them: JSON keys, PO msgctxt', async () => {
      const { memoryId, projectId } = await project('Keys');
      const first = await uploadDocument(
        projectId,
        'en.json',
        '{"menu": {"ok": "OK"}, "dialog": {"ok": "OK"}}',
      );
      const [menuOk, dialogOk] = await segmentsOf(first);
      await api.put('/v2/segments', { id: menuOk.id, target: 'Okay', is_confirmed: true });
      await api.put('/v2/segments', { id: dialogOk.id, target: 'Bestätigen', is_confirmed: true });
      // Other neighbours, the same keys: each is a context match of its own translation.
      const moved = await uploadDocument(
        projectId,
        'moved.json',
        '{"dialog": {"ok": "OK", "title": "Save"}, "menu": {"ok": "OK"}}',
      );
      await pretranslate(moved, { auto_accept: true, auto_accept_scope: 'context' });
      assert.deepEqual(
        (await segmentsOf(moved)).map((s) => [s.target, s.context_match, s.is_confirmed]),
        [
          ['Bestätigen', true, true],
          [null, false, false],
          ['Okay', true, true],
        ],
      );

      const po = await uploadDocument(
        projectId,
        'app.po',
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
          'msgctxt "verb"\nmsgid "Open"\nmsgstr ""\n\nmsgctxt "adjective"\nmsgid "Open"\nmsgstr ""\n',
      );
      const [verb, adjective] = await segmentsOf(po);
      await api.put('/v2/segments', { id: verb.id, target: 'Öffnen', is_confirmed: true });
      await api.put('/v2/segments', { id: adjective.id, target: 'Offen', is_confirmed: true });
      assert.deepEqual(await query(memoryId, 'Open', adjective.id), [
        ['Offen', 100, true],
        ['Öffnen', 100, false],
      ]);
    });

    test('TMX export writes the contexts as memoQ and Trados do; importing it back keeps the context matches', async () => {
      const source = await project('Exported');
      const doc = await uploadDocument(source.projectId, 'flow.txt', FLOW);
      const [, click] = await segmentsOf(doc);
      await api.put('/v2/segments', { id: click.id, target: 'Klicken Sie auf OK.', is_confirmed: true });
      const keyed = await uploadDocument(source.projectId, 'keys.json', '{"menu": {"ok": "OK"}}');
      const [ok] = await segmentsOf(keyed);
      await api.put('/v2/segments', { id: ok.id, target: 'Okay', is_confirmed: true });

      const tmx = (await api.get(`/v2/memories/export?id=${source.memoryId}`)).body;
      assert.match(tmx, /<prop type="x-context-pre">&lt;seg&gt;Before it\.&lt;\/seg&gt;<\/prop>/);
      assert.match(tmx, /<prop type="x-context-post">&lt;seg&gt;After it\.&lt;\/seg&gt;<\/prop>/);
      assert.match(tmx, /<prop type="x-IdContext">menu\.ok<\/prop>/);
      assert.equal(tmxErrors(tmx), '', 'valid against the TMX 1.4 DTD');

      const copy = await project('Imported');
      assert.equal((await importMemory(copy.memoryId, 'exported.tmx', tmx)).imported, 2);
      const again = await uploadDocument(copy.projectId, 'again.txt', FLOW);
      const [, againClick] = await segmentsOf(again);
      assert.deepEqual(await query(copy.memoryId, 'Click OK.', againClick.id), [
        ['Klicken Sie auf OK.', 100, true],
      ]);
      const againKeys = await uploadDocument(
        copy.projectId,
        'again.json',
        '{"x": "Other", "menu": {"ok": "OK"}}',
      );
      const [, againOk] = await segmentsOf(againKeys);
      assert.deepEqual(await query(copy.memoryId, 'OK', againOk.id), [['Okay', 100, true]]);
      // The same file again adds nothing: pairs are stored once per context.
      assert.equal((await importMemory(copy.memoryId, 'exported.tmx', tmx)).imported, 0);
    });

    test('contexts from other tools: memoQ’s props with their own tags, XLIFF resnames and neighbours', async () => {
      const { memoryId, projectId } = await project('Foreign');
      const memoq = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="memoQ" creationtoolversion="9" segtype="sentence" o-tmf="MemoQTM" adminlang="en-us" srclang="en-us" datatype="unknown"/>
<body><tu><prop type="client"></prop>
<tuv xml:lang="en-us"><prop type="x-context-pre">&lt;seg&gt;&lt;bpt i="1" type="bold"&gt;{}&lt;/bpt&gt;Before&lt;ept i="1"&gt;{}&lt;/ept&gt; it.&lt;/seg&gt;</prop><prop type="x-context-post">&lt;seg&gt;After it.&lt;/seg&gt;</prop><seg>Click OK.</seg></tuv>
<tuv xml:lang="de-de"><seg>Auf OK klicken.</seg></tuv></tu></body></tmx>`;
      await importMemory(memoryId, 'memoq.tmx', memoq);
      const html = await uploadDocument(
        projectId,
        'page.html',
        '<html><body><p><b>Before</b> it.</p><p>Click OK.</p><p>After it.</p></body></html>',
      );
      const [, click] = await segmentsOf(html);
      assert.deepEqual(await query(memoryId, 'Click OK.', click.id), [['Auf OK klicken.', 100, true]]);

      await importMemory(
        memoryId,
        'strings.xlf',
        '<?xml version="1.0"?><xliff version="1.2"><file original="x" source-language="en" target-language="de" datatype="plaintext"><body>' +
          '<trans-unit id="1" resname="greeting"><source>Hello</source><target>Hallo</target></trans-unit>' +
          '<trans-unit id="2"><source>First.</source></trans-unit>' +
          '<trans-unit id="3"><source>Close</source><target>Schließen</target></trans-unit>' +
          '<trans-unit id="4"><source>Last.</source></trans-unit></body></file></xliff>',
      );
      const xlf = await uploadDocument(
        projectId,
        'app.xlf',
        '<?xml version="1.0"?><xliff version="1.2"><file original="y" source-language="en" target-language="de" datatype="plaintext"><body>' +
          '<trans-unit id="a"><source>First.</source></trans-unit>' +
          '<trans-unit id="b"><source>Close</source></trans-unit>' +
          '<trans-unit id="c"><source>Last.</source></trans-unit>' +
          '<trans-unit id="d" resname="greeting"><source>Hello</source></trans-unit></body></file></xliff>',
      );
      await pretranslate(xlf, { auto_accept: true, auto_accept_scope: 'context' });
      assert.deepEqual(
        (await segmentsOf(xlf)).map((s) => [s.source, s.target, s.context_match, s.is_confirmed]),
        [
          ['First.', null, false, false],
          ['Close', 'Schließen', true, true],
          ['Last.', null, false, false],
          ['Hello', 'Hallo', true, true],
        ],
      );
    });
  });
}
