// The pair (bigram) prefix filter and the wordless index are lossless on their own: cases built to sit
// exactly on the pair bound (a match keeping exactly one of the query's pairs), and random memories.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prng } from '../../bench/corpus.ts';
import { MemoryIndex } from './memory-index.ts';
import { bruteForceSearch, type OracleEntry } from './oracle.ts';
import { maxDistance } from './score.ts';

type Mode = 'auto' | 'pairs' | 'tokens';
const MODES: Mode[] = ['auto', 'pairs', 'tokens'];

function indexOf(entries: OracleEntry[], mode: Mode): MemoryIndex {
  const index = new MemoryIndex();
  index.filter = mode;
  for (const e of entries) index.add(e.id, e.source, e.updatedAt);
  index.refresh();
  return index;
}

function check(entries: OracleEntry[], queries: string[], thresholds: number[], ns: number[]): number {
  const indexes = MODES.map((mode) => ({ mode, index: indexOf(entries, mode) }));
  let matched = 0;
  for (const query of queries) {
    for (const threshold of thresholds) {
      for (const n of ns) {
        const expected = bruteForceSearch(entries, query, { threshold, n });
        if (expected.length > 0) matched++;
        for (const { mode, index } of indexes)
          assert.deepEqual(
            index.search(query, { threshold, n }),
            expected,
            `${mode}: ${JSON.stringify(query)} at ${threshold}, n ${n}`,
          );
      }
    }
  }
  return matched;
}

const word = (i: number) => `w${i.toString(36)}`;

/**
 * Entries that match nothing, so that a memory has more than the 1024 recent entries every query scans
 * (the unindexed tail): the filters, not the scan, must find the matches.
 */
function filler(from: number): OracleEntry[] {
  return Array.from({ length: 1100 }, (_, i) => ({
    id: from + i,
    source: `zz${i} yy${i} xx${i}`,
    updatedAt: 0,
  }));
}

/**
 * For a query of L distinct words and a threshold T, candidates of every length in the window whose
 * distance is exactly k = maxDistance(max(L, Lc), T), with the edits spread so that each breaks two of
 * the query's pairs (substitutions two apart) or one (insertions): when L = 2k + 2 exactly one pair is
 * left, and it is made the most common pair of the memory, so that it is the last one the filter reads.
 */
function onTheBound(L: number, T: number, rand: () => number): { entries: OracleEntry[]; query: string } {
  const q = Array.from({ length: L }, (_, i) => word(1000 + L * 100 + i));
  const entries: string[] = [];
  const fresh = () => word(5000 + entries.length * 7 + Math.floor(rand() * 5));
  for (let Lc = Math.ceil((T * L) / 100); Lc <= Math.floor((100 * L) / T); Lc++) {
    const k = maxDistance(Math.max(L, Lc), T);
    for (let variant = 0; variant < 4; variant++) {
      const c = [...q];
      // Length first (insertions or deletions), then substitutions up to k edits in all.
      let edits = 0;
      while (c.length < Lc) {
        c.splice(1 + Math.floor(rand() * (c.length - 1)), 0, fresh());
        edits++;
      }
      while (c.length > Lc) {
        c.splice(Math.floor(rand() * c.length), 1);
        edits++;
      }
      const start = variant % 2;
      for (let at = start; edits < k && at < c.length; at += 2) {
        c[at] = fresh();
        edits++;
      }
      entries.push(c.join(' '));
    }
  }
  // The last pair of the query is the most common in the memory, the others rare.
  for (let i = 0; i < 60; i++) entries.push(`${fresh()} ${q[L - 2]} ${q[L - 1]} ${fresh()} ${fresh()}`);
  for (let i = 0; i < 30; i++) entries.push(`${q[0]} ${fresh()} ${fresh()}`);
  return {
    query: q.join(' '),
    entries: [...entries.map((source, i) => ({ id: i + 1, source, updatedAt: i % 3 })), ...filler(100_000)],
  };
}

