// One translation per source and context (docs/MATCHING.md §2.7) through HTTP on every store: a correction
// of a confirmed segment replaces the memory's entry and keeps its history; a memory that allows several
// translations keeps both; the query answers one 100 % match; a sync reports the replaced entry as updated.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

interface DocSegment {
  id: number;
  source: string;
  target: string | null;
}

interface HistoryVersion {
  source: string;
  target: string;
  user: string | null;
  created_at: number;
  current: boolean;
  replaced_by: string | null;
  replaced_at: number | null;
}

for (const target of await storeTargets()) {
  describe(`memory corrections on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    before(async () => {
      ctx = await createContext(target);
      api = client(ctx.app, ctx.adminKey);
    });
    after(() => ctx.close());

    async function project(name: string, memory: Record<string, unknown> = {}) {
      const res = await api.post('/v2/memories', { name, srclang: 'en', trglang: 'de', ...memory });
      assert.equal(res.statusCode, 200, res.body);
      const made = (await api.post('/v2/projects', { name, memory_id: res.json().id })).json();
      return { memoryId: res.json().id as number, projectId: made.id as number, memory: res.json() };
    }

    const segmentsOf = async (id: number) =>
      (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments as DocSegment[];

    const entriesOf = async (memoryId: number) => {
      const res = await api.get(`/v2/memories/entries?id=${memoryId}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().entries as {
        id: number;
        source: string;
        target: string;
        earlier_versions: number;
      }[];
    };

    const confirm = async (id: number, text: string) => {
      const res = await api.put('/v2/segments', { id, target: text, is_confirmed: true });
      assert.equal(res.statusCode, 200, res.body);
    };

    const FLOW = 'Before it.\n\nClick OK.\n\nAfter it.\n';

    test('a correction replaces the entry, keeps its history, and the query answers one 100 % match', async () => {
      const { memoryId, projectId, memory } = await project('One translation');
      assert.equal(memory.multiple_translations, false, 'one translation per source by default');
      const doc = await api.uploadDocument(projectId, 'flow.txt', FLOW);
      const [, click] = await segmentsOf(doc);
      const started = Math.floor(Date.now() / 1000);
      await confirm(click.id, 'Klicken Sie auf OK');
      const [first] = await entriesOf(memoryId);
      // The reviewer corrects the translator's error.
      const reviewer = client(
        ctx.app,
        await userKey(ctx, { username: 'rita', password: 'reviewer-password-1', role: 'member' }),
      );
      const res = await reviewer.put('/v2/segments', {
        id: click.id,
        target: 'Klicken Sie auf OK.',
        is_confirmed: true,
      });
      assert.equal(res.statusCode, 200, res.body);

      const entries = await entriesOf(memoryId);
      assert.deepEqual(
        entries.map((e) => [e.id, e.source, e.target, e.earlier_versions]),
        [[first.id, 'Click OK.', 'Klicken Sie auf OK.', 1]],
        'one entry, the same one, with the new target',
      );
      const memoryNow = (await api.get(`/v2/memories?id=${memoryId}`)).json()[0];
      assert.equal(memoryNow.num_segments, 1);

      const history = await api.get(`/v2/memories/entries/history?id=${memoryId}&segment_id=${first.id}`);
      assert.equal(history.statusCode, 200, history.body);
      const versions = history.json().versions as HistoryVersion[];
      assert.deepEqual(
        versions.map((v) => [v.target, v.user, v.current, v.replaced_by]),
        [
          ['Klicken Sie auf OK.', 'rita', true, null],
          ['Klicken Sie auf OK', 'admin', false, 'rita'],
        ],
      );
      assert.ok(versions[1].created_at >= started && versions[1].replaced_at! >= versions[1].created_at);

      const query = await api.get(`/v2/memories/query?id=${memoryId}&query=Click%20OK.`);
      assert.deepEqual(
        query.json().map((m: { target: string; score: number }) => [m.target, m.score]),
        [['Klicken Sie auf OK.', 100]],
      );

      // Confirming the same text again changes nothing; confirming the same source in the same place in
      // another document replaces the entry too (its source and context already have one).
      await confirm(click.id, 'Klicken Sie auf OK.');
      const again = await api.uploadDocument(projectId, 'again.txt', FLOW);
      const [, againClick] = await segmentsOf(again);
      await confirm(againClick.id, 'Auf OK klicken.');
      assert.deepEqual(
        (await entriesOf(memoryId)).map((e) => [e.id, e.target, e.earlier_versions]),
        [[first.id, 'Auf OK klicken.', 2]],
      );
      // Another place is another context: a second entry.
      const elsewhere = await api.uploadDocument(projectId, 'elsewhere.txt', 'Other.\n\nClick OK.\n');
      const [, elsewhereClick] = await segmentsOf(elsewhere);
      await confirm(elsewhereClick.id, 'OK anklicken.');
      assert.equal((await entriesOf(memoryId)).length, 2);
    });

    test('a memory that allows several translations keeps both', async () => {
      const { memoryId, projectId, memory } = await project('Several', { multiple_translations: true });
      assert.equal(memory.multiple_translations, true);
      const doc = await api.uploadDocument(projectId, 'flow.txt', FLOW);
      const [, click] = await segmentsOf(doc);
      await confirm(click.id, 'Klicken Sie auf OK');
      await confirm(click.id, 'Klicken Sie auf OK.');
      assert.deepEqual((await entriesOf(memoryId)).map((e) => [e.target, e.earlier_versions]).sort(), [
        ['Klicken Sie auf OK', 0],
        ['Klicken Sie auf OK.', 0],
      ]);
      // The setting changes through PUT /v2/memories, with or without a new name.
      const off = await api.put('/v2/memories', { id: memoryId, multiple_translations: false });
      assert.equal(off.statusCode, 200, off.body);
      assert.deepEqual([off.json().name, off.json().multiple_translations], ['Several', false]);
      // From now on a confirmation there leaves one entry: the duplicates stored before go.
      await confirm(click.id, 'Auf OK klicken.');
      assert.deepEqual(
        (await entriesOf(memoryId)).map((e) => [e.target, e.earlier_versions]),
        [['Auf OK klicken.', 1]],
      );
      const renamed = await api.put('/v2/memories', {
        id: memoryId,
        name: 'Renamed',
        multiple_translations: true,
      });
      assert.deepEqual([renamed.json().name, renamed.json().multiple_translations], ['Renamed', true]);
      const none = await api.put('/v2/memories', { id: memoryId });
      assert.equal(none.statusCode, 400);
      assert.match(none.body, /name/);
    });

    test('a sync reports a replaced entry as updated, with its new target and its id', async () => {
      const { memoryId, projectId } = await project('Synced');
      const doc = await api.uploadDocument(projectId, 'flow.txt', FLOW);
      const [, click] = await segmentsOf(doc);
      await confirm(click.id, 'Falsch');
      const [entry] = await entriesOf(memoryId);
      await confirm(click.id, 'Richtig');
      const window = `from_time=0&to_time=${Math.floor(Date.now() / 1000) + 60}`;
      const updated = (await api.get(`/v2/memories/sync?id=${memoryId}&${window}&when=updated`)).body;
      assert.equal(updated.match(/<tu /g)?.length, 1, updated);
      assert.match(updated, new RegExp(`tuid="${entry.id}"`));
      assert.match(updated, /<seg>Richtig<\/seg>/);
      assert.doesNotMatch(updated, /Falsch/);
      // The entry was not deleted: a sync of deletions does not report it.
      const deleted = (await api.get(`/v2/memories/sync?id=${memoryId}&${window}&when=deleted`)).body;
      assert.doesNotMatch(deleted, /<tu /);
    });

    test("another organization's entry history is a 404; a wrong parameter is named", async () => {
      const { memoryId, projectId } = await project('Private');
      const doc = await api.uploadDocument(projectId, 'flow.txt', FLOW);
      const [, click] = await segmentsOf(doc);
      await confirm(click.id, 'Klicken Sie auf OK.');
      const [entry] = await entriesOf(memoryId);
      const stranger = client(
        ctx.app,
        await userKey(ctx, {
          username: 'stranger',
          password: 'stranger-password-1',
          role: 'admin',
          organization: 'Elsewhere Ltd',
        }),
      );
      const url = `/v2/memories/entries/history?id=${memoryId}&segment_id=${entry.id}`;
      assert.equal((await stranger.get(url)).statusCode, 404);
      assert.equal((await api.get(url)).statusCode, 200);
      const other = await project('Other memory');
      const wrongMemory = await api.get(
        `/v2/memories/entries/history?id=${other.memoryId}&segment_id=${entry.id}`,
      );
      assert.equal(wrongMemory.statusCode, 404);
      const bad = await api.get(`/v2/memories/entries/history?id=${memoryId}`);
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /segment_id/);
    });

    test('pre-translation takes the match panel’s first, and the panel says why it ranks first', async () => {
      const { memoryId, projectId } = await project('Agree', { multiple_translations: true });
      const FLOW2 = 'Save.\n\nClick OK.\n\nOpen it.\n\nClose it.\n';
      const first = await api.uploadDocument(projectId, 'first.txt', FLOW2);
      const [, click] = await segmentsOf(first);
      await confirm(click.id, 'Klicken Sie auf OK.');
      // Entries added by hand have no context: a newer exact one of "Click OK." loses to the context match.
      for (const [source, text] of [
        ['Save.', 'Speichern.'],
        ['Save.', 'Sichern.'],
        ['Click OK.', 'OK klicken.'],
        ['Open it!', 'Öffne es!'],
      ]) {
        const res = await api.post('/v2/segments', { memory_id: memoryId, source, target: text });
        assert.equal(res.statusCode, 200, res.body);
      }
      const second = await api.uploadDocument(projectId, 'second.txt', FLOW2);
      const res = await api.post('/v2/documents/pretranslate', { id: [second] });
      assert.equal(res.statusCode, 202, res.body);
      for (let i = 0; i < 2000; i++) {
        const doc = (await api.get(`/v2/documents?id=${second}`)).json();
        if (doc.status.pretranslation === 'idle') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const reasons: [string, string | null, string | null][] = [];
      for (const segment of await segmentsOf(second)) {
        const answer = await api.get(
          `/v2/memories/query?id=${memoryId}&query=${encodeURIComponent(segment.source)}&segment_id=${segment.id}`,
        );
        const [best] = answer.json() as {
          target: string;
          metadata: { ranked_first: { reason: string; of: number } | null };
        }[];
        assert.equal(
          segment.target,
          best?.target ?? null,
          `${segment.source}: pre-translation and query agree`,
        );
        const why = best?.metadata.ranked_first;
        reasons.push([segment.source, why ? why.reason : null, why ? String(why.of) : null]);
      }
      assert.deepEqual(reasons, [
        // Added in the same second or not, the order is the ranking's, and it says so.
        ['Save.', reasons[0][1] === 'newest' ? 'newest' : 'first_stored', '2'],
        ['Click OK.', 'context', '1'],
        ['Open it.', 'only', '1'],
        ['Close it.', null, null],
      ]);
    });

    test('an import of a file of another language pair says why its units were skipped', async () => {
      const { memoryId } = await project('Wrong language');
      const tu = (n: number) =>
        `<tu><tuv xml:lang="en-US"><seg>Line ${n}</seg></tuv><tuv xml:lang="fr-FR"><seg>Ligne ${n}</seg></tuv></tu>`;
      const units = Array.from({ length: 1200 }, (_, n) => tu(n)).join('');
      const tmx = `<?xml version="1.0"?><tmx version="1.4"><header srclang="en-US" adminlang="en" segtype="sentence" datatype="plaintext" o-tmf="x" creationtool="x" creationtoolversion="1"/><body>${units}</body></tmx>`;
      const res = await api.upload('/v2/memories/import', tmx, {
        'lilt-api': JSON.stringify({ memory_id: memoryId, name: 'french.tmx' }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const task = await api.waitForTask(res.json().task_id);
      assert.equal(task.state, 'succeeded', JSON.stringify(task));
      assert.deepEqual(task.result, {
        imported: 0,
        skipped: 1200,
        duplicates: 0,
        skipped_why: '1,200 units had no variant in de; the languages they have: en-US, fr-FR',
        skipped_languages: ['en-US', 'fr-FR'],
      });
    });
  });
}
