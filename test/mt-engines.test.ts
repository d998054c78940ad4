// An organization's machine translation engines through the HTTP API on every store: adding, changing,
// ordering, testing and removing them; secrets stored sealed and never answered or logged; another
// organization's engine a 404; admins only; POST /v2/translate asking the organization's engines in order
// before the operator's default, and only for that organization; the monthly limits; a paused engine's
// reason; the Prometheus metrics moving. The engines are loopback servers speaking APy's protocol. Secrets
// are checked on the first registered kind that has a secret field (Apertium has none); the sealing itself
// is also tested without one in src/modules/mt/secret-box.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KINDS, type ProviderKindInfo } from '../src/modules/mt/providers/registry.ts';
import { type FakeApy, startFakeApy } from './helpers/apertium.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

interface EngineAnswer {
  id: number;
  kind: string;
  label: string;
  position: number;
  enabled: boolean;
  settings: Record<string, string>;
  secrets_set: string[];
  monthly_limit: number | null;
  used_this_month: number;
  paused: string | null;
  broken: string | null;
}

/**
 * A registered kind with a secret field; while none is registered (Apertium has none), Apertium with a secret
 * `key` field added for this test process only — Apertium ignores it, and the path it takes through the API,
 * the store and the logs is the same as a real key's.
 */
function keyedKind(): { kind: ProviderKindInfo; restore: () => void } {
  const real = Object.values(KINDS).find((k) => k.fields.some((f) => f.secret));
  if (real) return { kind: real, restore: () => {} };
  const fields = KINDS.apertium.fields;
  fields.push({ name: 'key', label: 'API key', help: 'A test key', required: false, secret: true });
  return { kind: KINDS.apertium, restore: () => void fields.pop() };
}

