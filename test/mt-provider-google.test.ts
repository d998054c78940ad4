// Google Cloud Translation v3 through its SDK (HTTP/JSON mode) against a loopback server answering as the
// v3 REST reference documents: POST /v3/projects/{p}/locations/{l}:translateText with a Bearer token and
// {contents, mimeType: 'text/html', sourceLanguageCode, targetLanguageCode}, GET …/supportedLanguages; the
// masking's markup kept, batches within 1,024 texts and 30,000 code points, each failure's kind, and a
// tagged segment through the engine.
import assert from 'node:assert/strict';
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { after, before, test } from 'node:test';
import { MtEngine } from '../src/modules/mt/engine.ts';
import { MtFailure } from '../src/modules/mt/provider.ts';
import { GoogleProvider, googleCode } from '../src/modules/mt/providers/google.ts';
import { createProvider } from '../src/modules/mt/providers/registry.ts';
import { maskForMt } from '../src/text/mt-masking.ts';
import {
  engineStore,
  type FakeEngine,
  type FakeRequest,
  fakeTranslation,
  startFakeEngine,
} from './helpers/mt-fakes.ts';

const TOKEN = 'ya29.test-access-token';
let fake: FakeEngine;
before(async () => {
  fake = await startFakeEngine();
});
after(() => fake.close());

const signal = () => AbortSignal.timeout(10_000);

interface GoogleBody {
  contents: string[];
  mimeType: string;
  sourceLanguageCode: string;
  targetLanguageCode: string;
}

function googleTranslate(req: FakeRequest) {
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/v3/projects/tessera-test/locations/global:translateText');
  assert.equal(req.headers.authorization, `Bearer ${TOKEN}`);
  const body = req.json as GoogleBody;
  assert.equal(body.mimeType, 'text/html');
  assert.ok(body.contents.length >= 1 && body.contents.length <= 1024, 'at most 1,024 texts');
  assert.ok(body.contents.reduce((n, t) => n + t.length, 0) <= 30_000, 'at most 30,000 code points');
  return {
    // An HTML serializer's way with the empty elements: `<x1></x1>`.
    body: {
      translations: body.contents.map((t) => ({
        translatedText: fakeTranslation(t).replace(/<x(\d+)\/>/g, '<x$1></x$1>'),
      })),
    },
  };
}

function provider() {
  return new GoogleProvider({ projectId: 'tessera-test', credentials: TOKEN, endpoint: fake.url });
}

