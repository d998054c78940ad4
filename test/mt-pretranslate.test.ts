// Pre-translation modes tm+mt and mt through HTTP on every store, with the live Apertium engine (en→es): the
// memory above the threshold, else machine translation; MT never confirmed, without a score, its engine
// named on the segment and its version's origin `mt`; an edit clears the name. And with a failing engine
// (a loopback server answering 503): the memory's part is applied and the report says why MT did not run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Apertium, type FakeApy, startApertium, startFakeApy } from './helpers/apertium.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

interface DocSegment {
  id: number;
  source: string;
  target: string | null;
  is_confirmed: boolean;
  status: string;
  match_score: number | null;
  mt_provider: string | null;
}

const DOC = 'The red house is big.\n\nThe garden is green.\n\nYou have %s new messages.\n';

const apertium: Apertium | null = await startApertium();
after(() => apertium?.stop());

async function setUp(ctx: TestContext) {
  const api = client(ctx.app, ctx.adminKey);
  const memory = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json();
  await api.post('/v2/segments', {
    memory_id: memory.id,
    source: 'The red house is big.',
    target: 'La casa colorada es enorme.',
  });
  const projectId = (await api.post('/v2/projects', { name: 'web', memory_id: memory.id })).json()
    .id as number;
  const pretranslate = async (id: number, options: Record<string, unknown>) => {
    const res = await api.post('/v2/documents/pretranslate', { id: [id], ...options });
    assert.equal(res.statusCode, 202, res.body);
    const row = await ctx.db.get<{ id: number }>(
      "SELECT MAX(id) AS id FROM tasks WHERE document_id = ? AND type = 'pretranslate'",
      [id],
    );
    const task = await api.waitForTask(row!.id);
    assert.equal(task.state, 'succeeded', JSON.stringify(task));
    return { planned: res.json().modes, result: task.result };
  };
  const segmentsOf = async (id: number) =>
    (await api.get(`/v2/documents?id=${id}&with_segments=true`)).json().segments as DocSegment[];
  return { api, projectId, pretranslate, segmentsOf };
}

for (const target of await storeTargets()) {
  describe(`pre-translation with machine translation on ${target.name}`, { skip: apertium === null }, () => {
    let ctx: TestContext;
    let t: Awaited<ReturnType<typeof setUp>>;
    before(async () => {
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: apertium!.url });
      t = await setUp(ctx);
    });
    after(() => ctx.close());

    test('tm+mt: the memory’s match where there is one, Apertium elsewhere, never confirmed', async () => {
      const id = await t.api.uploadDocument(t.projectId, 'page.txt', DOC);
      const { planned, result } = await t.pretranslate(id, { mode: 'tm+mt', auto_accept: true });
      const report = { requested: 'tm+mt', ran: ['tm', 'mt'], not_available: [] };
      assert.deepEqual(planned, report);
      assert.deepEqual(result.modes, report);
      assert.equal(result.translated, 3);
      assert.equal(result.confirmed, 1);
      const [tm, garden, messages] = await t.segmentsOf(id);
      assert.deepEqual(
        [tm.target, tm.is_confirmed, tm.match_score, tm.mt_provider],
        ['La casa colorada es enorme.', true, 100, null],
      );
      assert.match(garden.target!, /jardín/);
      assert.deepEqual(
        [garden.is_confirmed, garden.status, garden.match_score, garden.mt_provider],
        [false, 'pretranslated', null, 'apertium'],
      );
      assert.match(messages.target!, /%s/, 'the placeholder survives');
      assert.equal(messages.mt_provider, 'apertium');

      const history = (await t.api.get(`/v2/segments/history?id=${garden.id}`)).json();
      assert.equal(history.versions[0].origin, 'mt');
      assert.equal(history.versions[0].target, garden.target);

      const edited = await t.api.put('/v2/segments', { id: garden.id, target: 'El jardín es verde.' });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.equal(edited.json().mt_provider, null, 'an edit makes it the translator’s');
    });

    test('mt: every open segment is machine-translated, the memory is not asked, nothing is confirmed', async () => {
      const id = await t.api.uploadDocument(t.projectId, 'mt-only.txt', DOC);
      const { result } = await t.pretranslate(id, { mode: 'mt', auto_accept: true });
      assert.deepEqual(result.modes, { requested: 'mt', ran: ['mt'], not_available: [] });
      assert.equal(result.confirmed, 0);
      const segments = await t.segmentsOf(id);
      assert.deepEqual(
        segments.map((s) => [s.is_confirmed, s.match_score, s.mt_provider]),
        [
          [false, null, 'apertium'],
          [false, null, 'apertium'],
          [false, null, 'apertium'],
        ],
      );
      assert.match(segments[0].target!, /casa/);
      assert.notEqual(segments[0].target, 'La casa colorada es enorme.', 'not the memory’s');
    });
  });

  describe(`pre-translation with a failing engine on ${target.name}`, () => {
    let ctx: TestContext;
    let fake: FakeApy;
    let t: Awaited<ReturnType<typeof setUp>>;
    before(async () => {
      fake = await startFakeApy();
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: fake.url });
      t = await setUp(ctx);
    });
    after(async () => {
      await ctx.close();
      await fake.close();
    });

    test('the memory’s matches are applied; the report says why MT did not run', async () => {
      fake.answer = { status: 503, translate: (q) => q };
      const id = await t.api.uploadDocument(t.projectId, 'page.txt', DOC);
      const { result } = await t.pretranslate(id, { mode: 'tm+mt' });
      assert.deepEqual(result.modes.ran, ['tm']);
      assert.equal(result.modes.not_available.length, 1);
      assert.match(result.modes.not_available[0].reason, /server error \(503\)/);
      assert.deepEqual(
        (await t.segmentsOf(id)).map((s) => [s.target, s.mt_provider]),
        [
          ['La casa colorada es enorme.', null],
          [null, null],
          [null, null],
        ],
      );
    });
  });

  describe(`pre-translation with an engine that loses a tag on ${target.name}`, () => {
    let ctx: TestContext;
    let fake: FakeApy;
    let t: Awaited<ReturnType<typeof setUp>>;
    before(async () => {
      fake = await startFakeApy();
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: fake.url });
      t = await setUp(ctx);
    });
    after(async () => {
      await ctx.close();
      await fake.close();
    });

    test('a translation whose placeholder cannot be restored leaves its segment open', async () => {
      fake.answer = { status: 200, translate: (q) => q.replace('<x1/>', '') };
      const id = await t.api.uploadDocument(t.projectId, 'tags.txt', 'Press %s now.\n\nThe sky is blue.\n');
      const { result } = await t.pretranslate(id, { mode: 'mt' });
      assert.deepEqual(result.modes, { requested: 'mt', ran: ['mt'], not_available: [] });
      assert.equal(result.translated, 1);
      const [press, sky] = await t.segmentsOf(id);
      assert.deepEqual(fake.requests, ['Press <x1/> now.', 'The sky is blue.']);
      assert.equal(press.target, null, 'dropped, never written broken');
      assert.equal(sky.target, 'The sky is blue.');
      assert.equal(sky.mt_provider, 'apertium');
    });
  });
}
