// The failed sign-in throttle: its sliding window (a window's end neither resets a guesser's count nor
// doubles their attempts), and keys counted apart from passwords.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { MemoryCounters } from './counters.ts';
import { blockedFor, MAX_KEY_FAILURES_PER_ADDRESS, SignInThrottle } from './sign-in-throttle.ts';

const W = 300_000;

test('blockedFor: under the limit 0; at it, until the sliding count is under the limit again', () => {
  assert.equal(blockedFor({ count: 9, previous: 0, resetMs: 1000 }, 10), 0);
  // Ten in this window: refused to its end, then until a tenth of the next has passed (9 of 10 left).
  assert.equal(blockedFor({ count: 10, previous: 0, resetMs: 60_000 }, 10), 60_000 + W / 10);
  // Just past a window's end, the previous ten still count.
  assert.equal(blockedFor({ count: 0, previous: 10, resetMs: W - 1000 }, 10), W - 1000 - (W * 9) / 10);
  // A third of the way into the next window, seven of them do.
  assert.equal(blockedFor({ count: 0, previous: 10, resetMs: (W * 2) / 3 }, 10), 0);
  assert.ok(blockedFor({ count: 3, previous: 10, resetMs: (W * 2) / 3 }, 10) > 0);
});

test('the throttle holds across a window’s end and lets go as the failures age', async () => {
  mock.timers.enable({ apis: ['Date'], now: 10 * W - 5_000 });
  try {
    const throttle = new SignInThrottle(new MemoryCounters());
    const ada = { address: '10.0.0.1', username: 'ada' };
    const wrong = async () => null;
    const right = async () => 'signed in';
    for (let i = 0; i < 10; i++) assert.equal(await throttle.guard(ada, wrong), null);
    await assert.rejects(throttle.guard(ada, right), { status: 429 });
    mock.timers.tick(10_000); // into the next fixed window
    await assert.rejects(throttle.guard(ada, right), { status: 429 });
    mock.timers.tick(W / 10); // a tenth of that window: nine of the ten still count
    assert.equal(await throttle.guard(ada, right), 'signed in');
    assert.equal(await throttle.guard({ address: '10.0.0.2', username: 'grace' }, right), 'signed in');
  } finally {
    mock.timers.reset();
  }
});

test('a valid key passes whatever failed from its address; a wrong one is refused past the limits', async () => {
  const throttle = new SignInThrottle(new MemoryCounters());
  const from = (key: string) => ({ address: '10.0.0.3', key });
  for (let i = 0; i < MAX_KEY_FAILURES_PER_ADDRESS; i++) {
    assert.equal(await throttle.guard(from(`wrong-${i}`), async () => null), null);
  }
  await assert.rejects(
    throttle.guard(from('wrong-again'), async () => null),
    { status: 429 },
  );
  assert.equal(await throttle.guard(from('valid'), async () => 'principal'), 'principal');
  // Passwords from that address are counted apart.
  assert.equal(await throttle.guard({ address: '10.0.0.3', username: 'ada' }, async () => 'ok'), 'ok');
});
