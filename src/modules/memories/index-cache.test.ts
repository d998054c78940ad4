// Saved match indexes: start-up takes a sound file and catches up through the change log; a corrupt or
// stale file is rebuilt from the store, never used.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { INDEX_FORMAT, loadIndexFile, saveIndexFile } from '../../matching/index-file.ts';
import { MemoryIndex } from '../../matching/memory-index.ts';
import type { Db } from '../../store/db.ts';
import { migrate } from '../../store/migrate.ts';
import { openStore } from '../../store/open-store.ts';
import { bootstrap } from '../users/service.ts';
import { IndexCache, indexDirFor } from './index-cache.ts';
import * as repo from './repository.ts';

const WORDS = 'save open close file folder project user memory entry segment could not be the a of to'.split(
  ' ',
);

function sentence(i: number): string {
  const words = Array.from(
    { length: 3 + (i % 9) },
    (_, k) => WORDS[(i * 7 + k * 3 + (i >> 3)) % WORDS.length],
  );
  if (i % 17 === 0) return `%s: {${i % 3}}`;
  return `${words.join(' ')} ${i % 5 === 0 ? i : ''}.`;
}

const QUERIES = [
  'save the file could not be opened',
  'open project folder',
  'the user of the memory',
  '%s: {1}',
  'close entry segment to a',
  'file',
];

