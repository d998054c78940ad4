// A restarted server reads its memories' saved match indexes instead of rebuilding them from the store: the
// clean shutdown saves what changed, the next start loads the file and answers exactly as before. On both
// stores (PostgreSQL keeps its files in the instance's data dir, per database).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { indexDirFor } from '../src/modules/memories/index-cache.ts';
import { client } from './helpers/api.ts';
import { createContext } from './helpers/context.ts';
import { storeTargets } from './helpers/stores.ts';

const ENTRIES = Array.from({ length: 2500 }, (_, i) => [
  `Step ${i} of the guide explains option ${i % 97} in the settings.`,
  `Schritt ${i} der Anleitung erklärt Option ${i % 97} in den Einstellungen.`,
]);
const QUERIES = ['Step 12 of the guide explains option 12 in the settings', 'Step 7 explains the settings.'];

for (const target of await storeTargets()) {
  describe(`saved match indexes on ${target.name}`, () => {
    test('an import saves the index, so does shutdown; the next start loads it and answers the same', async () => {
      const ctx = await createContext(target);
      let second: Awaited<ReturnType<typeof buildApp>> | undefined;
      try {
        const api = client(ctx.app, ctx.adminKey);
        const memory = (await api.post('/v2/memories', { name: 'm', srclang: 'en', trglang: 'de' })).json();
        const tmx = `<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="t" creationtool="t" creationtoolversion="1"/><body>${ENTRIES.map(([s, t]) => `<tu><tuv xml:lang="en"><seg>${s}</seg></tuv><tuv xml:lang="de"><seg>${t}</seg></tuv></tu>`).join('\n')}</body></tmx>`;
        const imported = await api.upload('/v2/memories/import', tmx, {
          'lilt-api': JSON.stringify({ memory_id: memory.id, name: 'guide.tmx' }),
        });
        assert.equal((await api.waitForTask(imported.json().job_id)).state, 'succeeded');
        const query = async (app: typeof ctx.app, q: string) =>
          (
            await client(app, ctx.adminKey).get(
              `/v2/memories/query?id=${memory.id}&query=${encodeURIComponent(q)}&n=10`,
            )
          ).json();
        // The import's entries go into the index and its file right after the import, before any query.
        const file = join(indexDirFor(ctx.config), `memory-${memory.id}.idx`);
        for (let i = 0; !existsSync(file); i++) {
          assert.ok(i < 2000, `${file} written after the import`);
          await new Promise((r) => setTimeout(r, 10));
        }
        const before = await Promise.all(QUERIES.map((q) => query(ctx.app, q)));
        assert.ok(before[0].length > 0);

        // An entry added by hand after the file was written: the shutdown saves the index again.
        const added = await api.post('/v2/segments', {
          memory_id: memory.id,
          source: 'A sentence added by hand.',
          target: 'Ein Satz von Hand.',
        });
        assert.equal(added.statusCode, 200, added.body);
        await query(ctx.app, 'A sentence added by hand.');
        await ctx.app.close();

        second = await buildApp({ config: ctx.config, db: ctx.db });
        await second.ready();
        while (!second.indexes.warm) await new Promise((r) => setTimeout(r, 5));
        // The file is the one written at shutdown: it already holds the entry added after the import.
        const current = (await client(second, ctx.adminKey).get(`/v2/memories?id=${memory.id}`)).json()[0];
        assert.deepEqual(
          [second.indexes.loaded.get(memory.id)?.from, second.indexes.loaded.get(memory.id)?.version],
          ['file', current.version],
        );
        assert.deepEqual(await Promise.all(QUERIES.map((q) => query(second!, q))), before);
        assert.equal((await query(second, 'A sentence added by hand.'))[0]?.score, 100);
      } finally {
        await second?.close();
        await ctx.close();
      }
    });

    test('a saved file that cannot be used is rebuilt, and the log says which file and why (warn)', async () => {
      const ctx = await createContext(target);
      let second: Awaited<ReturnType<typeof buildApp>> | undefined;
      try {
        const api = client(ctx.app, ctx.adminKey);
        const memory = (await api.post('/v2/memories', { name: 'm', srclang: 'en', trglang: 'de' })).json();
        for (const [source, target] of ENTRIES.slice(0, 50)) {
          await api.post('/v2/segments', { memory_id: memory.id, source, target });
        }
        // Queried, the index is built; the shutdown saves it.
        await api.get(`/v2/memories/query?id=${memory.id}&query=${encodeURIComponent(ENTRIES[0][0])}`);
        await ctx.app.close();
        const file = join(indexDirFor(ctx.config), `memory-${memory.id}.idx`);
        const bytes = readFileSync(file);
        bytes[bytes.length >> 1] ^= 0x5a;
        writeFileSync(file, bytes);

        let log = '';
        const logStream = new Writable({
          write(chunk, _enc, done) {
            log += chunk.toString();
            done();
          },
        });
        second = await buildApp({ config: ctx.config, db: ctx.db, logStream });
        await second.ready();
        while (!second.indexes.warm) await new Promise((r) => setTimeout(r, 5));
        assert.equal(second.indexes.loaded.get(memory.id)?.from, 'store');
        const lines = log
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
        const warned = lines.find((l) => l.memoryId === memory.id && l.file === file);
        assert.ok(warned, log);
        assert.equal(warned.level, 40);
        assert.equal(warned.reason, 'checksum');
        assert.match(
          warned.msg,
          new RegExp(`saved index file .*memory-${memory.id}\\.idx not used \\(checksum\\)`),
        );
      } finally {
        await second?.close();
        await ctx.close();
      }
    });
  });
}
