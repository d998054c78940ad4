// DeepL through its SDK against a loopback server answering as DeepL's API reference documents
// (POST /v2/translate, GET /v2/languages?type=source|target, `Authorization: DeepL-Auth-Key …`): the request
// as DeepL specifies it, the masking's markup sent with tag_handling=xml and kept, batches of at most 50,
// the languages' pairs, each failure's kind, and a tagged segment through the engine.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MtEngine } from '../src/modules/mt/engine.ts';
import { MtFailure } from '../src/modules/mt/provider.ts';
import { DeeplProvider, deeplTarget } from '../src/modules/mt/providers/deepl.ts';
import { createProvider } from '../src/modules/mt/providers/registry.ts';
import { maskForMt } from '../src/text/mt-masking.ts';
import {
  engineStore,
  type FakeEngine,
  type FakeRequest,
  fakeTranslation,
  startFakeEngine,
} from './helpers/mt-fakes.ts';

const KEY = 'deepl-test-key-0123:fx';
let fake: FakeEngine;
before(async () => {
  fake = await startFakeEngine();
});
after(() => fake.close());

const signal = () => AbortSignal.timeout(10_000);

/** DeepL's translate endpoint as its reference describes it; form or JSON bodies are both documented. */
function deeplTranslate(req: FakeRequest) {
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/v2/translate');
  assert.equal(req.headers.authorization, `DeepL-Auth-Key ${KEY}`);
  const body = req.form
    ? {
        text: req.form.getAll('text'),
        source_lang: req.form.get('source_lang'),
        target_lang: req.form.get('target_lang'),
        tag_handling: req.form.get('tag_handling'),
        formality: req.form.get('formality'),
      }
    : (req.json as Record<string, unknown> & { text: string[] });
  assert.ok(Array.isArray(body.text) && body.text.length >= 1 && body.text.length <= 50, 'at most 50 texts');
  assert.equal(body.tag_handling, 'xml');
  return {
    body: {
      translations: (body.text as string[]).map((t) => ({
        detected_source_language: String(body.source_lang),
        text: fakeTranslation(t),
      })),
    },
  };
}

function provider(extra: Record<string, string> = {}) {
  return new DeeplProvider({ key: KEY, serverUrl: fake.url, ...extra });
}

test('DeepL: the masked texts go to /v2/translate with the key, tag_handling=xml and DeepL’s codes; answers in order', async () => {
  fake.handler = deeplTranslate;
  fake.requests.length = 0;
  const texts = ['Hello <g1>world</g1>', 'A &amp; B <x1/> c'];
  const answers = await provider({ formality: 'more' }).translate(texts, 'en', 'pt-BR', signal());
  assert.deepEqual(answers, ['HELLO <g1>WORLD</g1>', 'A &amp; B <x1/> C']);
  assert.deepEqual(fake.problems, []);
  const [req] = fake.requests;
  assert.deepEqual(req.form?.getAll('text'), texts, 'the markup arrives as it was sent');
  assert.equal(req.form?.get('source_lang'), 'en');
  assert.equal(req.form?.get('target_lang'), 'pt-BR');
  assert.equal(req.form?.get('formality'), 'prefer_more');
});

test('DeepL: a batch over 50 texts is split into requests of at most 50, the answers kept in order', async () => {
  fake.handler = deeplTranslate;
  fake.requests.length = 0;
  const texts = Array.from({ length: 120 }, (_, i) => `text ${i}`);
  const answers = await provider().translate(texts, 'en', 'de', signal());
  assert.deepEqual(
    answers,
    texts.map((t) => t.toUpperCase()),
  );
  assert.deepEqual(
    fake.requests.map((r) => r.form?.getAll('text').length),
    [50, 50, 20],
  );
});

test('DeepL: targets get the variant DeepL needs', () => {
  assert.equal(deeplTarget('en'), 'en-US');
  assert.equal(deeplTarget('en-GB'), 'en-GB');
  assert.equal(deeplTarget('en-AU'), 'en-GB');
  assert.equal(deeplTarget('pt'), 'pt-PT');
  assert.equal(deeplTarget('pt-BR'), 'pt-BR');
  assert.equal(deeplTarget('zh'), 'zh-HANS');
  assert.equal(deeplTarget('zh-TW'), 'zh-HANT');
  assert.equal(deeplTarget('zh-Hant'), 'zh-HANT');
  assert.equal(deeplTarget('es-MX'), 'es-419');
  assert.equal(deeplTarget('de-AT'), 'de');
});

