// Fuzzy-match repair through the HTTP API on every store, with the live Apertium engine (en→es):
// GET /v2/translate/repairs answers a 75–99 % match with the differing words patched by MT, the changed
// words marked and the tags where the match had them; the raw match stays the memory's; what cannot be
// anchored is not offered; a difference the engine renders otherwise than the translator is located by the
// memory's learned word alignments once its lexicon is trained; bad input, other organizations and engines
// that are absent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Apertium, startApertium } from './helpers/apertium.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

interface RepairList {
  provider: string | null;
  unavailable: string | null;
  repairs: {
    score: number;
    match_source: string;
    match_target: string;
    target: string;
    changes: { start: number; end: number }[];
    differences: number;
    patched: number;
    aligned: number;
  }[];
}

const apertium: Apertium | null = await startApertium();
after(() => apertium?.stop());

/** A fresh context on the store (with Apertium when `engine`), and an en→es memory holding these pairs. */
async function memoryWith(
  target: Awaited<ReturnType<typeof storeTargets>>[number],
  engine: boolean,
  pairs: [string, string][],
) {
  const ctx = await createContext(target, engine ? { TESSERA_MT_APERTIUM_URL: apertium!.url } : {});
  const api = client(ctx.app, ctx.adminKey);
  const memoryId = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json()
    .id;
  for (const [source, translation] of pairs) {
    const added = await api.post('/v2/segments', { memory_id: memoryId, source, target: translation });
    assert.equal(added.statusCode, 200, added.body);
  }
  return { ctx, api, memoryId: memoryId as number };
}

const repairsOf = (api: ReturnType<typeof client>, memoryId: number, source: string) =>
  api.get(`/v2/translate/repairs?memory_id=${memoryId}&source=${encodeURIComponent(source)}`);

for (const target of await storeTargets()) {
  describe(`fuzzy-match repair with Apertium on ${target.name}`, { skip: apertium === null }, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let memoryId: number;
    before(async () => {
      ({ ctx, api, memoryId } = await memoryWith(target, true, [
        ['The red house is <g id="1">big</g>.', 'La casa roja es <g id="1">grande</g>.'],
        ['The dog eats its food every day.', 'El can come su comida cada día.'],
        ['The house is empty.', 'La casa está vacía.'],
        ['The house is empty.', 'La casa está vacía.'],
      ]));
    });
    after(() => ctx.close());

    test('the differing word is translated in its context, located in the match and patched; tags stay', async () => {
      const res = await repairsOf(api, memoryId, 'The blue house is <g id="1">big</g>.');
      assert.equal(res.statusCode, 200, res.body);
      const list = res.json() as RepairList;
      assert.equal(list.provider, 'apertium');
      assert.equal(list.unavailable, null);
      assert.equal(list.repairs.length, 1, res.body);
      const [r] = list.repairs;
      assert.equal(r.score, 80);
      assert.equal(r.match_target, 'La casa roja es <g id="1">grande</g>.');
      assert.equal(r.target, 'La casa azul es <g id="1">grande</g>.');
      assert.deepEqual(
        r.changes.map((c) => r.target.slice(c.start, c.end)),
        ['azul'],
      );
      assert.deepEqual([r.differences, r.patched, r.aligned], [1, 1, 0]);
      // The raw match is still the memory's answer, unrepaired.
      const raw = await api.get(
        `/v2/memories/query?id=${memoryId}&query=${encodeURIComponent('The blue house is <g id="1">big</g>.')}`,
      );
      assert.equal(raw.json()[0].target, 'La casa roja es <g id="1">grande</g>.');
    });

    test('the edges are carried over without MT: a 99 % match differing in its full stop', async () => {
      const list = (await repairsOf(api, memoryId, 'The house is empty')).json() as RepairList;
      assert.equal(list.repairs[0]?.score, 99, JSON.stringify(list));
      assert.equal(list.repairs[0]?.target, 'La casa está vacía');
    });

    test('bad input names the parameter; another organization’s memory is a 404', async () => {
      const missing = await api.get(`/v2/translate/repairs?memory_id=${memoryId}`);
      assert.equal(missing.statusCode, 400);
      assert.match(missing.body, /source/);
      const blank = await repairsOf(api, memoryId, '   ');
      assert.equal(blank.statusCode, 400);
      assert.match(blank.json().message, /"source"/);
      const badId = await api.get('/v2/translate/repairs?memory_id=x&source=Hi');
      assert.equal(badId.statusCode, 400);
      assert.match(badId.body, /memory_id/);
      const badN = await api.get(`/v2/translate/repairs?memory_id=${memoryId}&source=Hi&n=0`);
      assert.equal(badN.statusCode, 400);
      assert.match(badN.body, /n/);
      assert.equal((await repairsOf(api, 999_999, 'Hi')).statusCode, 404);
      const rival = client(
        ctx.app,
        await userKey(ctx, {
          username: 'rival',
          password: 'rival pass 1234',
          role: 'admin',
          organization: 'rival',
        }),
      );
      assert.equal((await repairsOf(rival, memoryId, 'The blue house is big.')).statusCode, 404);
      const translator = client(
        ctx.app,
        await userKey(ctx, { username: 'tina', password: 'tina pass 12345', role: 'translator' }),
      );
      assert.equal(
        (await repairsOf(translator, memoryId, 'The blue house is <g id="1">big</g>.')).statusCode,
        200,
      );
    });
  });
}

