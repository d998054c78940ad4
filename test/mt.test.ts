// Machine translation through the HTTP API on every store: Lilt's POST /v2/translate with the live Apertium
// engine (en→es) — memory matches first, then MT with the source's tags restored — the cache and the usage
// counters, and, against a loopback server speaking APy's protocol, what a failing engine does: a result
// whose tags cannot be restored is dropped, 5xx and 429 are retried and then pause the engine, refused
// credentials are not retried.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Apertium, type FakeApy, startApertium, startFakeApy } from './helpers/apertium.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

interface Translation {
  target: string;
  targetWithTags: string;
  score: number;
  isTMMatch: boolean;
  targetWords: string[];
  targetDelimiters: string[];
}

const apertium: Apertium | null = await startApertium();
after(() => apertium?.stop());

for (const target of await storeTargets()) {
  describe(`machine translation with Apertium on ${target.name}`, { skip: apertium === null }, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let memoryId: number;
    before(async () => {
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: apertium!.url });
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json().id;
      const added = await api.post('/v2/segments', {
        memory_id: memoryId,
        source: 'The red house is big.',
        target: 'La casa roja es grande.',
      });
      assert.equal(added.statusCode, 200, added.body);
    });
    after(() => ctx.close());

    test('memory matches come first, then Apertium’s translation with the source’s tags put back', async () => {
      const res = await api.post('/v2/translate', {
        memory_id: memoryId,
        source: 'The <g id="1">red</g> house is small.',
        n: 3,
      });
      assert.equal(res.statusCode, 200, res.body);
      const list = res.json() as {
        untokenizedSource: string;
        tokenizedSource: string;
        translation: Translation[];
      };
      assert.equal(list.untokenizedSource, 'The red house is small.');
      assert.equal(list.tokenizedSource, 'The red house is small .');
      assert.equal(list.translation.length, 2, res.body);
      const [tm, mt] = list.translation;
      assert.equal(tm.isTMMatch, true);
      assert.equal(tm.target, 'La casa roja es grande.');
      assert.ok(tm.score >= 75 && tm.score < 100, `a fuzzy match: ${tm.score}`);
      assert.equal(mt.isTMMatch, false);
      // Apertium moves the pair with the word it wraps; what matters is that it comes back whole.
      assert.match(mt.targetWithTags, /^La .*<g id="1">\p{L}+<\/g>.* pequeña\.$/u);
      assert.equal(mt.target, mt.targetWithTags.replace(/<[^>]+>/g, ''));
      assert.match(mt.target, /casa/);
      assert.equal(mt.targetDelimiters.length, mt.targetWords.length + 1);
      assert.equal(mt.targetWords.join(''), mt.target.replace(/\s/g, ''));
    });

    test('placeholders survive: masked for the engine, given back as they were', async () => {
      const res = await api.post('/v2/translate', {
        memory_id: memoryId,
        source: 'You have %s new messages from {user}.',
        tm_matches: false,
      });
      assert.equal(res.statusCode, 200, res.body);
      const [mt] = res.json().translation as Translation[];
      assert.equal(mt.isTMMatch, false);
      assert.match(mt.targetWithTags, /%s/);
      assert.match(mt.targetWithTags, /\{user\}/);
      assert.match(mt.targetWithTags, /mensajes/);
    });

    test('the editor’s suggestion: the engine named, the tags restored; without a pair, why not', async () => {
      const res = await api.get(
        `/v2/translate/suggestion?memory_id=${memoryId}&source=${encodeURIComponent('Open <x id="1"/> the door.')}`,
      );
      assert.equal(res.statusCode, 200, res.body);
      const suggestion = res.json();
      assert.equal(suggestion.provider, 'apertium');
      assert.equal(suggestion.unavailable, null);
      assert.match(suggestion.target, /<x id="1"\/>/);
      assert.match(suggestion.target, /puerta/);
      const deFr = (await api.post('/v2/memories', { name: 'de-fr', srclang: 'de', trglang: 'fr' })).json();
      const none = (await api.get(`/v2/translate/suggestion?memory_id=${deFr.id}&source=Hallo`)).json();
      assert.deepEqual([none.provider, none.target], [null, null]);
      assert.match(none.unavailable, /no de→fr pair/);
    });

    test('a repeated text is answered from the cache, and the organization’s characters are counted', async () => {
      const before = (await api.get('/v2/translate/usage')).json().usage as {
        provider: string;
        characters: number;
        cached_characters: number;
      }[];
      const was = before.find((u) => u.provider === 'apertium')!;
      assert.ok(was.characters > 0);
      const source = 'The garden is green.';
      const first = await api.post('/v2/translate', { memory_id: memoryId, source, tm_matches: false });
      const second = await api.post('/v2/translate', { memory_id: memoryId, source, tm_matches: false });
      assert.equal(second.json().translation[0].target, first.json().translation[0].target);
      const now = (await api.get('/v2/translate/usage'))
        .json()
        .usage.find((u: { provider: string }) => u.provider === 'apertium');
      assert.equal(now.characters, was.characters + source.length, 'sent once');
      assert.equal(
        now.cached_characters,
        was.cached_characters + source.length,
        'answered once from the cache',
      );
    });

    test('bad input names the parameter; another organization’s memory is a 404; roles', async () => {
      const missing = await api.post('/v2/translate', { memory_id: memoryId });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.body, /source/);
      const blank = await api.post('/v2/translate', { memory_id: memoryId, source: '  ' });
      assert.equal(blank.statusCode, 400);
      assert.match(blank.json().message, /"source"/);
      const tooLong = await api.post('/v2/translate', { memory_id: memoryId, source: 'a'.repeat(5001) });
      assert.equal(tooLong.statusCode, 400);
      assert.match(tooLong.body, /source/);
      assert.equal((await api.post('/v2/translate', { memory_id: 999_999, source: 'Hi.' })).statusCode, 404);
      const rival = client(
        ctx.app,
        await userKey(ctx, {
          username: 'rival',
          password: 'rival pass 1234',
          role: 'admin',
          organization: 'rival',
        }),
      );
      const foreign = await rival.post('/v2/translate', { memory_id: memoryId, source: 'Hi.' });
      assert.equal(foreign.statusCode, 404);
      assert.deepEqual((await rival.get('/v2/translate/usage')).json().usage, [], 'counted per organization');
      const translator = client(
        ctx.app,
        await userKey(ctx, { username: 'tina', password: 'tina pass 12345', role: 'translator' }),
      );
      assert.equal((await translator.get('/v2/translate/usage')).statusCode, 403);
    });
  });
}