for (const target of await storeTargets()) {
  describe(`an organization's machine translation engines on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let rival: ReturnType<typeof client>;
    let first: FakeApy;
    let second: FakeApy;
    let operator: FakeApy;
    let memoryId: number;
    let rivalMemoryId: number;
    const translate = (as: ReturnType<typeof client>, memory: number, source: string) =>
      as.post('/v2/translate', { memory_id: memory, source, tm_matches: false });

    before(async () => {
      first = await startFakeApy();
      second = await startFakeApy();
      operator = await startFakeApy();
      first.answer = { status: 200, translate: (q) => `first: ${q}` };
      second.answer = { status: 200, translate: (q) => `second: ${q}` };
      operator.answer = { status: 200, translate: (q) => `operator: ${q}` };
      ctx = await createContext(target, {
        TESSERA_MT_APERTIUM_URL: operator.url,
        TESSERA_MT_CACHE_DAYS: '0',
      });
      api = client(ctx.app, ctx.adminKey);
      rival = client(
        ctx.app,
        await userKey(ctx, {
          username: 'rival',
          password: 'rival pass 1234',
          role: 'admin',
          organization: 'rival',
        }),
      );
      memoryId = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json().id;
      rivalMemoryId = (
        await rival.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })
      ).json().id;
    });
    after(async () => {
      await ctx.close();
      await Promise.all([first.close(), second.close(), operator.close()]);
    });

    test('without engines of its own, the operator default translates; the list shows it read-only with the kinds', async () => {
      const list = (await api.get('/v2/translate/engines')).json();
      assert.deepEqual(list.engines, []);
      assert.deepEqual(list.defaults, [{ kind: 'apertium', label: 'apertium', paused: null }]);
      const apertium = list.kinds.find((k: { kind: string }) => k.kind === 'apertium');
      assert.deepEqual(
        apertium.fields.map((f: { name: string; required: boolean; secret: boolean }) => [
          f.name,
          f.required,
          f.secret,
        ]),
        [['url', true, false]],
      );
      assert.equal(list.limit.monthly_limit, null);
      assert.match(list.limit.month, /^\d{4}-\d{2}$/);
      const res = await translate(api, memoryId, 'Hello.');
      assert.equal(res.json().translation[0].target, 'operator: Hello.');
    });

    test('added engines are asked in order before the default, and for their organization only', async () => {
      const a = await api.post('/v2/translate/engines', {
        kind: 'apertium',
        label: 'First APy',
        settings: { url: first.url },
      });
      assert.equal(a.statusCode, 201, a.body);
      const engineA = a.json() as EngineAnswer;
      assert.deepEqual(
        [
          engineA.kind,
          engineA.label,
          engineA.position,
          engineA.enabled,
          engineA.settings,
          engineA.secrets_set,
        ],
        ['apertium', 'First APy', 1, true, { url: first.url }, []],
      );
      const b = (
        await api.post('/v2/translate/engines', { kind: 'apertium', settings: { url: second.url } })
      ).json();
      assert.equal(b.label, 'Apertium', 'the kind’s name when no label is given');
      assert.equal(b.position, 2);

      const res = await translate(api, memoryId, 'Good morning.');
      assert.equal(res.json().translation[0].target, 'first: Good morning.');
      const suggestion = (
        await api.get(
          `/v2/translate/suggestion?memory_id=${memoryId}&source=${encodeURIComponent('Hi there.')}`,
        )
      ).json();
      assert.deepEqual([suggestion.provider, suggestion.target], ['First APy', 'first: Hi there.']);
      // Another organization still has the operator's default only.
      assert.equal(
        (await translate(rival, rivalMemoryId, 'Good morning.')).json().translation[0].target,
        'operator: Good morning.',
      );

      // Reordered: the second is asked first.
      const ordered = await api.put('/v2/translate/engines/order', { ids: [b.id, engineA.id] });
      assert.equal(ordered.statusCode, 200, ordered.body);
      assert.deepEqual(
        ordered.json().engines.map((e: EngineAnswer) => [e.id, e.position]),
        [
          [b.id, 1],
          [engineA.id, 2],
        ],
      );
      assert.equal(
        (await translate(api, memoryId, 'Good night.')).json().translation[0].target,
        'second: Good night.',
      );

      // Disabled: passed over; the next one answers.
      const disabled = await api.put(`/v2/translate/engines/${b.id}`, { enabled: false });
      assert.equal(disabled.json().enabled, false);
      assert.equal(
        (await translate(api, memoryId, 'Good day.')).json().translation[0].target,
        'first: Good day.',
      );

      // A failing engine: the next one (here the operator default) answers.
      await api.put(`/v2/translate/engines/${engineA.id}`, { settings: { url: 'http://127.0.0.1:9' } });
      assert.equal(
        (await translate(api, memoryId, 'Good evening.')).json().translation[0].target,
        'operator: Good evening.',
      );
      const paused = (await api.get('/v2/translate/engines'))
        .json()
        .engines.find((e: EngineAnswer) => e.id === engineA.id);
      assert.match(paused.paused, /^First APy is paused for \d+ s after a server failure$/);
      const why = (await api.get(`/v2/translate/suggestion?memory_id=${memoryId}&source=Bye.`)).json();
      assert.equal(why.provider, 'apertium', 'the default answers while the engine is paused');

      // The address fixed: a new version of the row, not paused, asked again.
      await api.put(`/v2/translate/engines/${engineA.id}`, { settings: { url: first.url } });
      assert.equal(
        (await translate(api, memoryId, 'Good evening!')).json().translation[0].target,
        'first: Good evening!',
      );

      // Removed: gone for good.
      for (const id of [engineA.id, b.id]) {
        const gone = await api.delete(`/v2/translate/engines/${id}`);
        assert.deepEqual(gone.json(), { id, deleted: true });
      }
      assert.equal((await api.delete(`/v2/translate/engines/${engineA.id}`)).statusCode, 404);
      assert.deepEqual((await api.get('/v2/translate/engines')).json().engines, []);
    });

    test('an engine without the pair is passed over without a call and without a pause', async () => {
      const deFr = (await api.post('/v2/memories', { name: 'de-fr', srclang: 'de', trglang: 'fr' })).json()
        .id;
      const made = (
        await api.post('/v2/translate/engines', { kind: 'apertium', settings: { url: first.url } })
      ).json();
      first.requests.length = 0;
      const none = (await api.get(`/v2/translate/suggestion?memory_id=${deFr}&source=Hallo`)).json();
      assert.equal(none.target, null);
      assert.match(none.unavailable, /Apertium has no de→fr pair/);
      assert.deepEqual(first.requests, []);
      const listed = (await api.get('/v2/translate/engines')).json().engines[0];
      assert.equal(listed.paused, null);
      await api.delete(`/v2/translate/engines/${made.id}`);
    });

    test('testing an engine lists its pairs and translates a sample; a failing one says why', async () => {
      const good = (
        await api.post('/v2/translate/engines', { kind: 'apertium', settings: { url: second.url } })
      ).json();
      const res = await api.post(`/v2/translate/engines/${good.id}/test`, {});
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      assert.equal(answer.ok, true);
      assert.equal(answer.pairs, 1);
      assert.deepEqual(answer.sample, {
        source_lang: 'en',
        target_lang: 'es',
        source: 'The house is small.',
        translation: 'second: The house is small.',
      });
      assert.equal(answer.error, null);
      const bad = (
        await api.post('/v2/translate/engines', { kind: 'apertium', settings: { url: 'http://127.0.0.1:9' } })
      ).json();
      const failed = (await api.post(`/v2/translate/engines/${bad.id}/test`, {})).json();
      assert.equal(failed.ok, false);
      assert.match(failed.error, /Apertium did not answer/);
      for (const id of [good.id, bad.id]) await api.delete(`/v2/translate/engines/${id}`);
    });

    test('bad input names the parameter', async () => {
      const unknown = await api.post('/v2/translate/engines', { kind: 'babelfish', settings: {} });
      assert.equal(unknown.statusCode, 400);
      assert.match(unknown.json().message, /Parameter "kind" must be one of apertium/);
      const missing = await api.post('/v2/translate/engines', { kind: 'apertium', settings: {} });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /Parameter "settings.url" is required for Apertium/);
      const notUrl = await api.post('/v2/translate/engines', {
        kind: 'apertium',
        settings: { url: 'ftp://x' },
      });
      assert.equal(notUrl.statusCode, 400);
      assert.match(notUrl.json().message, /"settings.url" must be an http/);
      const extra = await api.post('/v2/translate/engines', {
        kind: 'apertium',
        settings: { url: first.url, colour: 'red' },
      });
      assert.equal(extra.statusCode, 400);
      assert.match(extra.json().message, /"settings.colour" is not a field of Apertium/);
      const noKind = await api.post('/v2/translate/engines', { settings: {} });
      assert.equal(noKind.statusCode, 400);
      assert.match(noKind.body, /kind/);
      const negative = await api.put('/v2/translate/limit', { monthly_limit: -1 });
      assert.equal(negative.statusCode, 400);
      assert.match(negative.body, /monthly_limit/);
      const made = (
        await api.post('/v2/translate/engines', { kind: 'apertium', settings: { url: first.url } })
      ).json();
      const cleared = await api.put(`/v2/translate/engines/${made.id}`, { settings: { url: '' } });
      assert.equal(cleared.statusCode, 400);
      assert.match(cleared.json().message, /"settings.url" is required/);
      const partial = await api.put('/v2/translate/engines/order', { ids: [] });
      assert.equal(partial.statusCode, 400);
      assert.match(partial.json().message, /Parameter "ids" must name every engine/);
      await api.delete(`/v2/translate/engines/${made.id}`);
    });

    test('another organization’s engine is a 404 everywhere; translators and managers are refused', async () => {
      const mine = (
        await api.post('/v2/translate/engines', { kind: 'apertium', settings: { url: first.url } })
      ).json();
      assert.equal((await rival.put(`/v2/translate/engines/${mine.id}`, { enabled: false })).statusCode, 404);
      assert.equal((await rival.delete(`/v2/translate/engines/${mine.id}`)).statusCode, 404);
      assert.equal((await rival.post(`/v2/translate/engines/${mine.id}/test`, {})).statusCode, 404);
      assert.equal((await rival.put('/v2/translate/engines/order', { ids: [mine.id] })).statusCode, 404);
      assert.deepEqual((await rival.get('/v2/translate/engines')).json().engines, []);
      for (const role of ['translator', 'project_manager'] as const) {
        const as = client(
          ctx.app,
          await userKey(ctx, { username: `u-${role}`, password: 'some pass 12345', role }),
        );
        assert.equal((await as.get('/v2/translate/engines')).statusCode, 403, role);
        assert.equal(
          (await as.post('/v2/translate/engines', { kind: 'apertium', settings: { url: first.url } }))
            .statusCode,
          403,
          role,
        );
        assert.equal((await as.delete(`/v2/translate/engines/${mine.id}`)).statusCode, 403, role);
      }
      assert.equal((await api.get('/v2/translate/engines')).json().engines.length, 1, 'still there');
      await api.delete(`/v2/translate/engines/${mine.id}`);
    });

    test('the monthly limits: the organization’s stops MT with its reason; an engine’s passes to the next', async () => {
      const own = (
        await api.post('/v2/translate/engines', { kind: 'apertium', settings: { url: first.url } })
      ).json();
      const before = (await api.get('/v2/translate/engines')).json().limit.used_this_month as number;
      // The engine's own limit: nothing more may go to it this month, so the default answers.
      const limited = await api.put(`/v2/translate/engines/${own.id}`, { monthly_limit: 0 });
      assert.equal(limited.json().monthly_limit, 0);
      assert.equal(
        (await translate(api, memoryId, 'One two.')).json().translation[0].target,
        'operator: One two.',
      );
      const why = (await api.get(`/v2/translate/suggestion?memory_id=${memoryId}&source=Three.`)).json();
      assert.equal(why.provider, 'apertium');
      await api.put(`/v2/translate/engines/${own.id}`, { monthly_limit: null });

      // The organization's limit: what was sent this month plus the text must fit.
      const used = (await api.get('/v2/translate/engines')).json().limit.used_this_month as number;
      assert.equal(used, before + 'One two.'.length + 'Three.'.length);
      const set = await api.put('/v2/translate/limit', { monthly_limit: used + 5 });
      assert.deepEqual(set.json().monthly_limit, used + 5);
      assert.equal((await translate(api, memoryId, 'Four.')).json().translation[0].target, 'first: Four.');
      const refused = (await api.get(`/v2/translate/suggestion?memory_id=${memoryId}&source=Fifth.`)).json();
      assert.equal(refused.target, null);
      assert.equal(
        refused.unavailable,
        `the organization's machine translation limit of ${used + 5} characters this month is reached (${used + 5} used)`,
      );
      // Another organization is not limited by it.
      assert.equal(
        (await translate(rival, rivalMemoryId, 'Fifth.')).json().translation[0].target,
        'operator: Fifth.',
      );
      const list = (await api.get('/v2/translate/engines')).json();
      assert.equal(list.limit.used_this_month, used + 5);
      assert.equal(
        list.usage.find((u: { engine_id: number }) => u.engine_id === own.id).characters,
        'Four.'.length,
      );
      await api.put('/v2/translate/limit', { monthly_limit: null });
      await api.delete(`/v2/translate/engines/${own.id}`);
    });

    test('the Prometheus metrics count calls by kind and outcome, characters, latency and pauses', async () => {
      const text = (await api.get('/metrics')).body;
      const value = (body: string, line: string) =>
        Number(
          body
            .split('\n')
            .find((l) => l.startsWith(line))
            ?.split(' ')
            .at(-1) ?? 0,
        );
      const okBefore = value(text, 'tessera_mt_requests_total{kind="apertium",outcome="ok"}');
      const sentBefore = value(text, 'tessera_mt_characters_total{kind="apertium",source="sent"}');
      const latencyBefore = value(text, 'tessera_mt_request_duration_seconds_count{kind="apertium"}');
      const pausesBefore = value(text, 'tessera_mt_pauses_total{kind="apertium",reason="server"}');
      await translate(api, memoryId, 'Metrics here.');
      const broken = (
        await api.post('/v2/translate/engines', { kind: 'apertium', settings: { url: 'http://127.0.0.1:9' } })
      ).json();
      await translate(api, memoryId, 'Metrics there.');
      const after = (await api.get('/metrics')).body;
      assert.equal(value(after, 'tessera_mt_requests_total{kind="apertium",outcome="ok"}'), okBefore + 2);
      assert.equal(
        value(after, 'tessera_mt_characters_total{kind="apertium",source="sent"}'),
        sentBefore + 'Metrics here.'.length + 'Metrics there.'.length,
      );
      assert.ok(
        value(after, 'tessera_mt_request_duration_seconds_count{kind="apertium"}') >= latencyBefore + 3,
      );
      assert.equal(
        value(after, 'tessera_mt_pauses_total{kind="apertium",reason="server"}'),
        pausesBefore + 1,
      );
      assert.ok(value(after, 'tessera_mt_requests_total{kind="apertium",outcome="failed"}') >= 1);
      await api.delete(`/v2/translate/engines/${broken.id}`);
    });

    test('a secret field is sealed at rest, answered only as set, kept when not resent, never logged', async () => {
      const { kind, restore } = keyedKind();
      try {
        const secretField = kind.fields.find((f) => f.secret)!;
        const secret = 'sk-test-0123456789-very-secret-value';
        const settings: Record<string, string> = {};
        for (const f of kind.fields)
          if (f.required || f.secret) settings[f.name] = f.secret ? secret : first.url;
        const made = await api.post('/v2/translate/engines', { kind: kind.kind, label: 'Keyed', settings });
        assert.equal(made.statusCode, 201, made.body);
        const id = made.json().id;
        assert.deepEqual(made.json().secrets_set, [secretField.name]);
        assert.equal(made.json().settings[secretField.name], undefined);
        assert.equal(made.json().broken, null);
        const changed = await api.put(`/v2/translate/engines/${id}`, {
          label: 'Renamed',
          settings: { [secretField.name]: '' },
        });
        assert.deepEqual(changed.json().secrets_set, [secretField.name], 'kept when not resent');
        assert.equal(changed.json().broken, null, 'still opens');
        const stored = await ctx.db.all<{ settings: string; secrets: string }>(
          'SELECT settings, secrets FROM mt_engines WHERE id = ?',
          [id],
        );
        assert.ok(!JSON.stringify(stored).includes(secret), 'sealed at rest');
        assert.match(stored[0].secrets, /^v1:/);
        // The engine is made from its opened settings and used (a real keyed kind cannot speak APy's protocol).
        const used = await translate(api, memoryId, 'Keyed text.');
        if (kind.kind === 'apertium') assert.equal(used.json().translation[0].target, 'first: Keyed text.');
        const tested = await api.post(`/v2/translate/engines/${id}/test`, {});
        const listed = await api.get('/v2/translate/engines');
        for (const res of [made, changed, tested, listed, used]) {
          assert.ok(!res.body.includes(secret), `answered: ${res.body.slice(0, 200)}`);
        }
        assert.ok(!ctx.logs().includes(secret), 'never logged');
        // Another organization's admin cannot reach it.
        assert.equal((await rival.post(`/v2/translate/engines/${id}/test`, {})).statusCode, 404);
        await api.delete(`/v2/translate/engines/${id}`);
      } finally {
        restore();
      }
    });
  });
}

