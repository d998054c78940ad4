// The MT usage counters added up in memory and written in batches (src/modules/mt/usage-buffer.ts), on both
// stores: calls of one period summed into one write, written by the timer without any reader asking, kept
// through a store that refuses the write, and the rest written at close.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { monthUsageOf, usageOf } from '../src/modules/mt/repository.ts';
import { UsageBuffer } from '../src/modules/mt/usage-buffer.ts';
import type { Db } from '../src/store/db.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const apertium = { id: 0, name: 'apertium' };

for (const target of await storeTargets()) {
  describe(`MT usage buffer (${target.name})`, () => {
    let ctx: TestContext;
    let org: number;
    before(async () => {
      ctx = await createContext(target);
      org = (await ctx.db.get<{ id: number }>('SELECT id FROM organizations ORDER BY id LIMIT 1'))!.id;
    });
    after(async () => ctx.close());

    test('the calls of a period are summed and written once, per engine and month', async () => {
      const buffer = new UsageBuffer(ctx.db, 60_000);
      buffer.add(org, '2026-10', apertium, { characters: 10, cachedCharacters: 0 });
      buffer.add(org, '2026-10', apertium, { characters: 0, cachedCharacters: 7 });
      buffer.add(org, '2026-10', { id: 0, name: 'other' }, { characters: 3, cachedCharacters: 0 });
      assert.deepEqual(await monthUsageOf(ctx.db, org, '2026-10'), [], 'nothing written before the flush');
      await buffer.flush();
      const months = await monthUsageOf(ctx.db, org, '2026-10');
      assert.deepEqual(
        months.map((m) => [m.engine, m.characters, m.cached_characters, m.requests]),
        [
          ['apertium', 10, 7, 2],
          ['other', 3, 0, 1],
        ],
      );
      buffer.add(org, '2026-10', apertium, { characters: 5, cachedCharacters: 1 });
      await buffer.close();
      const again = (await monthUsageOf(ctx.db, org, '2026-10')).find((m) => m.engine === 'apertium')!;
      assert.deepEqual(
        [again.characters, again.cached_characters, again.requests],
        [15, 8, 3],
        'close writes the rest',
      );
      const total = (await usageOf(ctx.db, org)).find((u) => u.provider === 'apertium')!;
      assert.deepEqual([total.characters, total.cached_characters, total.requests], [15, 8, 3]);
    });

    test('the timer writes the counts without anyone reading them', async () => {
      const buffer = new UsageBuffer(ctx.db, 50);
      buffer.add(org, '2026-09', apertium, { characters: 4, cachedCharacters: 0 });
      for (let i = 0; i < 100; i++) {
        if ((await monthUsageOf(ctx.db, org, '2026-09')).length > 0) break;
        await sleep(20);
      }
      assert.deepEqual(
        (await monthUsageOf(ctx.db, org, '2026-09')).map((m) => [m.characters, m.requests]),
        [[4, 1]],
      );
      await buffer.close();
    });

    test('a store that refuses the write loses nothing: the counts wait for the next flush', async () => {
      let refuse = true;
      const flaky = {
        transaction: (fn: Parameters<Db['transaction']>[0]) =>
          refuse ? Promise.reject(new Error('the store is read-only')) : ctx.db.transaction(fn),
      } as unknown as Db;
      const errors: unknown[] = [];
      const buffer = new UsageBuffer(flaky, 60_000, (err) => errors.push(err));
      buffer.add(org, '2026-08', apertium, { characters: 6, cachedCharacters: 0 });
      await assert.rejects(buffer.flush(), /read-only/);
      buffer.add(org, '2026-08', apertium, { characters: 1, cachedCharacters: 2 });
      refuse = false;
      await buffer.flush();
      assert.deepEqual(
        (await monthUsageOf(ctx.db, org, '2026-08')).map((m) => [
          m.characters,
          m.cached_characters,
          m.requests,
        ]),
        [[7, 2, 2]],
      );
      await buffer.close();
    });
  });
}