test('Google: texts go to :translateText with the token, mimeType text/html and Google’s codes; answers in order', async () => {
  fake.handler = googleTranslate;
  fake.requests.length = 0;
  const texts = ['Hello <g1>world</g1>', 'A &amp; B <x1/> c'];
  const answers = await provider().translate(texts, 'en-GB', 'zh-Hant', signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(answers, ['HELLO <g1>WORLD</g1>', 'A &amp; B <x1/> C']);
  const body = fake.requests[0].json as GoogleBody;
  assert.deepEqual(body.contents, texts);
  assert.equal(body.sourceLanguageCode, 'en');
  assert.equal(body.targetLanguageCode, 'zh-TW');
});

test('Google: with a service account key the SDK signs its own token (a self-signed JWT, no token server)', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = 'tessera-mt@tessera-test.iam.gserviceaccount.com';
  const serviceAccount = {
    type: 'service_account',
    project_id: 'tessera-test',
    private_key_id: 'key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: email,
    client_id: '1',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  let jwt = '';
  fake.requests.length = 0;
  fake.handler = (req) => {
    jwt = String(req.headers.authorization).replace(/^Bearer /, '');
    return { body: { translations: [{ translatedText: 'HOLA' }] } };
  };
  const google = new GoogleProvider({
    projectId: 'tessera-test',
    credentials: JSON.stringify(serviceAccount),
    endpoint: fake.url,
  });
  assert.deepEqual(await google.translate(['hola'], 'es', 'en', signal()), ['HOLA']);
  const [header, payload, signature] = jwt.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  assert.equal(JSON.parse(Buffer.from(header, 'base64url').toString()).kid, 'key-1');
  assert.equal(claims.iss, email);
  assert.ok(claims.exp > Date.now() / 1000);
  const verify = createVerify('RSA-SHA256');
  verify.update(`${header}.${payload}`);
  assert.ok(verify.verify(publicKey, Buffer.from(signature, 'base64url')), 'signed with the key');
  assert.throws(
    () => new GoogleProvider({ projectId: 'p', credentials: '{not json secret-value' }),
    (err: Error) => !err.message.includes('secret-value'),
  );
});

test('Google: a batch over 1,024 texts or 30,000 characters is split, the answers kept in order', async () => {
  fake.handler = googleTranslate;
  fake.requests.length = 0;
  const texts = [...Array.from({ length: 1100 }, (_, i) => `t${i}`), 'x'.repeat(20_000), 'y'.repeat(20_000)];
  const answers = await provider().translate(texts, 'en', 'de', signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(
    answers,
    texts.map((t) => t.toUpperCase()),
  );
  assert.deepEqual(
    fake.requests.map((r) => (r.json as GoogleBody).contents.length),
    [1024, 77, 1],
  );
});

test('Google: codes for BCP-47 tags', () => {
  assert.equal(googleCode('zh'), 'zh-CN');
  assert.equal(googleCode('zh-Hant'), 'zh-TW');
  assert.equal(googleCode('zh-HK'), 'zh-TW');
  assert.equal(googleCode('pt-PT'), 'pt-PT');
  assert.equal(googleCode('pt-BR'), 'pt');
  assert.equal(googleCode('en-US'), 'en');
});

test('Google: languages come from supportedLanguages, sources with targets', async () => {
  fake.requests.length = 0;
  fake.handler = (req) => {
    assert.equal(req.method, 'GET');
    assert.equal(req.path, '/v3/projects/tessera-test/locations/global/supportedLanguages');
    assert.equal(req.headers.authorization, `Bearer ${TOKEN}`);
    return {
      body: {
        languages: [
          { languageCode: 'en', supportSource: true, supportTarget: true },
          { languageCode: 'zh-CN', supportSource: true, supportTarget: true },
          { languageCode: 'la', supportSource: true, supportTarget: false },
        ],
      },
    };
  };
  const pairs = await provider().languages(signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(pairs.map((p) => `${p.source}>${p.target}`).sort(), [
    'en>zh-CN',
    'la>en',
    'la>zh-CN',
    'zh-CN>en',
  ]);
});

test('Google: each failure has its kind — 429 with Retry-After rate, 401/403 auth, 5xx server, 400 request', async () => {
  const cases: [number, string, number | undefined, Record<string, string>][] = [
    [429, 'rate', 11, { 'retry-after': '11' }],
    [401, 'auth', undefined, {}],
    [403, 'auth', undefined, {}],
    [500, 'server', undefined, {}],
    [503, 'server', undefined, {}],
    [400, 'request', undefined, {}],
  ];
  for (const [status, kind, retryAfter, headers] of cases) {
    fake.requests.length = 0;
    fake.handler = () => ({
      status,
      headers,
      body: { error: { code: status, message: 'failure', status: 'X' } },
    });
    const err = await provider()
      .translate(['a'], 'en', 'de', signal())
      .catch((e) => e);
    assert.ok(err instanceof MtFailure, `${status}: ${err}`);
    assert.equal(err.kind, kind, `${status}`);
    assert.equal(err.retryAfter, retryAfter, `${status}`);
    assert.equal(fake.requests.length, 1, `${status}: the SDK does not retry on its own`);
  }
  const closed = new GoogleProvider({ projectId: 'p', credentials: TOKEN, endpoint: 'http://127.0.0.1:1' });
  const err = await closed.translate(['a'], 'en', 'de', signal()).catch((e) => e);
  assert.equal((err as MtFailure).kind, 'server', 'a refused connection');
});

test('Google: a tagged segment goes through the engine and comes back with its tags', async () => {
  fake.handler = googleTranslate;
  fake.requests.length = 0;
  const store = await engineStore();
  try {
    const google = createProvider('google', {
      projectId: 'tessera-test',
      credentials: TOKEN,
      endpoint: fake.url,
    });
    const engine = new MtEngine([google], { timeoutMs: 10_000, cacheDays: 1 });
    const source = 'Press <g id="1">Save</g> to keep {count} files.';
    const result = await engine.translate(store.db, store.organizationId, [source], 'en', 'de');
    assert.equal(result.unavailable, null);
    assert.deepEqual(result.translations, ['PRESS <g id="1">SAVE</g> TO KEEP {count} FILES.']);
    assert.deepEqual((fake.requests.at(-1)!.json as GoogleBody).contents, [maskForMt(source).masked]);
  } finally {
    await store.close();
  }
});

test('Google: the caller’s timeout is kept although the SDK takes no AbortSignal', async () => {
  fake.handler = async (req) => {
    await new Promise((r) => setTimeout(r, 1500));
    return googleTranslate(req);
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
