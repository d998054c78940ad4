// The engine's retries and pauses, with a provider that fails as told and a clock the test moves: how many
// attempts each failure gets, and how long the provider is then left alone (docs/API.md, Machine translation).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Queryable } from '../../store/db.ts';
import { MtEngine } from './engine.ts';
import { MtFailure, type MtProvider } from './provider.ts';

/** A store that takes the usage counts and holds nothing (the cache is off in these tests). */
const store = {
  run: async () => ({ changes: 1 }),
  all: async () => [],
  get: async () => undefined,
} as unknown as Queryable;

function failing(failure: () => MtFailure, name = 'fake') {
  const provider = {
    name,
    calls: 0,
    async translate(batch: string[]) {
      provider.calls++;
      if (provider.fail) throw failure();
      return batch.map((t) => t.replace(/^\w/, (c) => c.toUpperCase()));
    },
    async languages() {
      return [{ source: 'en', target: 'es' }];
    },
    fail: true,
  };
  return provider satisfies MtProvider & { calls: number; fail: boolean };
}

test('a server failure is tried three times, then pauses the provider 60 s, doubling while it goes on', async () => {
  let now = 1_000_000;
  const provider = failing(() => new MtFailure('server', 'fake: server error (503)'));
  const engine = new MtEngine([provider], { timeoutMs: 10_000, cacheDays: 0 }, () => now);
  const first = await engine.translate(store, 1, ['a'], 'en', 'es');
  assert.deepEqual(first.translations, [null]);
  assert.equal(first.unavailable, 'fake: server error (503)');
  assert.equal(provider.calls, 3);
  assert.match(engine.pausedReason('fake')!, /paused for 60 s after a server failure/);
  const paused = await engine.translate(store, 1, ['a'], 'en', 'es');
  assert.equal(provider.calls, 3, 'not asked while paused');
  assert.match(paused.unavailable!, /paused/);
  now += 61_000;
  await engine.translate(store, 1, ['a'], 'en', 'es');
  assert.match(engine.pausedReason('fake')!, /paused for 120 s/);
  now += 121_000;
  provider.fail = false;
  const ok = await engine.translate(store, 1, ['a <g id="1">b</g>'], 'en', 'es');
  assert.deepEqual(ok.translations, ['A <g id="1">b</g>']);
  assert.equal(engine.pausedReason('fake'), null);
  // After a success the count starts again.
  provider.fail = true;
  await engine.translate(store, 1, ['c'], 'en', 'es');
  assert.match(engine.pausedReason('fake')!, /paused for 60 s/);
});

test('refused credentials are not retried and pause the provider 30 minutes; a 429 pauses for its Retry-After', async () => {
  const now = 5_000_000;
  const auth = failing(() => new MtFailure('auth', 'fake: refused credentials (401)'));
  const engine = new MtEngine([auth], { timeoutMs: 10_000, cacheDays: 0 }, () => now);
  await engine.translate(store, 1, ['a'], 'en', 'es');
  assert.equal(auth.calls, 1);
  assert.match(engine.pausedReason('fake')!, /paused for 1800 s after refused credentials/);

  const rate = failing(() => new MtFailure('rate', 'fake: rate limited (429)', 300));
  const limited = new MtEngine([rate], { timeoutMs: 10_000, cacheDays: 0 }, () => now);
  await limited.translate(store, 1, ['a'], 'en', 'es');
  assert.equal(rate.calls, 1, 'a Retry-After over 2 s is not waited for within the call');
  assert.match(limited.pausedReason('fake')!, /paused for 300 s after a rate limit/);
});

test('a request the provider refuses (no pair) pauses nothing, and the next provider answers', async () => {
  const none = failing(() => new MtFailure('request', 'fake: no en→xx pair'));
  const other = failing(() => new MtFailure('server', 'x'), 'other');
  other.fail = false;
  const engine = new MtEngine([none, other], { timeoutMs: 10_000, cacheDays: 0 });
  const result = await engine.translate(store, 1, ['hi'], 'en', 'es');
  assert.equal(result.provider, 'other');
  assert.deepEqual(result.translations, ['Hi']);
  assert.equal(engine.pausedReason('fake'), null);
});
