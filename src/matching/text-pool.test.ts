import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConcordanceIndex } from './concordance.ts';
import { loadIndexFile, saveIndexFile } from './index-file.ts';
import { MemoryIndex } from './memory-index.ts';
import { bruteForceSearch, type OracleEntry } from './oracle.ts';
import { TextPool } from './text-pool.ts';

// Texts that a byte pool could get wrong: Latin-1 at the one-byte edge, code units just above it, lone
// surrogates of either half, astral characters (emoji, CJK Extension B), and empty texts between others.
const TRICKY = [
  'Save the file',
  '',
  'Café crème, ÿ and ß',
  'Ā just above Latin-1: ÿĀ',
  'lone high \uD800 surrogate file',
  'lone low \uDC00 surrogate file',
  'ends on a lone high surrogate file \uDBFF',
  '\uDFFF file starts on a lone low surrogate',
  'emoji 😀 file 👍🏽 here',
  'CJK Ext-B 𠀋𠂢 file 𪚲',
  '',
  '保存文件 file 保存',
  'x',
];

describe('TextPool', () => {
  it('gives back every text exactly, code unit for code unit, and compares in place', () => {
    const pool = new TextPool();
    for (const t of TRICKY) pool.push(t);
    assert.deepEqual(
      TRICKY.map((_, i) => pool.text(i)),
      TRICKY,
    );
    TRICKY.forEach((t, i) => {
      assert.ok(pool.equals(i, t), `text ${i} equals itself`);
      assert.ok(!pool.equals(i, `${t} `), `text ${i} differs from a longer text`);
      if (t.length > 0) assert.ok(!pool.equals(i, t.slice(0, -1)), `text ${i} differs from a prefix`);
    });
    // The same length, one code unit apart (another lone surrogate, a wide unit for a one-byte one).
    assert.ok(!pool.equals(4, TRICKY[4].replace('\uD800', '\uD801')));
    assert.ok(!pool.equals(2, TRICKY[2].replace('ÿ', 'Ÿ')));
  });

  it('loses no text added while a trim is under way', () => {
    const pool = new TextPool();
    const big = 'x'.repeat(1000);
    for (let i = 0; i < 40_000; i++) pool.push(`${big} ${i}`);
    const kept = new TextPool();
    for (let i = 0; i < pool.count; i += 2) kept.copyFrom(pool, i);
    // Slack after growth by doubling: the trim has something to copy, in more than one slice.
    const trim = kept.trim();
    assert.equal(trim.next().done, false);
    kept.push('added during the trim');
    for (let step = trim.next(); !step.done; step = trim.next());
    assert.equal(kept.count, 20_001);
    assert.equal(kept.text(0), `${big} 0`);
    assert.equal(kept.text(19_999), `${big} 39998`);
    assert.equal(kept.text(20_000), 'added during the trim');
  });

  it('grows past its first allocation and keeps texts copied from another pool', () => {
    const pool = new TextPool();
    const texts = Array.from({ length: 5000 }, (_, i) => `${TRICKY[i % TRICKY.length]} ${i}`);
    for (const t of texts) pool.push(t);
    const copy = new TextPool();
    for (let i = 0; i < texts.length; i += 3) copy.copyFrom(pool, i);
    for (const _ of copy.trim());
    const kept = texts.filter((_, i) => i % 3 === 0);
    assert.equal(copy.count, kept.length);
    assert.deepEqual(
      kept.map((_, i) => copy.text(i)),
      kept,
    );
    const restored = TextPool.restore(copy.toParts());
    restored.push('after 😀 restore');
    assert.deepEqual(
      [...kept, 'after 😀 restore'].map((_, i) => restored.text(i)),
      [...kept, 'after 😀 restore'],
    );
  });
});

/** Each tricky text searched for: its exact matches, and everything the oracle finds. */
function checkAgainstOracle(index: MemoryIndex, entries: OracleEntry[]): void {
  const opts = { threshold: 75, n: entries.length };
  for (const source of new Set(entries.map((e) => e.source))) {
    if (source.trim() === '') continue;
    const found = index.search(source, opts);
    assert.deepEqual(found, bruteForceSearch(entries, source, opts), source);
    const exact = found.filter((m) => m.matchType === 'exact').map((m) => m.id);
    const same = entries.filter((x) => x.source === source).map((x) => x.id);
    assert.deepEqual(exact.sort(), same.sort(), `exact copies of ${JSON.stringify(source)}`);
  }
}