describe('saved match index', () => {
  let dataDir: string;
  let db: Db;
  let memoryId: number;
  let version = 0;
  const file = () => join(dataDir, 'match-index', `memory-${memoryId}.idx`);

  async function write(change: (rev: number) => Promise<unknown>): Promise<void> {
    version = await repo.bumpVersion(db, memoryId, 0);
    await change(version);
  }

  async function insert(i: number): Promise<number> {
    let id = 0;
    await write(async (rev) => {
      id = (
        await repo.insertEntry(db, {
          memoryId,
          source: sentence(i),
          target: `t${i}`,
          pairHash: `h${i}`,
          createdBy: null,
          rev,
        })
      ).id;
    });
    return id;
  }

  /** The answers of an index built from the store alone. */
  async function expected(): Promise<unknown[]> {
    const fresh = new IndexCache(db, { dir: null });
    const index = await fresh.get(memoryId, version);
    return QUERIES.map((q) => index.search(q, { threshold: 75, n: 5 }));
  }

  async function started(): Promise<IndexCache> {
    const cache = new IndexCache(db, { dir: indexDirFor({ dataDir }) });
    await cache.warmUp();
    const index = await cache.get(memoryId, version);
    assert.deepEqual(
      QUERIES.map((q) => index.search(q, { threshold: 75, n: 5 })),
      await expected(),
    );
    return cache;
  }

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-index-'));
    db = openStore({ dataDir, databaseUrl: undefined });
    await migrate(db);
    await bootstrap(db);
    const org = await db.get<{ id: number }>('SELECT id FROM organizations ORDER BY id LIMIT 1');
    memoryId = await repo.insertMemory(db, {
      organizationId: org!.id,
      name: 'm',
      srclang: 'en',
      trglang: 'de',
      srclocale: null,
      trglocale: null,
    });
    // More than the engine's unindexed tail, so that the file holds postings blocks.
    for (let i = 0; i < 1500; i++) await insert(i);
  });

  after(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is written beside the SQLite database at the first start, and read at the next', async () => {
    const first = await started();
    assert.equal(first.loaded.get(memoryId)?.from, 'store');
    assert.equal(first.dir, join(dataDir, 'match-index'));
    assert.ok(existsSync(file()));
    const second = await started();
    assert.equal(second.loaded.get(memoryId)?.from, 'file');
  });

  it('catches up from its version through the change log: additions, updates, deletions', async () => {
    const added = [await insert(5000), await insert(5001)];
    await write((rev) =>
      repo.updateEntry(db, added[0], {
        source: sentence(42),
        target: 'x',
        pairHash: 'hx',
        contextHash: '',
        rev,
        updatedBy: 'a',
      }),
    );
    const victim = await db.get<{ id: number }>('SELECT id FROM memory_entries WHERE memory_id = ? LIMIT 1', [
      memoryId,
    ]);
    await write((rev) => repo.deleteEntry(db, memoryId, victim!.id, rev));
    const cache = await started();
    assert.equal(cache.loaded.get(memoryId)?.from, 'file');
    const index = await cache.get(memoryId, version);
    assert.equal(index.has(victim!.id), false);
    assert.equal(index.has(added[1]), true);
    // Saved again at the version it caught up to.
    const saved = await loadIndexFile(file());
    assert.ok(saved.ok && saved.memoryVersion === version);
  });

  it('saveAll writes the indexes that moved since their file, and only those', async () => {
    const cache = await started();
    assert.equal(await cache.saveAll(), 0);
    await insert(6000);
    await cache.get(memoryId, version);
    assert.equal(await cache.saveAll(), 1);
    const saved = await loadIndexFile(file());
    assert.ok(saved.ok && saved.memoryVersion === version);
    assert.equal(await cache.saveAll(), 0);
  });

  it('a catch-up that arrives while the index is saved waits for the copy, not for the file', async () => {
    const cache = await started();
    const savedAt = version;
    const size = (await cache.get(memoryId, version)).size;
    const added = await insert(7000);
    const victim = await db.get<{ id: number }>('SELECT id FROM memory_entries WHERE memory_id = ? LIMIT 1', [
      memoryId,
    ]);
    await write((rev) => repo.deleteEntry(db, memoryId, victim!.id, rev));
    const saving = cache.save(memoryId);
    // Asked for the new version while the save copies the index: caught up after the copy.
    const index = await cache.get(memoryId, version);
    assert.deepEqual(
      QUERIES.map((q) => index.search(q, { threshold: 75, n: 5 })),
      await expected(),
    );
    await saving;
    // The file holds the index as it was when the save began.
    const saved = await loadIndexFile(file());
    assert.ok(saved.ok && saved.memoryVersion === savedAt);
    assert.equal(saved.index.has(added), false);
    assert.equal(saved.index.has(victim!.id), true);
    assert.equal(saved.index.size, size);
    assert.equal(index.has(victim!.id), false);
  });

  it('a corrupt file (checksum) is rebuilt, never used', async () => {
    const bytes = readFileSync(file());
    bytes[bytes.length >> 1] ^= 0x5a;
    writeFileSync(file(), bytes);
    assert.deepEqual(await loadIndexFile(file()), { ok: false, reason: 'checksum' });
    const cache = await started();
    assert.deepEqual(
      { from: cache.loaded.get(memoryId)?.from, reason: cache.loaded.get(memoryId)?.reason },
      { from: 'store', reason: 'checksum' },
    );
    assert.ok((await loadIndexFile(file())).ok, 'the rebuilt index is saved');
  });

  it('a truncated file or one that is not an index is rebuilt', async () => {
    const bytes = readFileSync(file());
    writeFileSync(file(), bytes.subarray(0, bytes.length - 1000));
    assert.equal((await started()).loaded.get(memoryId)?.from, 'store');
    writeFileSync(file(), 'hello');
    assert.equal((await started()).loaded.get(memoryId)?.reason, 'damaged');
    assert.equal((await started()).loaded.get(memoryId)?.from, 'file');
  });

  it('a file of another format (a stale engine version) is rebuilt', async () => {
    const bytes = readFileSync(file());
    const headerLength = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString('utf8', 16, 16 + headerLength)) as { format: number };
    assert.equal(header.format, INDEX_FORMAT);
    const other = Buffer.from(JSON.stringify({ ...header, format: INDEX_FORMAT + 1 }));
    const body = bytes.subarray(16 + headerLength);
    const preamble = Buffer.from(bytes.subarray(0, 16));
    preamble.writeUInt32LE(other.length, 8);
    preamble.writeUInt32LE(crc32(body, crc32(other)) >>> 0, 12);
    writeFileSync(file(), Buffer.concat([preamble, other, body]));
    assert.equal(((await loadIndexFile(file())) as { reason: string }).reason, 'format');
    const cache = await started();
    assert.deepEqual(
      { from: cache.loaded.get(memoryId)?.from, reason: cache.loaded.get(memoryId)?.reason },
      { from: 'store', reason: 'format' },
    );
  });

  it('a file ahead of the store (a database restored from an older copy) is rebuilt', async () => {
    const loaded = await loadIndexFile(file());
    assert.ok(loaded.ok);
    await saveIndexFile(file(), loaded.index, version + 10);
    const cache = await started();
    assert.deepEqual(
      { from: cache.loaded.get(memoryId)?.from, reason: cache.loaded.get(memoryId)?.reason },
      { from: 'store', reason: 'ahead of the store' },
    );
  });

  it('a deleted memory loses its file', async () => {
    const cache = await started();
    cache.drop(memoryId);
    for (let i = 0; i < 50 && existsSync(file()); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(existsSync(file()), false);
  });
});

