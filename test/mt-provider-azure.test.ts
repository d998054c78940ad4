// Azure Translator through its SDK against a loopback server answering as the Text Translation API
// documents: POST /translate?api-version=… with the key and region headers and {inputs: [{text, language,
// textType: 'html', targets}]}, GET /languages?scope=translation; the masking's markup kept, batches within
// 1,000 texts and 50,000 characters, each failure's kind, and a tagged segment through the engine.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MtEngine } from '../src/modules/mt/engine.ts';
import { MtFailure } from '../src/modules/mt/provider.ts';
import { AzureProvider, azureCode } from '../src/modules/mt/providers/azure.ts';
import { createProvider } from '../src/modules/mt/providers/registry.ts';
import { maskForMt } from '../src/text/mt-masking.ts';
import {
  engineStore,
  type FakeEngine,
  type FakeRequest,
  fakeTranslation,
  startFakeEngine,
} from './helpers/mt-fakes.ts';

const KEY = 'azure-test-key-0123456789';
let fake: FakeEngine;
before(async () => {
  fake = await startFakeEngine();
});
after(() => fake.close());

const signal = () => AbortSignal.timeout(10_000);

interface AzureInput {
  text: string;
  language?: string;
  textType?: string;
  targets: { language: string }[];
}

function azureTranslate(req: FakeRequest) {
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/translate');
  // The GA version SDK 2.x is built for (Microsoft's "migrate to 2026-06-06" guide: not v3.0's shapes).
  assert.equal(req.query.get('api-version'), '2026-06-06');
  assert.equal(req.headers['ocp-apim-subscription-key'], KEY);
  assert.equal(req.headers['ocp-apim-subscription-region'], 'westeurope');
  assert.match(String(req.headers['content-type']), /application\/json/);
  const { inputs } = req.json as { inputs: AzureInput[] };
  assert.ok(inputs.length >= 1 && inputs.length <= 1000, 'at most 1,000 texts');
  assert.ok(inputs.reduce((n, i) => n + i.text.length, 0) <= 50_000, 'at most 50,000 characters');
  for (const input of inputs) {
    assert.equal(input.textType, 'html');
    assert.equal(input.targets.length, 1);
  }
  return {
    body: {
      value: inputs.map((input) => ({
        translations: [
          {
            language: input.targets[0].language,
            text: fakeTranslation(input.text),
            sourceCharacters: input.text.length,
          },
        ],
      })),
    },
  };
}

function provider() {
  return new AzureProvider({ key: KEY, region: 'westeurope', endpoint: fake.url });
}