describe('pair filter on the bound', () => {
  it('L = 2k + 2 and around it, every threshold, every filter', () => {
    const rand = prng(7);
    let matched = 0;
    for (const T of [75, 80, 88, 95]) {
      for (let L = 2; L <= 14; L++) {
        const { entries, query } = onTheBound(L, T, rand);
        matched += check(entries, [query], [T, Math.min(99, T + 5)], [1, 3, 1000]);
      }
    }
    assert.ok(matched > 100, `only ${matched} answers were not empty`);
  });

  it('one substitution in a four-word query keeps one pair and scores 75 exactly', () => {
    const entries: OracleEntry[] = [
      { id: 1, source: 'alpha beta gamma delta', updatedAt: 0 },
      { id: 2, source: 'alpha zeta gamma delta', updatedAt: 0 },
      ...Array.from({ length: 50 }, (_, i) => ({
        id: 3 + i,
        source: `x${i} gamma delta y${i}`,
        updatedAt: 0,
      })),
      ...filler(1000),
    ];
    const query = 'alpha beta gamma omega';
    for (const mode of MODES) {
      const index = indexOf(entries, mode);
      const found = index.search('alpha beta gamma delta', { threshold: 75, n: 10 });
      assert.deepEqual(
        found.map((m) => [m.id, m.score]),
        [
          [1, 100],
          [2, 75],
        ],
      );
      assert.deepEqual(
        index.search(query, { threshold: 75, n: 10 }),
        bruteForceSearch(entries, query, { threshold: 75, n: 10 }),
      );
    }
  });

  it('repeated pairs and unknown words in the query', () => {
    const rand = prng(11);
    const vocab = Array.from({ length: 12 }, (_, i) => word(i));
    const pick = () => vocab[Math.floor(rand() * vocab.length)];
    const sources = Array.from({ length: 1600 }, () =>
      Array.from({ length: 1 + Math.floor(rand() * 12) }, pick).join(' '),
    );
    const entries = sources.map((source, i) => ({ id: i + 1, source, updatedAt: i % 5 }));
    const queries = Array.from({ length: 60 }, (_, i) => {
      const parts = sources[Math.floor(rand() * sources.length)].split(' ');
      if (i % 3 === 0) parts.splice(Math.floor(rand() * parts.length), 0, 'unknownword');
      if (i % 4 === 0) parts.push(...parts.slice(0, 2));
      if (i % 5 === 0) parts[Math.floor(rand() * parts.length)] = pick();
      return parts.join(' ');
    });
    const matched = check(entries, queries, [75, 85, 95], [1, 10]);
    assert.ok(matched > 60, `only ${matched} answers were not empty`);
  });

  it('a block holding most keys finds postings by key, a block holding few by search: both answer alike', () => {
    const rand = prng(5);
    const many = Array.from({ length: 400 }, (_, i) => word(i));
    const few = many.slice(0, 6);
    const pick = (vocab: string[]) => vocab[Math.floor(rand() * vocab.length)];
    const make = (vocab: string[]) =>
      Array.from({ length: 2 + Math.floor(rand() * 9) }, () => pick(vocab)).join(' ');
    const entries: OracleEntry[] = [];
    for (let i = 0; i < 3000; i++) entries.push({ id: i + 1, source: make(many), updatedAt: i % 9 });
    for (let i = 0; i < 1100; i++) entries.push({ id: 3001 + i, source: make(few), updatedAt: i % 9 });
    for (const mode of MODES) {
      const index = new MemoryIndex();
      index.filter = mode;
      for (const e of entries.slice(0, 3000)) index.add(e.id, e.source, e.updatedAt);
      index.refresh();
      for (const e of entries.slice(3000)) index.add(e.id, e.source, e.updatedAt);
      index.refresh();
      // The first block is dense for tokens and pairs (no keys listed), the second sparse for both.
      const { numbers, arrays } = index.toParts();
      assert.equal(numbers.blockCount, 2);
      assert.equal(arrays.b0keys.length, 0);
      assert.equal(arrays.b0pairIndex.length, 0);
      assert.ok(arrays.b0pairStarts.length > 0 && arrays.b1pairStarts.length === 0);
      assert.ok(arrays.b1keys.length > 0 && arrays.b1pairIndex.length > 0);
      let matched = 0;
      for (let i = 0; i < 40; i++) {
        // A source of either block with one word replaced or added: matches in both blocks.
        const parts = entries[i % 2 ? 3000 + i : i * 50].source.split(' ');
        if (i % 3) parts[Math.floor(rand() * parts.length)] = pick(many);
        else parts.push(pick(few));
        const query = parts.join(' ');
        for (const threshold of [75, 90]) {
          const expected = bruteForceSearch(entries, query, { threshold, n: 10 });
          if (expected.length > 0) matched++;
          assert.deepEqual(
            index.search(query, { threshold, n: 10 }),
            expected,
            `${mode}: ${JSON.stringify(query)} at ${threshold}`,
          );
        }
      }
      assert.ok(matched > 30, `only ${matched} answers were not empty`);
    }
  });

  it('entries and queries longer than the 255 tokens the lengths beside the postings hold', () => {
    const rand = prng(9);
    const vocab = Array.from({ length: 300 }, (_, i) => word(i));
    const pick = () => vocab[Math.floor(rand() * vocab.length)];
    const long = Array.from({ length: 80 }, () =>
      Array.from({ length: 200 + Math.floor(rand() * 200) }, pick).join(' '),
    );
    // A few entries each near another in length and words, so that long queries have several matches.
    for (let i = 0; i < 20; i++) {
      const parts = long[i].split(' ');
      parts.splice(Math.floor(rand() * parts.length), 1 + Math.floor(rand() * 20));
      long.push(parts.join(' '));
    }
    const entries = [...long.map((source, i) => ({ id: i + 1, source, updatedAt: i % 4 })), ...filler(1000)];
    const queries = Array.from({ length: 8 }, (_, i) => {
      const parts = long[i * 2].split(' ');
      for (let e = 0; e < 1 + (i % 4) * 8; e++) parts[Math.floor(rand() * parts.length)] = pick();
      return parts.join(' ');
    });
    const matched = check(entries, queries, [75, 85], [3]);
    assert.ok(matched >= 8, `only ${matched} answers were not empty`);
  });

  it('index updates: removals, replacements and the unindexed tail', () => {
    const rand = prng(3);
    const vocab = Array.from({ length: 30 }, (_, i) => word(i));
    const pick = () => vocab[Math.floor(rand() * vocab.length)];
    const make = () => Array.from({ length: 2 + Math.floor(rand() * 9) }, pick).join(' ');
    const live = new Map<number, OracleEntry>();
    const index = new MemoryIndex();
    index.filter = 'pairs';
    for (let step = 0; step < 6000; step++) {
      const id = 1 + Math.floor(rand() * 3000);
      if (rand() < 0.2) {
        index.remove(id);
        live.delete(id);
      } else {
        const e = { id, source: make(), updatedAt: step };
        index.add(e.id, e.source, e.updatedAt);
        live.set(id, e);
      }
      if (step % 500 === 499) {
        const entries = [...live.values()];
        assert.equal(index.size, live.size);
        for (let id = 1; id <= 3000; id++) assert.equal(index.has(id), live.has(id), `entry ${id}`);
        for (let i = 0; i < 10; i++) {
          const query = make();
          assert.deepEqual(
            index.search(query, { threshold: 75, n: 5 }),
            bruteForceSearch(entries, query, { threshold: 75, n: 5 }),
            JSON.stringify(query),
          );
        }
      }
    }
  });
});