function trickyEntries(copies: number): OracleEntry[] {
  const entries: OracleEntry[] = [];
  for (let c = 0; c < copies; c++)
    for (const source of TRICKY) entries.push({ id: entries.length + 1, source, updatedAt: c % 5 });
  return entries;
}

describe('MemoryIndex over tricky texts', () => {
  it('finds each text exactly, and scores as the oracle does', () => {
    const entries = trickyEntries(2);
    const index = new MemoryIndex();
    for (const e of entries) index.add(e.id, e.source, e.updatedAt);
    checkAgainstOracle(index, entries);
  });

  it('keeps the texts right after removals and compaction renumber the slots', () => {
    // Enough removals to compact (at least 1024, over a quarter of the slots).
    const entries = trickyEntries(300);
    const index = new MemoryIndex();
    for (const e of entries) index.add(e.id, e.source, e.updatedAt);
    index.refresh();
    const kept = entries.filter((e) => e.id % 3 === 0);
    for (const e of entries) if (e.id % 3 !== 0) assert.ok(index.remove(e.id));
    index.refresh();
    // Re-added texts land after the compacted slots.
    const readded = entries.slice(0, TRICKY.length).map((e) => ({ ...e, id: e.id + 100_000 }));
    for (const e of readded) index.add(e.id, e.source, e.updatedAt);
    checkAgainstOracle(index, [...kept, ...readded]);
  });

  it('answers the same after a save and load of the index file, and takes new entries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-texts-'));
    try {
      const entries = trickyEntries(120);
      const index = new MemoryIndex();
      for (const e of entries) index.add(e.id, e.source, e.updatedAt);
      index.refresh();
      for (const e of entries.slice(0, 40)) index.remove(e.id);
      const path = join(dir, 'x.idx');
      await saveIndexFile(path, index, 1);
      const loaded = await loadIndexFile(path);
      assert.ok(loaded.ok);
      const live = entries.slice(40);
      checkAgainstOracle(loaded.index, live);
      const added = TRICKY.map((source, i) => ({ id: 200_000 + i, source: `${source} new`, updatedAt: 9 }));
      for (const e of added) loaded.index.add(e.id, e.source, e.updatedAt);
      checkAgainstOracle(loaded.index, [...live, ...added]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ConcordanceIndex over tricky texts', () => {
  /** Each hit as "id: highlighted pieces", the pieces cut from the texts as given. */
  const show = (index: ConcordanceIndex, texts: Map<number, string>, query: string) =>
    index
      .search(query, 100)
      .map((h) => `${h.id}: ${h.offsets.map(([a, b]) => texts.get(h.id)!.slice(a, b)).join(' | ')}`);
  const withFile = TRICKY.map((t, i) => [i + 1, t] as const).filter(([, t]) => / file\b/.test(t));

  it('highlights words beside surrogates and astral characters, in texts kept as they were added', () => {
    const texts = new Map(TRICKY.map((t, i) => [i + 1, t]));
    const index = new ConcordanceIndex();
    for (const [id, t] of texts) index.add(id, t);
    const hits = show(index, texts, 'file');
    assert.deepEqual(hits.toSorted(), withFile.map(([id]) => `${id}: file`).toSorted());
    assert.equal(show(index, texts, '😀 file')[0], '9: 😀 file', 'the query text first');
    assert.equal(show(index, texts, '\uD800 surrogate')[0], '5: \uD800 surrogate', 'the query text first');
  });

  it('and after removals and compaction', () => {
    const texts = new Map<number, string>();
    for (let c = 0; c < 300; c++) for (const [i, t] of TRICKY.entries()) texts.set(c * 100 + i + 1, t);
    const index = new ConcordanceIndex();
    for (const [id, t] of texts) index.add(id, t);
    index.refresh();
    for (const id of [...texts.keys()]) if (id > 100) texts.delete(id) && index.remove(id);
    index.refresh();
    const hits = show(index, texts, 'file');
    assert.deepEqual(hits.toSorted(), withFile.map(([id]) => `${id}: file`).toSorted());
    assert.equal(show(index, texts, '𠀋𠂢 file')[0], '10: 𠀋𠂢 file', 'the query text first');
  });
});
