// An OpenAI-compatible chat endpoint through OpenAI's SDK against a loopback server answering as OpenAI's
// Chat Completions reference documents: POST /v1/chat/completions with a Bearer key and {model, messages},
// answered {choices: [{message: {content}, finish_reason}]}; GET /v1/models. The prompt names both
// languages and asks for the markup kept; what models add (fences, quotes, <think>) is taken off; each
// failure's kind; and a tagged segment through the engine.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MtEngine } from '../src/modules/mt/engine.ts';
import { MtFailure } from '../src/modules/mt/provider.ts';
import { cleanAnswer, OpenaiProvider } from '../src/modules/mt/providers/openai.ts';
import { createProvider } from '../src/modules/mt/providers/registry.ts';
import { maskForMt } from '../src/text/mt-masking.ts';
import {
  engineStore,
  type FakeEngine,
  type FakeRequest,
  fakeTranslation,
  startFakeEngine,
} from './helpers/mt-fakes.ts';

const KEY = 'sk-openai-test-key-0123';
let fake: FakeEngine;
before(async () => {
  fake = await startFakeEngine();
});
after(() => fake.close());

const signal = () => AbortSignal.timeout(10_000);

interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  temperature?: number;
}

function completion(content: string, finish = 'stop') {
  return {
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  };
}

/** A model that translates (upper-cases) and wraps its answer as the test says. */
function chat(wrap: (s: string) => string = (s) => s, key: string | null = KEY) {
  return (req: FakeRequest) => {
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, key === null ? undefined : `Bearer ${key}`);
    const body = req.json as ChatBody;
    assert.equal(body.model, 'test-model');
    assert.equal(body.messages.length, 2);
    assert.equal(body.messages[0].role, 'system');
    assert.equal(body.messages[1].role, 'user');
    return completion(wrap(fakeTranslation(body.messages[1].content)));
  };
}

function provider(key: string | undefined = KEY) {
  return new OpenaiProvider({ baseUrl: `${fake.url}/v1`, key, model: 'test-model' });
}

function keyless() {
  return new OpenaiProvider({ baseUrl: `${fake.url}/v1`, model: 'test-model' });
}

test('OpenAI-compatible: one request a text, the prompt naming both languages and the markup rule; answers in order', async () => {
  fake.handler = chat();
  fake.requests.length = 0;
  const texts = ['Hello <g1>world</g1>', 'A &amp; B <x1/> c', 'third', 'fourth', 'fifth'];
  const answers = await provider().translate(texts, 'en', 'es', signal());
  assert.deepEqual(fake.problems, []);
  assert.deepEqual(answers, ['HELLO <g1>WORLD</g1>', 'A &amp; B <x1/> C', 'THIRD', 'FOURTH', 'FIFTH']);
  assert.equal(fake.requests.length, 5);
  const bodies = fake.requests.map((r) => r.json as ChatBody);
  assert.deepEqual(
    bodies.map((b) => b.messages[1].content).sort(),
    [...texts].sort(),
    'the markup arrives as it was sent',
  );
  const system = bodies[0].messages[0].content;
  assert.match(system, /professional translator/);
  assert.match(system, /from English \(en\) to Spanish \(es\)/);
  assert.match(system, /<g1>…<\/g1>.*<x2\/>/s);
  assert.match(system, /translation only/);
  assert.equal(bodies[0].temperature, 0);
});

test('OpenAI-compatible: fences, quotes, a label and a <think> block around the answer are taken off', async () => {
  fake.requests.length = 0;
  for (const wrap of [
    (s: string) => `\`\`\`\n${s}\n\`\`\``,
    (s: string) => `\`\`\`xml\n${s}\n\`\`\``,
    (s: string) => `"${s}"`,
    (s: string) => `“${s}”`,
    (s: string) => `Translation: ${s}`,
    (s: string) => `<think>The user wants Spanish. Keep <g1>.</think>\n\n${s}`,
  ]) {
    fake.handler = chat(wrap);
    assert.deepEqual(await provider().translate(['Hello <g1>world</g1>'], 'en', 'es', signal()), [
      'HELLO <g1>WORLD</g1>',
    ]);
  }
  assert.equal(cleanAnswer('"Hola"', '"Hello"'), '"Hola"', 'quotes the source had stay');
  assert.deepEqual(fake.problems, []);
});

test('OpenAI-compatible: without a key no Authorization is sent — not even the operator’s OPENAI_API_KEY', async () => {
  const saved = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = 'sk-operator-own-key';
  try {
    fake.handler = chat(undefined, null);
    fake.requests.length = 0;
    assert.deepEqual(await keyless().translate(['hi'], 'en', 'de', signal()), ['HI']);
    assert.deepEqual(fake.problems, []);
    assert.equal(fake.requests[0].headers.authorization, undefined);
  } finally {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
  }
});