describe('wordless entries are indexed by length and signature', () => {
  it('answers as the oracle does, entries added after the sort included', () => {
    const rand = prng(5);
    // Punctuation and tags only (placeholders are content).
    const atoms = [
      '<x/>',
      '<br/>',
      '*',
      ':',
      '.',
      '…',
      '-',
      '/',
      '=',
      '<b>',
      '</b>',
      ' ',
      '(',
      ')',
      '#',
      '+',
    ];
    const make = () =>
      Array.from({ length: 1 + Math.floor(rand() * 8) }, () => atoms[Math.floor(rand() * atoms.length)]).join(
        '',
      );
    const entries: OracleEntry[] = Array.from({ length: 1500 }, (_, i) => ({
      id: i + 1,
      source: i % 4 === 0 ? `word ${i}` : make(),
      updatedAt: i % 9,
    }));
    const index = new MemoryIndex();
    for (const e of entries) index.add(e.id, e.source, e.updatedAt);
    const queries = Array.from({ length: 80 }, () => make());
    for (const query of queries.slice(0, 40))
      assert.deepEqual(
        index.search(query, { threshold: 75, n: 10 }),
        bruteForceSearch(entries, query, { threshold: 75, n: 10 }),
        JSON.stringify(query),
      );
    // Some more (below the re-sort limit, then above it), and removals.
    for (let i = 0; i < 400; i++) {
      const e = { id: 5000 + i, source: make(), updatedAt: 20 };
      entries.push(e);
      index.add(e.id, e.source, e.updatedAt);
      if (i % 7 === 0) {
        const gone = entries.splice(Math.floor(rand() * entries.length), 1)[0];
        index.remove(gone.id);
      }
      if (i === 100 || i === 399)
        for (const query of queries.slice(40))
          for (const threshold of [75, 90])
            assert.deepEqual(
              index.search(query, { threshold, n: 3 }),
              bruteForceSearch(entries, query, { threshold, n: 3 }),
              JSON.stringify(query),
            );
    }
  });
});