test('DeepL: languages come from /v2/languages, sources with targets', async () => {
  fake.requests.length = 0;
  fake.handler = (req) => {
    assert.equal(req.method, 'GET');
    assert.equal(req.path, '/v2/languages');
    assert.equal(req.headers.authorization, `DeepL-Auth-Key ${KEY}`);
    // `type` is `source` by default, `target` for the targets.
    const type = req.query.get('type') ?? 'source';
    return {
      body:
        type === 'source'
          ? [
              { language: 'EN', name: 'English' },
              { language: 'DE', name: 'German' },
            ]
          : [
              { language: 'DE', name: 'German', supports_formality: true },
              { language: 'EN-GB', name: 'English (British)', supports_formality: false },
              { language: 'ZH-HANS', name: 'Chinese (simplified)', supports_formality: false },
            ],
    };
  };
  const pairs = await provider().languages(signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(pairs.map((p) => `${p.source}>${p.target}`).sort(), [
    'de>en-GB',
    'de>zh-Hans',
    'en>de',
    'en>zh-Hans',
  ]);
  assert.deepEqual(fake.requests.map((r) => r.query.get('type') ?? 'source').sort(), ['source', 'target']);
});

test('DeepL: each failure has its kind — 429 rate, 456 quota a 30-minute rate, 403 auth, 5xx server, 400 request', async () => {
  const cases: [number, string, number | undefined][] = [
    [429, 'rate', undefined],
    [456, 'rate', 1800],
    [403, 'auth', undefined],
    [401, 'auth', undefined],
    [500, 'server', undefined],
    [503, 'server', undefined],
    [400, 'request', undefined],
  ];
  for (const [status, kind, retryAfter] of cases) {
    fake.requests.length = 0;
    fake.handler = () => ({ status, body: { message: 'failure' } });
    const err = await provider()
      .translate(['a'], 'en', 'de', signal())
      .then(
        () => null,
        (e) => e,
      );
    assert.ok(err instanceof MtFailure, `${status}: ${err}`);
    assert.equal(err.kind, kind, `${status}`);
    assert.equal(err.retryAfter, retryAfter, `${status}`);
    assert.equal(fake.requests.length, 1, `${status}: the SDK does not retry on its own`);
  }
  const closed = new DeeplProvider({ key: KEY, serverUrl: 'http://127.0.0.1:1' });
  const err = await closed.translate(['a'], 'en', 'de', signal()).catch((e) => e);
  assert.equal((err as MtFailure).kind, 'server', 'a refused connection');
});

test('DeepL: a tagged segment goes through the engine and comes back with its tags', async () => {
  fake.handler = deeplTranslate;
  fake.requests.length = 0;
  const store = await engineStore();
  try {
    const deepl = createProvider('deepl', { key: KEY, serverUrl: fake.url });
    const engine = new MtEngine([deepl], { timeoutMs: 10_000, cacheDays: 1 });
    const source = 'Press <g id="1">Save</g> to keep {count} files.';
    const result = await engine.translate(store.db, store.organizationId, [source], 'en', 'de');
    assert.equal(result.unavailable, null);
    assert.deepEqual(result.translations, ['PRESS <g id="1">SAVE</g> TO KEEP {count} FILES.']);
    assert.equal(fake.requests.at(-1)!.form?.get('text'), maskForMt(source).masked);
    // The cache answers the second time (the engine also asked once for the pairs DeepL serves).
    await engine.translate(store.db, store.organizationId, [source], 'en', 'de');
    assert.equal(fake.requests.filter((r) => r.path === '/v2/translate').length, 1);
  } finally {
    await store.close();
  }
});

test('DeepL: the caller’s timeout is kept although the SDK takes no AbortSignal', async () => {
  fake.handler = async (req) => {
    await new Promise((r) => setTimeout(r, 1500));
    return deeplTranslate(req);
  };
  const started = Date.now();
  const err = await provider()
    .translate(['a'], 'en', 'de', AbortSignal.timeout(200))
    .catch((e) => e);
  assert.ok(err instanceof MtFailure);
  assert.equal(err.kind, 'server');
  assert.match(err.message, /timed out/);
  assert.ok(Date.now() - started < 1000, `gave up after ${Date.now() - started} ms`);
});
