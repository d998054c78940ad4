// Amazon Translate through its SDK against a loopback server answering in Amazon's AWS JSON 1.1 protocol as
// its API reference documents: POST / with X-Amz-Target …TranslateText, a SigV4 Authorization for the
// region's translate service, {Text, SourceLanguageCode, TargetLanguageCode} → {TranslatedText}; ListLanguages
// paged by NextToken; the masking's markup kept, one text a request and the answers in order, the failures
// Amazon names (mostly with 400) given their kind, and a tagged segment through the engine.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MtEngine } from '../src/modules/mt/engine.ts';
import { MtFailure } from '../src/modules/mt/provider.ts';
import { AmazonProvider, amazonCode } from '../src/modules/mt/providers/amazon.ts';
import { createProvider } from '../src/modules/mt/providers/registry.ts';
import { maskForMt } from '../src/text/mt-masking.ts';
import {
  engineStore,
  type FakeEngine,
  type FakeRequest,
  fakeTranslation,
  startFakeEngine,
} from './helpers/mt-fakes.ts';

const KEY_ID = 'AKIDTESSERATEST';
const SECRET = 'amazon-test-secret-0123456789';
const TARGET = 'AWSShineFrontendService_20170701';
let fake: FakeEngine;
before(async () => {
  fake = await startFakeEngine();
});
after(() => fake.close());

const signal = () => AbortSignal.timeout(10_000);

function checkAws(req: FakeRequest, operation: string) {
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/');
  assert.equal(req.headers['x-amz-target'], `${TARGET}.${operation}`);
  assert.equal(req.headers['content-type'], 'application/x-amz-json-1.1');
  assert.match(
    String(req.headers.authorization),
    new RegExp(
      `^AWS4-HMAC-SHA256 Credential=${KEY_ID}/\\d{8}/eu-west-1/translate/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$`,
    ),
  );
  assert.match(String(req.headers['x-amz-date']), /^\d{8}T\d{6}Z$/);
  assert.ok(!String(req.headers.authorization).includes(SECRET), 'the secret is never sent');
}

interface TranslateBody {
  Text: string;
  SourceLanguageCode: string;
  TargetLanguageCode: string;
}

function amazonTranslate(req: FakeRequest) {
  checkAws(req, 'TranslateText');
  const body = JSON.parse(req.text) as TranslateBody;
  assert.ok(Buffer.byteLength(body.Text) <= 10_000);
  return {
    headers: { 'content-type': 'application/x-amz-json-1.1' },
    body: {
      TranslatedText: fakeTranslation(body.Text),
      SourceLanguageCode: body.SourceLanguageCode,
      TargetLanguageCode: body.TargetLanguageCode,
    },
  };
}

function provider() {
  return new AmazonProvider({
    accessKeyId: KEY_ID,
    secretAccessKey: SECRET,
    region: 'eu-west-1',
    endpoint: fake.url,
  });
}

