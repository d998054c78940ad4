// The registry of engine kinds as the Admin form and the per-organization engines use it: every kind has
// a label and well-formed fields, is made from the fields an administrator fills in, and — whatever its
// engine answers — never puts a secret field's value into a failure's message (messages are shown and
// logged; keys never are).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MtFailure } from '../src/modules/mt/provider.ts';
import { createProvider, KINDS, PROVIDER_KINDS } from '../src/modules/mt/providers/registry.ts';
import { batches, normalTag, retryAfterSeconds, selfClosed } from '../src/modules/mt/providers/shared.ts';
import { type FakeEngine, startFakeEngine } from './helpers/mt-fakes.ts';

let fake: FakeEngine;
before(async () => {
  fake = await startFakeEngine();
});
after(() => fake.close());

/** Settings as an administrator would fill them in, every address pointing at the fake engine. */
function settingsFor(kind: (typeof PROVIDER_KINDS)[number]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of KINDS[kind].fields) {
    if (field.secret) out[field.name] = `secret-${kind}-${field.name}-0123456789`;
    else if (field.name === 'baseUrl') out[field.name] = `${fake.url}/v1`;
    else if (['url', 'serverUrl', 'endpoint'].includes(field.name)) out[field.name] = fake.url;
    else if (field.name === 'region') out[field.name] = 'eu-west-1';
    else if (field.required) out[field.name] = 'tessera-test';
  }
  return out;
}

test('every kind has a label and fields with names, labels, help, and its secrets marked', () => {
  assert.deepEqual(Object.keys(KINDS).sort(), [...PROVIDER_KINDS].sort());
  for (const kind of PROVIDER_KINDS) {
    const info = KINDS[kind];
    assert.equal(info.kind, kind);
    assert.ok(info.label.length > 0);
    const names = info.fields.map((f) => f.name);
    assert.equal(new Set(names).size, names.length, `${kind}: field names are unique`);
    for (const f of info.fields) {
      assert.match(f.name, /^[a-z][A-Za-z]*$/, `${kind}.${f.name}`);
      assert.ok(f.label && f.help, `${kind}.${f.name}: a label and help`);
      if (/key|secret|token|credentials/i.test(f.name) && f.name !== 'accessKeyId') {
        assert.equal(f.secret, true, `${kind}.${f.name} is a secret`);
      }
    }
  }
  // What the issue asks an administrator to fill in.
  const required = (kind: (typeof PROVIDER_KINDS)[number]) =>
    KINDS[kind].fields.filter((f) => f.required).map((f) => f.name);
  assert.deepEqual(required('deepl'), ['key']);
  assert.deepEqual(required('google'), ['projectId']);
  assert.deepEqual(required('azure'), ['key']);
  assert.deepEqual(required('amazon'), ['accessKeyId', 'secretAccessKey', 'region']);
  assert.deepEqual(required('modernmt'), ['key']);
  assert.deepEqual(required('libretranslate'), ['url']);
  assert.deepEqual(required('openai'), ['baseUrl', 'model']);
});

test('every kind is made from its fields, with a distinct name; a refusal is `auth` and names no secret', async () => {
  const names = new Set<string>();
  for (const kind of PROVIDER_KINDS) {
    const settings = settingsFor(kind);
    const provider = createProvider(kind, settings);
    names.add(provider.name);
    for (const status of [401, 403]) {
      fake.handler = () => ({
        status,
        headers: { 'x-amzn-errortype': 'UnrecognizedClientException' },
        body: { message: 'refused', error: { message: 'refused', code: 'x' } },
      });
      const err = await provider
        .translate(['Hello'], 'en', 'es', AbortSignal.timeout(10_000))
        .catch((e) => e);
      assert.ok(err instanceof MtFailure, `${kind} ${status}: ${err}`);
      assert.equal(err.kind, 'auth', `${kind} ${status}: ${err.message}`);
      for (const [name, value] of Object.entries(settings)) {
        if (KINDS[kind].fields.find((f) => f.name === name)?.secret) {
          assert.ok(!err.message.includes(value), `${kind}: the failure names ${name}`);
        }
      }
    }
  }
  assert.equal(names.size, PROVIDER_KINDS.length);
});

test('settings that cannot make an engine fail its calls as refused credentials, quoting none of them', async () => {
  const google = createProvider('google', {
    projectId: 'p',
    credentials: '{"private_key": "secret-pem-0123',
  });
  assert.equal(google.name, 'google');
  for (const call of [
    () => google.translate(['a'], 'en', 'es', AbortSignal.timeout(5000)),
    () => google.languages(AbortSignal.timeout(5000)),
  ]) {
    const err = await call().catch((e) => e);
    assert.ok(err instanceof MtFailure);
    assert.equal(err.kind, 'auth');
    assert.match(err.message, /not a service account key/);
    assert.ok(!err.message.includes('secret-pem'));
  }
});

test('shared helpers: batches by count and characters, tags in their usual case, Retry-After in both forms, <xN></xN>', () => {
  assert.deepEqual(batches(['a', 'b', 'c', 'd', 'e'], 2), [['a', 'b'], ['c', 'd'], ['e']]);
  assert.deepEqual(batches(['aaaa', 'bb', 'cc', 'dddddd', 'e'], 10, 5), [
    ['aaaa'],
    ['bb', 'cc'],
    ['dddddd'],
    ['e'],
  ]);
  assert.deepEqual(batches([], 3), []);
  assert.equal(normalTag('EN-GB'), 'en-GB');
  assert.equal(normalTag('ZH-HANS'), 'zh-Hans');
  assert.equal(normalTag('sr_latn_rs'), 'sr-Latn-RS');
  assert.equal(normalTag('es-419'), 'es-419');
  assert.equal(retryAfterSeconds('30'), 30);
  assert.equal(retryAfterSeconds(null), undefined);
  assert.equal(retryAfterSeconds('soon'), undefined);
  const inAMinute = retryAfterSeconds(new Date(Date.now() + 60_000).toUTCString())!;
  assert.ok(inAMinute >= 58 && inAMinute <= 61, `${inAMinute}`);
  assert.equal(selfClosed('a <x1></x1> b <x2 ></x2> <g3>c</g3>'), 'a <x1/> b <x2/> <g3>c</g3>');
  assert.equal(selfClosed('<x1></x2>'), '<x1></x2>', 'only an element closed by itself');
});
