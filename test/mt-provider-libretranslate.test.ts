// LibreTranslate against a loopback server answering as LibreTranslate's API documents: POST /translate with
// JSON {q: [...], source, target, format: 'html', api_key} → {translatedText: [...]}, GET /languages →
// [{code, name, targets}]; the masking's markup kept, batches of at most 25, each failure's kind, and a
// tagged segment through the engine.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MtEngine } from '../src/modules/mt/engine.ts';
import { MtFailure } from '../src/modules/mt/provider.ts';
import { LibretranslateProvider, libretranslateCode } from '../src/modules/mt/providers/libretranslate.ts';
import { createProvider } from '../src/modules/mt/providers/registry.ts';
import { maskForMt } from '../src/text/mt-masking.ts';
import {
  engineStore,
  type FakeEngine,
  type FakeRequest,
  fakeTranslation,
  startFakeEngine,
} from './helpers/mt-fakes.ts';

const KEY = 'libre-test-key-0123';
let fake: FakeEngine;
before(async () => {
  fake = await startFakeEngine();
});
after(() => fake.close());

const signal = () => AbortSignal.timeout(10_000);

interface LibreBody {
  q: string[];
  source: string;
  target: string;
  format: string;
  api_key?: string;
}

function libreTranslate(req: FakeRequest) {
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/translate');
  assert.match(String(req.headers['content-type']), /application\/json/);
  const body = req.json as LibreBody;
  assert.equal(body.format, 'html');
  assert.ok(Array.isArray(body.q) && body.q.length >= 1 && body.q.length <= 25, 'at most 25 texts');
  // Its HTML parser writes empty elements open and closed.
  return {
    body: { translatedText: body.q.map((q) => fakeTranslation(q).replace(/<x(\d+)\/>/g, '<x$1></x$1>')) },
  };
}

test('LibreTranslate: texts go to /translate with the key and format html; answers in order', async () => {
  fake.handler = libreTranslate;
  fake.requests.length = 0;
  const texts = ['Hello <g1>world</g1>', 'A &amp; B <x1/> c'];
  const answers = await new LibretranslateProvider({ url: fake.url, key: KEY }).translate(
    texts,
    'en-US',
    'pt-BR',
    signal(),
  );
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(answers, ['HELLO <g1>WORLD</g1>', 'A &amp; B <x1/> C']);
  const body = fake.requests[0].json as LibreBody;
  assert.deepEqual(body.q, texts);
  assert.equal(body.source, 'en');
  assert.equal(body.target, 'pt-BR');
  assert.equal(body.api_key, KEY);
});

test('LibreTranslate: without a key none is sent; a batch over 25 texts is split, answers in order', async () => {
  fake.handler = libreTranslate;
  fake.requests.length = 0;
  const texts = Array.from({ length: 60 }, (_, i) => `text ${i}`);
  const answers = await new LibretranslateProvider({ url: `${fake.url}/` }).translate(
    texts,
    'en',
    'es',
    signal(),
  );
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(
    answers,
    texts.map((t) => t.toUpperCase()),
  );
  assert.deepEqual(
    fake.requests.map((r) => (r.json as LibreBody).q.length),
    [25, 25, 10],
  );
  assert.ok(fake.requests.every((r) => !('api_key' in (r.json as LibreBody))));
});

test('LibreTranslate: codes for BCP-47 tags', () => {
  assert.equal(libretranslateCode('zh-TW'), 'zh-Hant');
  assert.equal(libretranslateCode('zh-CN'), 'zh');
  assert.equal(libretranslateCode('pt-BR'), 'pt-BR');
  assert.equal(libretranslateCode('pt-PT'), 'pt');
  assert.equal(libretranslateCode('en-GB'), 'en');
});

test('LibreTranslate: languages come from /languages, each with its targets', async () => {
  fake.handler = (req) => {
    assert.equal(req.method, 'GET');
    assert.equal(req.path, '/languages');
    return {
      body: [
        { code: 'en', name: 'English', targets: ['en', 'es', 'zh-Hant'] },
        { code: 'es', name: 'Spanish', targets: ['en', 'es'] },
        { code: 'zh-Hant', name: 'Chinese (traditional)', targets: ['en'] },
      ],
    };
  };
  const pairs = await new LibretranslateProvider({ url: fake.url }).languages(signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(
    pairs.map((p) => `${p.source}>${p.target}`),
    ['en>es', 'en>zh-Hant', 'es>en', 'zh-Hant>en'],
  );
});

test('LibreTranslate: each failure has its kind — 429 with Retry-After rate, 403 auth, 5xx server, 400 request', async () => {
  const cases: [number, string, number | undefined, Record<string, string>][] = [
    [429, 'rate', 2, { 'retry-after': '2' }],
    [403, 'auth', undefined, {}],
    [500, 'server', undefined, {}],
    [400, 'request', undefined, {}],
  ];
  for (const [status, kind, retryAfter, headers] of cases) {
    fake.handler = () => ({ status, headers, body: { error: 'failure' } });
    const err = await new LibretranslateProvider({ url: fake.url })
      .translate(['a'], 'en', 'es', signal())
      .catch((e) => e);
    assert.ok(err instanceof MtFailure, `${status}: ${err}`);
    assert.equal(err.kind, kind, `${status}`);
    assert.equal(err.retryAfter, retryAfter, `${status}`);
  }
  const err = await new LibretranslateProvider({ url: 'http://127.0.0.1:1' })
    .translate(['a'], 'en', 'es', signal())
    .catch((e) => e);
  assert.equal((err as MtFailure).kind, 'server', 'a refused connection');
});

test('LibreTranslate: a tagged segment goes through the engine and comes back with its tags', async () => {
  fake.handler = libreTranslate;
  fake.requests.length = 0;
  const store = await engineStore();
  try {
    const libre = createProvider('libretranslate', { url: fake.url, key: KEY });
    const engine = new MtEngine([libre], { timeoutMs: 10_000, cacheDays: 1 });
    const source = 'Press <g id="1">Save</g> to keep {count} files.';
    const result = await engine.translate(store.db, store.organizationId, [source], 'en', 'es');
    assert.equal(result.unavailable, null);
    assert.deepEqual(result.translations, ['PRESS <g id="1">SAVE</g> TO KEEP {count} FILES.']);
    assert.deepEqual((fake.requests.at(-1)!.json as LibreBody).q, [maskForMt(source).masked]);
  } finally {
    await store.close();
  }
});