test('Amazon: each text is a signed TranslateText request with Amazon’s codes; the markup kept, answers in order', async () => {
  fake.handler = amazonTranslate;
  fake.requests.length = 0;
  const texts = Array.from({ length: 10 }, (_, i) => `Hello <g1>world ${i}</g1> &amp; <x2/>`);
  const answers = await provider().translate(texts, 'en-US', 'pt-PT', signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(
    answers,
    texts.map((_, i) => `HELLO <g1>WORLD ${i}</g1> &amp; <x2/>`),
  );
  assert.equal(fake.requests.length, 10);
  const bodies = fake.requests.map((r) => JSON.parse(r.text) as TranslateBody);
  assert.deepEqual(bodies.map((b) => b.Text).sort(), [...texts].sort(), 'the markup arrives as it was sent');
  assert.ok(bodies.every((b) => b.SourceLanguageCode === 'en' && b.TargetLanguageCode === 'pt-PT'));
});

test('Amazon: codes for BCP-47 tags', () => {
  assert.equal(amazonCode('zh-CN'), 'zh');
  assert.equal(amazonCode('zh-Hant'), 'zh-TW');
  assert.equal(amazonCode('pt-BR'), 'pt');
  assert.equal(amazonCode('fr-CA'), 'fr-CA');
  assert.equal(amazonCode('es-419'), 'es-MX');
  assert.equal(amazonCode('de-CH'), 'de');
});

test('Amazon: languages come from ListLanguages, every page', async () => {
  fake.requests.length = 0;
  fake.handler = (req) => {
    checkAws(req, 'ListLanguages');
    const body = JSON.parse(req.text) as { NextToken?: string };
    return {
      headers: { 'content-type': 'application/x-amz-json-1.1' },
      body: body.NextToken
        ? { Languages: [{ LanguageName: 'Chinese (Traditional)', LanguageCode: 'zh-TW' }] }
        : {
            Languages: [
              { LanguageName: 'English', LanguageCode: 'en' },
              { LanguageName: 'Spanish', LanguageCode: 'es' },
            ],
            NextToken: 'page-2',
          },
    };
  };
  const pairs = await provider().languages(signal());
  assert.deepEqual(fake.problems, []);
  assert.equal(fake.requests.length, 2);
  assert.equal(pairs.length, 6);
  assert.ok(pairs.some((p) => p.source === 'zh-TW' && p.target === 'es'));
});

test('Amazon: each failure has its kind, by Amazon’s exception name', async () => {
  const cases: [number, string, string, number | undefined, Record<string, string>][] = [
    [400, 'TooManyRequestsException', 'rate', undefined, {}],
    [429, 'ThrottlingException', 'rate', 5, { 'retry-after': '5' }],
    [400, 'UnrecognizedClientException', 'auth', undefined, {}],
    [403, 'InvalidSignatureException', 'auth', undefined, {}],
    [500, 'InternalServerException', 'server', undefined, {}],
    [503, 'ServiceUnavailableException', 'server', undefined, {}],
    [400, 'UnsupportedLanguagePairException', 'request', undefined, {}],
    [400, 'TextSizeLimitExceededException', 'request', undefined, {}],
  ];
  for (const [status, type, kind, retryAfter, headers] of cases) {
    fake.requests.length = 0;
    fake.handler = () => ({
      status,
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': type, ...headers },
      body: { __type: type, message: 'failure' },
    });
    const err = await provider()
      .translate(['a'], 'en', 'de', signal())
      .catch((e) => e);
    assert.ok(err instanceof MtFailure, `${type}: ${err}`);
    assert.equal(err.kind, kind, type);
    assert.equal(err.retryAfter, retryAfter, type);
    assert.equal(fake.requests.length, 1, `${type}: the SDK does not retry on its own`);
  }
  const closed = new AmazonProvider({
    accessKeyId: KEY_ID,
    secretAccessKey: SECRET,
    region: 'eu-west-1',
    endpoint: 'http://127.0.0.1:1',
  });
  const err = await closed.translate(['a'], 'en', 'de', signal()).catch((e) => e);
  assert.equal((err as MtFailure).kind, 'server', 'a refused connection');
});

test('Amazon: a tagged segment goes through the engine and comes back with its tags', async () => {
  fake.handler = amazonTranslate;
  fake.requests.length = 0;
  const store = await engineStore();
  try {
    const amazon = createProvider('amazon', {
      accessKeyId: KEY_ID,
      secretAccessKey: SECRET,
      region: 'eu-west-1',
      endpoint: fake.url,
    });
    const engine = new MtEngine([amazon], { timeoutMs: 10_000, cacheDays: 1 });
    const source = 'Press <g id="1">Save</g> to keep {count} files.';
    const result = await engine.translate(store.db, store.organizationId, [source], 'en', 'de');
    assert.equal(result.unavailable, null);
    assert.deepEqual(result.translations, ['PRESS <g id="1">SAVE</g> TO KEEP {count} FILES.']);
    assert.equal((JSON.parse(fake.requests.at(-1)!.text) as TranslateBody).Text, maskForMt(source).masked);
  } finally {
    await store.close();
  }
});
