// ModernMT against a loopback server answering as ModernMT's API reference documents: POST /translate with
// X-HTTP-Method-Override: GET, MMT-ApiKey and JSON {source, target, q: [...], format}, answered {status,
// data: [{translation}]}; GET /translate/languages; the masking's markup sent as text/xml and kept, batches
// of at most 128, each failure's kind, and a tagged segment through the engine.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MtEngine } from '../src/modules/mt/engine.ts';
import { MtFailure } from '../src/modules/mt/provider.ts';
import { ModernmtProvider, modernmtCode } from '../src/modules/mt/providers/modernmt.ts';
import { createProvider } from '../src/modules/mt/providers/registry.ts';
import { maskForMt } from '../src/text/mt-masking.ts';
import {
  engineStore,
  type FakeEngine,
  type FakeRequest,
  fakeTranslation,
  startFakeEngine,
} from './helpers/mt-fakes.ts';

const KEY = 'modernmt-test-key-0123';
let fake: FakeEngine;
before(async () => {
  fake = await startFakeEngine();
});
after(() => fake.close());

const signal = () => AbortSignal.timeout(10_000);

interface MmtBody {
  source: string;
  target: string;
  q: string[];
  format: string;
}

function checkMmt(req: FakeRequest, path: string) {
  assert.equal(req.method, 'POST');
  assert.equal(req.path, path);
  assert.equal(req.headers['x-http-method-override'], 'GET');
  assert.equal(req.headers['mmt-apikey'], KEY);
}

function mmtTranslate(req: FakeRequest) {
  checkMmt(req, '/translate');
  const body = req.json as MmtBody;
  assert.equal(body.format, 'text/xml');
  assert.ok(Array.isArray(body.q) && body.q.length >= 1 && body.q.length <= 128, 'at most 128 texts');
  return {
    body: {
      status: 200,
      data: body.q.map((q) => ({
        translation: fakeTranslation(q),
        billedCharacters: q.length,
        characters: q.length,
      })),
    },
  };
}

function provider() {
  return new ModernmtProvider({ key: KEY, endpoint: fake.url });
}

test('ModernMT: texts go to /translate with the key, format text/xml and ModernMT’s codes; answers in order', async () => {
  fake.handler = mmtTranslate;
  fake.requests.length = 0;
  const texts = ['Hello <g1>world</g1>', 'A &amp; B <x1/> c'];
  const answers = await provider().translate(texts, 'en-US', 'zh-Hans', signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(answers, ['HELLO <g1>WORLD</g1>', 'A &amp; B <x1/> C']);
  const body = fake.requests[0].json as MmtBody;
  assert.deepEqual(body.q, texts);
  assert.equal(body.source, 'en');
  assert.equal(body.target, 'zh-CN');
});

test('ModernMT: a batch over 128 texts is split, the answers kept in order', async () => {
  fake.handler = mmtTranslate;
  fake.requests.length = 0;
  const texts = Array.from({ length: 300 }, (_, i) => `text ${i}`);
  const answers = await provider().translate(texts, 'en', 'it', signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(
    answers,
    texts.map((t) => t.toUpperCase()),
  );
  assert.deepEqual(
    fake.requests.map((r) => (r.json as MmtBody).q.length),
    [128, 128, 44],
  );
});

test('ModernMT: codes for BCP-47 tags', () => {
  assert.equal(modernmtCode('zh-TW'), 'zh-TW');
  assert.equal(modernmtCode('zh'), 'zh-CN');
  assert.equal(modernmtCode('pt-BR'), 'pt-BR');
  assert.equal(modernmtCode('it-CH'), 'it');
});

test('ModernMT: languages come from /translate/languages', async () => {
  fake.requests.length = 0;
  fake.handler = (req) => {
    checkMmt(req, '/translate/languages');
    return { body: { status: 200, data: ['en', 'it', 'zh-TW'] } };
  };
  const pairs = await provider().languages(signal());
  assert.deepEqual(fake.problems, []);
  assert.equal(pairs.length, 6);
  assert.ok(pairs.some((p) => p.source === 'zh-TW' && p.target === 'it'));
});

test('ModernMT: each failure has its kind — 429 with Retry-After rate, 402 quota a 30-minute rate, 401/403 auth, 5xx server, 400 request', async () => {
  const cases: [number, string, number | undefined, Record<string, string>][] = [
    [429, 'rate', 3, { 'retry-after': '3' }],
    [402, 'rate', 1800, {}],
    [401, 'auth', undefined, {}],
    [403, 'auth', undefined, {}],
    [500, 'server', undefined, {}],
    [503, 'server', undefined, {}],
    [400, 'request', undefined, {}],
  ];
  for (const [status, kind, retryAfter, headers] of cases) {
    fake.handler = () => ({
      status,
      headers,
      body: { status, error: { type: 'SomeException', message: 'failure' } },
    });
    const err = await provider()
      .translate(['a'], 'en', 'it', signal())
      .catch((e) => e);
    assert.ok(err instanceof MtFailure, `${status}: ${err}`);
    assert.equal(err.kind, kind, `${status}`);
    assert.equal(err.retryAfter, retryAfter, `${status}`);
  }
  // An error the body names under an HTTP 200.
  fake.handler = () => ({
    status: 200,
    body: { status: 401, error: { type: 'AuthenticationException', message: 'x' } },
  });
  const named = await provider()
    .translate(['a'], 'en', 'it', signal())
    .catch((e) => e);
  assert.equal((named as MtFailure).kind, 'auth');
  const closed = new ModernmtProvider({ key: KEY, endpoint: 'http://127.0.0.1:1' });
  const err = await closed.translate(['a'], 'en', 'it', signal()).catch((e) => e);
  assert.equal((err as MtFailure).kind, 'server', 'a refused connection');
});

test('ModernMT: a tagged segment goes through the engine and comes back with its tags', async () => {
  fake.handler = mmtTranslate;
  fake.requests.length = 0;
  const store = await engineStore();
  try {
    const mmt = createProvider('modernmt', { key: KEY, endpoint: fake.url });
    const engine = new MtEngine([mmt], { timeoutMs: 10_000, cacheDays: 1 });
    const source = 'Press <g id="1">Save</g> to keep {count} files.';
    const result = await engine.translate(store.db, store.organizationId, [source], 'en', 'it');
    assert.equal(result.unavailable, null);
    assert.deepEqual(result.translations, ['PRESS <g id="1">SAVE</g> TO KEEP {count} FILES.']);
    assert.deepEqual((fake.requests.at(-1)!.json as MmtBody).q, [maskForMt(source).masked]);
  } finally {
    await store.close();
  }
});