for (const target of await storeTargets()) {
  describe(`an organization's only engine failing on ${target.name}`, () => {
    let ctx: TestContext;
    let api: ReturnType<typeof client>;
    let fake: FakeApy;
    let memoryId: number;
    before(async () => {
      fake = await startFakeApy();
      ctx = await createContext(target, { TESSERA_MT_CACHE_DAYS: '0' });
      api = client(ctx.app, ctx.adminKey);
      memoryId = (await api.post('/v2/memories', { name: 'en-es', srclang: 'en', trglang: 'es' })).json().id;
    });
    after(async () => {
      await ctx.close();
      await fake.close();
    });
    const suggestion = async (source: string) =>
      (
        await api.get(`/v2/translate/suggestion?memory_id=${memoryId}&source=${encodeURIComponent(source)}`)
      ).json();
    /** The reason counts the pause's 60 s down: a loaded machine can take a second between failure and question. */
    const pausedAfterFailure = (reason: string) => {
      const seconds = /^Ours is paused for (\d+) s after a server failure$/.exec(reason)?.[1];
      assert.ok(seconds !== undefined && Number(seconds) > 50 && Number(seconds) <= 60, reason);
    };

    test('without any engine MT is not configured; with one it is, and its failure and pause are the reason shown', async () => {
      const none = await suggestion('Hello.');
      assert.deepEqual(
        [none.configured, none.unavailable],
        [false, 'no machine translation engine is configured'],
      );
      const made = (
        await api.post('/v2/translate/engines', {
          kind: 'apertium',
          label: 'Ours',
          settings: { url: fake.url },
        })
      ).json();
      fake.answer = { status: 503, translate: (q) => q };
      const failed = await suggestion('Hello.');
      assert.equal(failed.configured, true);
      assert.equal(failed.unavailable, 'Ours: Apertium: server error (503)');
      const paused = await suggestion('Hello again.');
      pausedAfterFailure(paused.unavailable);
      const listed = (await api.get('/v2/translate/engines')).json().engines[0];
      pausedAfterFailure(listed.paused);
      // Another organization's engine on the same server is another engine: not paused with ours.
      const rival = client(
        ctx.app,
        await userKey(ctx, {
          username: 'other',
          password: 'other pass 1234',
          role: 'admin',
          organization: 'other',
        }),
      );
      const rivalMemory = (
        await rival.post('/v2/memories', { name: 'm', srclang: 'en', trglang: 'es' })
      ).json().id;
      await rival.post('/v2/translate/engines', {
        kind: 'apertium',
        label: 'Theirs',
        settings: { url: fake.url },
      });
      fake.answer = { status: 200, translate: (q) => `ok: ${q}` };
      const theirs = await rival.post('/v2/translate', {
        memory_id: rivalMemory,
        source: 'Hello.',
        tm_matches: false,
      });
      assert.equal(theirs.json().translation[0].target, 'ok: Hello.');
      assert.match((await suggestion('Hello.')).unavailable, /^Ours is paused/);
      // Disabled, the organization has no engine to ask.
      await api.put(`/v2/translate/engines/${made.id}`, { enabled: false });
      assert.equal((await suggestion('Hello.')).configured, false);
    });
  });
}
