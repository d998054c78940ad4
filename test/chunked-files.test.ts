// Files kept in chunks: stored in chunks of at most CHUNK_BYTES whatever pieces they arrive in; a file of many
// chunks is deleted whole (a chunk per statement), and only it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHUNK_BYTES, deleteChunks, readChunks, writeChunks } from '../src/store/chunked-files.ts';
import { insertTask } from '../src/tasks/queue.ts';
import { client } from './helpers/api.ts';
import { createContext, type TestContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const TASK_FILES = { table: 'task_files', owner: 'task_id' } as const;

for (const target of await storeTargets()) {
  describe(`chunked files on ${target.name}`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await createContext(target);
    });
    after(() => ctx.close());

    test('deleting a file of many chunks removes every chunk of it and none of another file', async () => {
      // The tasks below only own files: no worker may run them.
      await ctx.app.worker.stop();
      const me = (await client(ctx.app, ctx.adminKey).get('/v2/me')).json();
      const task = () =>
        insertTask(ctx.db, { organizationId: me.organization_id, type: 'export', params: {} });
      const [big, other] = [await task(), await task()];
      // 19 chunks and a half: many statements of the delete, the last chunk partial.
      const bytes = 19 * CHUNK_BYTES + CHUNK_BYTES / 2;
      const piece = Buffer.alloc(CHUNK_BYTES / 4, 'x');
      const pieces = Array.from({ length: bytes / piece.length }, () => piece);
      assert.equal(await writeChunks(ctx.db, TASK_FILES, big, pieces, 1 << 30), bytes);
      await writeChunks(ctx.db, TASK_FILES, other, [Buffer.from('kept')], 1 << 20);

      await deleteChunks(ctx.db, TASK_FILES, big);

      const left = await ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM task_files WHERE task_id = ?', [
        big,
      ]);
      assert.equal(Number(left!.n), 0);
      const kept: Buffer[] = [];
      for await (const chunk of readChunks(ctx.db, TASK_FILES, other)) kept.push(chunk);
      assert.equal(Buffer.concat(kept).toString(), 'kept');
      // A file that is not there: nothing to do, no error.
      await deleteChunks(ctx.db, TASK_FILES, big);
    });

    test('a file arriving in pieces of any size is stored in chunks of at most CHUNK_BYTES and reads back the same', async () => {
      await ctx.app.worker.stop();
      const me = (await client(ctx.app, ctx.adminKey).get('/v2/me')).json();
      const owner = await insertTask(ctx.db, {
        organizationId: me.organization_id,
        type: 'export',
        params: {},
      });
      // One piece of two chunks and a half (a body handed over whole), then pieces that straddle chunks.
      const whole = Buffer.from(Array.from({ length: 2.5 * CHUNK_BYTES }, (_, i) => i % 251));
      const small = Buffer.alloc(CHUNK_BYTES / 3 + 7, 'y');
      const pieces = [whole, small, small, small, Buffer.alloc(0), small];
      const size = whole.length + 4 * small.length;
      assert.equal(await writeChunks(ctx.db, TASK_FILES, owner, pieces, 1 << 30), size);

      const chunks: Buffer[] = [];
      for await (const chunk of readChunks(ctx.db, TASK_FILES, owner)) chunks.push(chunk);
      assert.deepEqual(
        chunks.map((c) => c.length),
        [CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, size - 3 * CHUNK_BYTES],
      );
      assert.ok(Buffer.concat(chunks).equals(Buffer.concat(pieces)));
      await deleteChunks(ctx.db, TASK_FILES, owner);
    });
  });
}