test('OpenAI-compatible: a model that refuses temperature is asked again without it, and no longer sent it', async () => {
  fake.requests.length = 0;
  const model = chat();
  fake.handler = (req) => {
    if ((req.json as ChatBody).temperature !== undefined) {
      return {
        status: 400,
        body: {
          error: {
            message: "Unsupported value: 'temperature' does not support 0 with this model.",
            type: 'invalid_request_error',
            param: 'temperature',
            code: 'unsupported_value',
          },
        },
      };
    }
    return model(req);
  };
  const p = provider();
  assert.deepEqual(await p.translate(['one'], 'en', 'de', signal()), ['ONE']);
  assert.deepEqual(await p.translate(['two'], 'en', 'de', signal()), ['TWO']);
  assert.deepEqual(
    fake.requests.map((r) => (r.json as ChatBody).temperature),
    [0, undefined, undefined],
  );
});

test('OpenAI-compatible: languages lists the models (checking address and key) and names no pairs', async () => {
  fake.requests.length = 0;
  fake.handler = (req) => {
    assert.equal(req.method, 'GET');
    assert.equal(req.path, '/v1/models');
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    return {
      body: { object: 'list', data: [{ id: 'test-model', object: 'model', created: 0, owned_by: 'me' }] },
    };
  };
  assert.deepEqual(await provider().languages(signal()), []);
  assert.deepEqual(fake.problems, []);
  fake.handler = () => ({
    status: 401,
    body: { error: { message: 'bad key', type: 'invalid_request_error' } },
  });
  const err = await provider()
    .languages(signal())
    .catch((e) => e);
  assert.equal((err as MtFailure).kind, 'auth');
});

test('OpenAI-compatible: each failure has its kind — 429 rate with Retry-After, insufficient_quota 30 minutes, 401/403 auth, 5xx server, 400/404 request, cut off', async () => {
  const cases: [number, string, number | undefined, Record<string, string>, string?][] = [
    [429, 'rate', 4, { 'retry-after': '4' }],
    [429, 'rate', 1800, {}, 'insufficient_quota'],
    [401, 'auth', undefined, {}],
    [403, 'auth', undefined, {}],
    [500, 'server', undefined, {}],
    [503, 'server', undefined, {}],
    [400, 'request', undefined, {}],
    [404, 'request', undefined, {}],
  ];
  for (const [status, kind, retryAfter, headers, code] of cases) {
    fake.requests.length = 0;
    fake.handler = () => ({
      status,
      headers,
      body: { error: { message: 'failure', type: 'error', code: code ?? null } },
    });
    const err = await provider()
      .translate(['a'], 'en', 'de', signal())
      .catch((e) => e);
    assert.ok(err instanceof MtFailure, `${status}: ${err}`);
    assert.equal(err.kind, kind, `${status} ${code ?? ''}`);
    assert.equal(err.retryAfter, retryAfter, `${status} ${code ?? ''}`);
    assert.equal(fake.requests.length, 1, `${status}: the SDK does not retry on its own`);
  }
  fake.handler = () => completion('HALF', 'length');
  const cut = await provider()
    .translate(['a'], 'en', 'de', signal())
    .catch((e) => e);
  assert.equal((cut as MtFailure).kind, 'request');
  const closed = new OpenaiProvider({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' });
  const err = await closed.translate(['a'], 'en', 'de', signal()).catch((e) => e);
  assert.equal((err as MtFailure).kind, 'server', 'a refused connection');
});

test('OpenAI-compatible: a tagged segment goes through the engine and comes back with its tags', async () => {
  fake.handler = chat((s) => `\`\`\`\n${s}\n\`\`\``);
  fake.requests.length = 0;
  const store = await engineStore();
  try {
    const llm = createProvider('openai', { baseUrl: `${fake.url}/v1`, key: KEY, model: 'test-model' });
    const engine = new MtEngine([llm], { timeoutMs: 10_000, cacheDays: 1 });
    const source = 'Press <g id="1">Save</g> to keep {count} files.';
    const result = await engine.translate(store.db, store.organizationId, [source], 'en', 'fr');
    assert.equal(result.unavailable, null);
    assert.deepEqual(result.translations, ['PRESS <g id="1">SAVE</g> TO KEEP {count} FILES.']);
    assert.equal((fake.requests.at(-1)!.json as ChatBody).messages[1].content, maskForMt(source).masked);
  } finally {
    await store.close();
  }
});