test('Azure: texts go to /translate with the key, the region, textType html and Azure’s codes; answers in order', async () => {
  fake.handler = azureTranslate;
  fake.requests.length = 0;
  const texts = ['Hello <g1>world</g1>', 'A &amp; B <x1/> c'];
  const answers = await provider().translate(texts, 'en-US', 'zh-TW', signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(answers, ['HELLO <g1>WORLD</g1>', 'A &amp; B <x1/> C']);
  const { inputs } = fake.requests[0].json as { inputs: AzureInput[] };
  assert.deepEqual(
    inputs.map((i) => i.text),
    texts,
  );
  assert.equal(inputs[0].language, 'en');
  assert.deepEqual(inputs[0].targets, [{ language: 'zh-Hant' }]);
});

test('Azure: a batch over 1,000 texts or 50,000 characters is split, the answers kept in order', async () => {
  fake.handler = azureTranslate;
  fake.requests.length = 0;
  const texts = [...Array.from({ length: 1500 }, (_, i) => `t${i}`), 'x'.repeat(30_000), 'y'.repeat(30_000)];
  const answers = await provider().translate(texts, 'en', 'de', signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(
    answers,
    texts.map((t) => t.toUpperCase()),
  );
  assert.deepEqual(
    fake.requests.map((r) => (r.json as { inputs: unknown[] }).inputs.length),
    [1000, 501, 1],
  );
});

test('Azure: codes for BCP-47 tags', () => {
  assert.equal(azureCode('zh'), 'zh-Hans');
  assert.equal(azureCode('zh-CN'), 'zh-Hans');
  assert.equal(azureCode('zh-Hant-TW'), 'zh-Hant');
  assert.equal(azureCode('pt-BR'), 'pt');
  assert.equal(azureCode('pt-PT'), 'pt-PT');
  assert.equal(azureCode('fr-CA'), 'fr-CA');
  assert.equal(azureCode('fr-FR'), 'fr');
  assert.equal(azureCode('sr-Latn-RS'), 'sr-Latn');
  assert.equal(azureCode('de-AT'), 'de');
});

test('Azure: languages come from /languages?scope=translation', async () => {
  fake.requests.length = 0;
  fake.handler = (req) => {
    assert.equal(req.method, 'GET');
    assert.equal(req.path, '/languages');
    assert.equal(req.query.get('scope'), 'translation');
    assert.equal(req.query.get('api-version'), '2026-06-06');
    return {
      body: {
        translation: {
          en: { name: 'English', nativeName: 'English', dir: 'ltr' },
          'zh-Hans': { name: 'Chinese Simplified', nativeName: '中文 (简体)', dir: 'ltr' },
          ar: { name: 'Arabic', nativeName: 'العربية', dir: 'rtl' },
        },
      },
    };
  };
  const pairs = await provider().languages(signal());
  assert.deepEqual(fake.problems, []);
  assert.equal(pairs.length, 6);
  assert.ok(pairs.some((p) => p.source === 'en' && p.target === 'zh-Hans'));
  assert.ok(pairs.some((p) => p.source === 'ar' && p.target === 'en'));
});

test('Azure: each failure has its kind — 429 with Retry-After rate, 401/403 auth, 5xx server, 400 request', async () => {
  const cases: [number, string, number | undefined, Record<string, string>][] = [
    [429, 'rate', 7, { 'retry-after': '7' }],
    [401, 'auth', undefined, {}],
    [403, 'auth', undefined, {}],
    [500, 'server', undefined, {}],
    [503, 'server', undefined, {}],
    [400, 'request', undefined, {}],
  ];
  for (const [status, kind, retryAfter, headers] of cases) {
    fake.requests.length = 0;
    fake.handler = () => ({ status, headers, body: { error: { code: status * 1000, message: 'failure' } } });
    const err = await provider()
      .translate(['a'], 'en', 'de', signal())
      .catch((e) => e);
    assert.ok(err instanceof MtFailure, `${status}: ${err}`);
    assert.equal(err.kind, kind, `${status}`);
    assert.equal(err.retryAfter, retryAfter, `${status}`);
    assert.equal(fake.requests.length, 1, `${status}: the SDK does not retry on its own`);
  }
  const closed = new AzureProvider({ key: KEY, endpoint: 'http://127.0.0.1:1' });
  const err = await closed.translate(['a'], 'en', 'de', signal()).catch((e) => e);
  assert.equal((err as MtFailure).kind, 'server', 'a refused connection');
});

test('Azure: without a region, only the key is sent', async () => {
  fake.requests.length = 0;
  fake.handler = (req) => ({
    body: {
      value: (req.json as { inputs: AzureInput[] }).inputs.map((i) => ({
        translations: [{ language: 'de', text: i.text }],
      })),
    },
  });
  await new AzureProvider({ key: KEY, endpoint: fake.url }).translate(['a'], 'en', 'de', signal());
  assert.equal(fake.requests[0].headers['ocp-apim-subscription-key'], KEY);
  assert.equal(fake.requests[0].headers['ocp-apim-subscription-region'], undefined);
});

test('Azure: a tagged segment goes through the engine and comes back with its tags', async () => {
  fake.handler = azureTranslate;
  fake.requests.length = 0;
  const store = await engineStore();
  try {
    const azure = createProvider('azure', { key: KEY, region: 'westeurope', endpoint: fake.url });
    const engine = new MtEngine([azure], { timeoutMs: 10_000, cacheDays: 1 });
    const source = 'Press <g id="1">Save</g> to keep {count} files.';
    const result = await engine.translate(store.db, store.organizationId, [source], 'en', 'de');
    assert.equal(result.unavailable, null);
    assert.deepEqual(result.translations, ['PRESS <g id="1">SAVE</g> TO KEEP {count} FILES.']);
    assert.equal(
      (fake.requests.at(-1)!.json as { inputs: AzureInput[] }).inputs[0].text,
      maskForMt(source).masked,
    );
  } finally {
    await store.close();
  }
});
