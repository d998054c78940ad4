// Limits and settings on every store: enabled languages, the body size limit, the rate limit per key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { openStore } from '../src/store/open-store.ts';
import { basic, createContext, type TestContext, userKey } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`limits and settings on ${target.name}`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await createContext(target, {
        TESSERA_LANGUAGES: 'en,de,fr',
        TESSERA_RATE_LIMIT: '3',
        TESSERA_MAX_UPLOAD_BYTES: '2048',
      });
    });
    after(() => ctx.close());

    test('TESSERA_LANGUAGES restricts pairs and names', async () => {
      const body = (await ctx.app.inject({ url: `/v2/languages?key=${ctx.adminKey}` })).json();
      assert.deepEqual(body, {
        source_to_target: {
          de: { en: true, fr: true },
          en: { de: true, fr: true },
          fr: { de: true, en: true },
        },
        code_to_name: { de: 'German', en: 'English', fr: 'French' },
      });
    });

    test('a body over the limit → 413', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v2/keys',
        headers: { authorization: `Bearer ${ctx.adminKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(4000) }),
      });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().code, 'PAYLOAD_TOO_LARGE');
    });

    test('rate limit per key: 429 with Retry-After; other keys unaffected', async () => {
      const key = await userKey(ctx, { username: 'rl', password: 'password1', role: 'member' });
      const other = await userKey(ctx, { username: 'rl2', password: 'password1', role: 'member' });
      for (let i = 0; i < 3; i++)
        assert.equal((await ctx.app.inject({ url: `/v2?key=${key}` })).statusCode, 200);
      const limited = await ctx.app.inject({ url: `/v2?key=${key}` });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'RATE_LIMITED');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.equal((await ctx.app.inject({ url: `/v2?key=${other}` })).statusCode, 200);
    });

    test('failed sign-ins are throttled per user name and per client address: a guess cannot be confirmed', async () => {
      await userKey(ctx, { username: 'guessed', password: 'the right one', role: 'member' });
      await userKey(ctx, { username: 'bystander', password: 'another right one', role: 'member' });
      const as = (user: string, password: string, address = '10.0.0.1') =>
        ctx.app.inject({
          url: '/v2/me',
          headers: { authorization: basic(user, password) },
          remoteAddress: address,
        });
      for (let i = 0; i < 10; i++) assert.equal((await as('guessed', `wrong ${i}`)).statusCode, 401);
      // Throttled now, even with the right password, from anywhere.
      const throttled = await as('guessed', 'the right one', '10.0.0.2');
      assert.equal(throttled.statusCode, 429);
      assert.equal(throttled.json().code, 'TOO_MANY_FAILED_SIGN_INS');
      assert.ok(Number(throttled.headers['retry-after']) >= 1);
      assert.equal((await as('bystander', 'another right one')).statusCode, 200, 'other users are not');
      // An address guessing many names is throttled as an address.
      for (let i = 0; i < 50; i++) await as(`nobody${i}`, 'x', '10.0.0.3');
      assert.equal((await as('bystander', 'another right one', '10.0.0.3')).statusCode, 429);
      const keyGuess = await ctx.app.inject({
        url: '/v2/me?key=tsk_wrong-key-0123456789',
        remoteAddress: '10.0.0.3',
      });
      assert.equal(keyGuess.statusCode, 429, 'key guesses from that address too');
    });
  });
}

for (const target of (await storeTargets()).filter((t) => t.name === 'postgres')) {
  describe('limits shared by two instances on one PostgreSQL store', () => {
    test('one key gets its limit across both instances, not per instance', async () => {
      const ctx = await createContext(target, { TESSERA_RATE_LIMIT: '4' });
      const other = await buildApp({ config: ctx.config, db: openStore(ctx.config) });
      try {
        await other.ready();
        const key = await userKey(ctx, { username: 'shared', password: 'password1', role: 'member' });
        const codes: number[] = [];
        for (let i = 0; i < 6; i++) {
          const app = i % 2 === 0 ? ctx.app : other;
          codes.push((await app.inject({ url: `/v2?key=${key}` })).statusCode);
        }
        assert.deepEqual(codes, [200, 200, 200, 200, 429, 429]);
      } finally {
        await other.close();
        await ctx.close();
      }
    });
  });
}