describe('index file round trip', () => {
  it('is a snapshot: changes and queries once it is taken, while the file is written, do not reach it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-index-'));
    try {
      const index = new MemoryIndex();
      for (let i = 0; i < 2500; i++) index.add(i + 1, sentence(i), i % 13);
      index.refresh();
      const search = (x: MemoryIndex) => QUERIES.map((q) => x.search(q, { threshold: 75, n: 10 }));
      const before = search(index);
      const path = join(dir, 'x.idx');
      // The state is copied in slices first (searches may run between them); changes wait for onSnapshot.
      let taken!: () => void;
      const snapshot = new Promise<void>((resolve) => {
        taken = resolve;
      });
      const writing = saveIndexFile(path, index, 3, { onSnapshot: taken });
      search(index);
      await snapshot;
      for (let i = 0; i < 2500; i += 2) index.remove(i + 1);
      for (let i = 0; i < 1200; i++) index.add(10_000 + i, sentence(i * 5), 99);
      index.refresh();
      search(index);
      await writing;
      const loaded = await loadIndexFile(path);
      assert.ok(loaded.ok);
      assert.deepEqual(search(loaded.index), before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('vocabulary written in many chunks and the texts (empty ones among them) come back whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-index-'));
    try {
      const index = new MemoryIndex();
      for (let i = 0; i < 1200; i++) index.add(i + 1, i % 10 === 0 ? '' : sentence(i), 1);
      index.refresh();
      const path = join(dir, 'x.idx');
      await saveIndexFile(path, index, 1, { chunkChars: 40 });
      const loaded = await loadIndexFile(path);
      assert.ok(loaded.ok);
      const vocabulary = (x: MemoryIndex) => x.toParts().strings;
      assert.deepEqual(vocabulary(loaded.index), vocabulary(index));
      // The texts (in the index's text pool): every non-empty one is found again as an exact match.
      const restored: MemoryIndex = loaded.index;
      for (let i = 1; i < 1200; i += 7) {
        if (i % 10 === 0) continue;
        const found = restored.search(sentence(i), { threshold: 100, n: 1 });
        assert.equal(found[0]?.score, 100, sentence(i));
        assert.deepEqual(found, index.search(sentence(i), { threshold: 100, n: 1 }));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers exactly as the index it was saved from, and keeps taking changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-index-'));
    try {
      const index = new MemoryIndex();
      for (let i = 0; i < 3000; i++) index.add(i + 1, sentence(i), i % 13);
      for (let i = 0; i < 3000; i += 11) index.remove(i + 1);
      index.refresh();
      const path = join(dir, 'x.idx');
      await saveIndexFile(path, index, 7);
      const loaded = await loadIndexFile(path);
      assert.ok(loaded.ok);
      assert.equal(loaded.memoryVersion, 7);
      const search = (x: MemoryIndex) => QUERIES.map((q) => x.search(q, { threshold: 75, n: 10 }));
      assert.deepEqual(search(loaded.index), search(index));
      for (let i = 3000; i < 4500; i++) {
        loaded.index.add(i + 1, sentence(i), 20);
        index.add(i + 1, sentence(i), 20);
      }
      for (let i = 1; i < 4500; i += 3) {
        loaded.index.remove(i + 1);
        index.remove(i + 1);
      }
      assert.deepEqual(search(loaded.index), search(index));
      assert.equal(loaded.index.size, index.size);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('indexDirFor', () => {
  it('is the data dir for the embedded store, and a folder per database for PostgreSQL', () => {
    assert.equal(indexDirFor({ dataDir: '/srv/t' }), join('/srv/t', 'match-index'));
    const a = indexDirFor({ dataDir: '/srv/t', databaseUrl: 'postgres://db1/tessera' });
    const b = indexDirFor({ dataDir: '/srv/t', databaseUrl: 'postgres://db2/tessera' });
    assert.match(a, /^\/srv\/t\/match-index\/[0-9a-f]{16}$/);
    assert.notEqual(a, b);
  });
});