for (const target of await storeTargets()) {
  describe(`fuzzy-match repair located by the memory's word alignments on ${target.name}`, {
    skip: apertium === null,
  }, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let memoryId: number;
    before(async () => {
      // "dog" is "perro" to the engine; this translator writes "can", always.
      ({ ctx, api, memoryId } = await memoryWith(target, true, [
        ['The dog eats its food every day.', 'El can come su comida cada día.'],
        ['The dog eats.', 'El can come.'],
        ['The dog sleeps.', 'El can duerme.'],
        ['The dog is here.', 'El can está aquí.'],
        ['My dog runs.', 'Mi can corre.'],
        ['The child eats.', 'El niño come.'],
      ]));
    });
    after(() => ctx.close());

    test('MT alone cannot locate "dog" in the target; the learned alignments can, once trained', async () => {
      const source = 'The cat eats its food every day.';
      // The first question starts the memory's lexicon training: until it is trained, MT alone locates,
      // and the engine's "perro" is nowhere in "El can come su comida cada día.".
      const first = (await repairsOf(api, memoryId, source)).json() as RepairList;
      assert.equal(first.provider, 'apertium');
      assert.deepEqual(first.repairs, [], JSON.stringify(first));
      let list = first;
      for (let i = 0; i < 600 && list.repairs.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
        list = (await repairsOf(api, memoryId, source)).json() as RepairList;
      }
      const r = list.repairs.find((x) => x.match_source === 'The dog eats its food every day.');
      assert.ok(r, JSON.stringify(list));
      assert.equal(r.match_target, 'El can come su comida cada día.');
      assert.equal(r.target, 'El gato come su comida cada día.');
      assert.deepEqual(
        r.changes.map((c) => r.target.slice(c.start, c.end)),
        ['gato'],
      );
      assert.deepEqual([r.differences, r.patched, r.aligned], [1, 1, 1]);
      // The raw match is still the memory's answer, unrepaired.
      const raw = await api.get(`/v2/memories/query?id=${memoryId}&query=${encodeURIComponent(source)}`);
      assert.equal(raw.json()[0].target, 'El can come su comida cada día.');
    });
  });
}

for (const target of await storeTargets()) {
  describe(`fuzzy-match repair without an engine on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let memoryId: number;
    before(async () => {
      ({ ctx, api, memoryId } = await memoryWith(target, false, [
        ['Delete 3 files from the red house.', 'Borrar 3 archivos de la casa roja.'],
      ]));
    });
    after(() => ctx.close());

    test('words are not repaired and the answer says why; numbers still are', async () => {
      const words = (
        await repairsOf(api, memoryId, 'Delete 3 files from the blue house.')
      ).json() as RepairList;
      assert.equal(words.provider, null);
      assert.match(words.unavailable ?? '', /no machine translation engine/);
      assert.deepEqual(words.repairs, []);
      const numbers = (
        await repairsOf(api, memoryId, 'Delete 12 files from the red house.')
      ).json() as RepairList;
      assert.equal(
        numbers.repairs[0]?.target,
        'Borrar 12 archivos de la casa roja.',
        JSON.stringify(numbers),
      );
    });
  });
}