for (const target of await storeTargets()) {
  describe(`a failing machine translation engine on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let fake: FakeApy;
    let memoryId: number;
    const translate = (source: string) =>
      api.post('/v2/translate', { memory_id: memoryId, source, tm_matches: false });
    before(async () => {
      fake = await startFakeApy();
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: fake.url, TESSERA_MT_CACHE_DAYS: '0' });
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json().id;
    });
    after(async () => {
      await ctx.close();
      await fake.close();
    });

    test('the engine is sent masked text, and an answer whose tags cannot be restored is dropped', async () => {
      fake.answer = { status: 200, translate: (q) => q.replace('<x2/>', '') };
      const res = await translate('Hello <g id="1">you</g> {name}');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(fake.requests, ['Hello <g1>you</g1> <x2/>']);
      assert.deepEqual(res.json().translation, [], 'dropped, never shown broken');
      fake.answer = { status: 200, translate: (q) => q.replace('Hello', 'Hola') };
      const good = (await translate('Hello <g id="1">you</g> {name}')).json().translation;
      assert.equal(good[0].targetWithTags, 'Hola <g id="1">you</g> {name}');
    });

    test('refused credentials are not retried; the engine is then paused', async () => {
      fake.requests.length = 0;
      fake.answer = { status: 401, translate: (q) => q };
      assert.deepEqual((await translate('One.')).json().translation, []);
      assert.equal(fake.requests.length, 1);
      fake.answer = { status: 200, translate: (q) => q };
      assert.deepEqual((await translate('Two.')).json().translation, [], 'paused: not asked');
      assert.equal(fake.requests.length, 1);
    });
  });

  describe(`a server error of the engine on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let fake: FakeApy;
    let memoryId: number;
    before(async () => {
      fake = await startFakeApy();
      ctx = await createContext(target, { TESSERA_MT_APERTIUM_URL: fake.url });
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json().id;
    });
    after(async () => {
      await ctx.close();
      await fake.close();
    });

    test('a 5xx is tried three times in all, then the engine is paused; memory matches still answer', async () => {
      await api.post('/v2/segments', {
        memory_id: memoryId,
        source: 'Good morning.',
        target: 'Buenos días.',
      });
      fake.answer = { status: 503, translate: (q) => q };
      const res = await api.post('/v2/translate', { memory_id: memoryId, source: 'Good morning!' });
      assert.equal(res.statusCode, 200, res.body);
      const list = res.json().translation as Translation[];
      assert.deepEqual(
        list.map((t) => [t.isTMMatch, t.target]),
        [[true, 'Buenos días.']],
      );
      assert.equal(fake.requests.length, 3);
      fake.answer = { status: 200, translate: (q) => q };
      await api.post('/v2/translate', { memory_id: memoryId, source: 'Good evening!' });
      assert.equal(fake.requests.length, 3, 'paused: not asked');
    });
  });
}
