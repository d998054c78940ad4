import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prng } from '../../bench/corpus.ts';
import { MemoryIndex } from './memory-index.ts';
import { bruteForceSearch, type OracleEntry } from './oracle.ts';
import { LEN_CAP } from './postings-block.ts';
import { MAX_QUERY_LENGTH } from './ranking.ts';
import { restoreStore, storeParts } from './store-parts.ts';
import { TokenStore } from './token-store.ts';
import { TokenIds } from './vocabulary.ts';

function indexOf(entries: OracleEntry[]): MemoryIndex {
  const index = new MemoryIndex();
  for (const e of entries) index.add(e.id, e.source, e.updatedAt);
  return index;
}

const summary = (index: MemoryIndex, query: string, threshold = 75, n = 10) =>
  index.search(query, { threshold, n }).map((m) => `${m.id}:${m.score}:${m.matchType}`);

describe('MemoryIndex.search: placeholders align with each other', () => {
  // Rare keys (%x, {name}) must not hide an entry from a query whose placeholder has another key: the index
  // interns every placeholder as one token, as the score aligns them (docs/MATCHING-FILTERS.md).
  const entries: OracleEntry[] = [
    { id: 1, source: 'Delete %s', updatedAt: 10 },
    { id: 2, source: 'Delete {name}', updatedAt: 10 },
    { id: 3, source: '%1$s of %2$s', updatedAt: 10 },
    { id: 4, source: 'Delete', updatedAt: 10 },
    ...Array.from({ length: 200 }, (_, i) => ({ id: 100 + i, source: `Delete file ${i}`, updatedAt: 1 })),
  ];
  const index = indexOf(entries);

  it('finds another key in the same place, with the penalty, as the oracle does', () => {
    for (const query of ['Delete %x', 'Delete {count}', '%d of %d', 'Delete %s %s']) {
      const expected = bruteForceSearch(entries, query, { threshold: 75, n: 10 }).map(
        (m) => `${m.id}:${m.score}:${m.matchType}`,
      );
      assert.deepEqual(summary(index, query), expected, query);
    }
    assert.deepEqual(summary(index, 'Delete %x').slice(0, 2), ['1:98:fuzzy', '2:98:fuzzy']);
  });
});

describe('MemoryIndex.search', () => {
  const entries: OracleEntry[] = [
    { id: 1, source: 'The file could not be saved.', updatedAt: 10 },
    { id: 2, source: 'The file could not be opened.', updatedAt: 10 },
    { id: 3, source: 'the file could not be saved.', updatedAt: 10 },
    { id: 4, source: 'The file could not be saved', updatedAt: 30 },
    { id: 5, source: 'The file could not be saved.', updatedAt: 20 },
    { id: 6, source: 'Something else entirely', updatedAt: 10 },
    { id: 7, source: 'The file could not be saved.', updatedAt: 20 },
  ];
  const index = indexOf(entries);

  it('returns exact copies as exact, every one of them, then fuzzy matches, in rank order', () => {
    // 100s by recency then id; 99s: case (id 3) and punctuation (id 4) tie on points, id 4 is newer; then 83.
    assert.deepEqual(summary(index, 'The file could not be saved.'), [
      '5:100:exact',
      '7:100:exact',
      '1:100:exact',
      '4:99:fuzzy',
      '3:99:fuzzy',
      '2:83:fuzzy',
    ]);
  });

  it('ranks equal scores by fewer penalty points first', () => {
    const ix = indexOf([
      { id: 1, source: 'Delete 3 Files', updatedAt: 99 },
      { id: 2, source: 'Delete 3 files!', updatedAt: 1 },
      { id: 3, source: 'Delete  3 files', updatedAt: 1 },
    ]);
    // Each scores 99: case 1 (id 1), punctuation 1 (id 2), whitespace 1 (id 3) → ties on points → recency → id.
    assert.deepEqual(summary(ix, 'Delete 3 files'), ['1:99:fuzzy', '2:99:fuzzy', '3:99:fuzzy']);
    const penalties = ix.search('Delete 3 files', { n: 3 }).map((m) => m.penalties);
    assert.deepEqual(penalties, [
      [{ kind: 'case', points: 1 }],
      [{ kind: 'punctuation', points: 1 }],
      [{ kind: 'whitespace', points: 1 }],
    ]);
    // Both 99 (clamped): id 2 differs only in a tag attribute (0 points), id 1 in punctuation (1 point).
    const ix2 = indexOf([
      { id: 1, source: '<b>Delete</b> 3 files!', updatedAt: 99 },
      { id: 2, source: '<b class="x">Delete</b> 3 files', updatedAt: 1 },
    ]);
    assert.deepEqual(summary(ix2, '<b>Delete</b> 3 files'), ['2:99:fuzzy', '1:99:fuzzy']);
  });

  it('applies the threshold and n', () => {
    assert.deepEqual(summary(index, 'The file could not be saved.', 99), [
      '5:100:exact',
      '7:100:exact',
      '1:100:exact',
      '4:99:fuzzy',
      '3:99:fuzzy',
    ]);
    assert.deepEqual(summary(index, 'The file could not be saved.', 100), [
      '5:100:exact',
      '7:100:exact',
      '1:100:exact',
    ]);
    assert.deepEqual(summary(index, 'The file could not be saved.', 75, 2), ['5:100:exact', '7:100:exact']);
    assert.deepEqual(summary(index, 'The file could not be saved.', 75, 4), [
      '5:100:exact',
      '7:100:exact',
      '1:100:exact',
      '4:99:fuzzy',
    ]);
    assert.deepEqual(summary(index, 'Nothing like it'), []);
  });

  it('matches texts without words by their characters', () => {
    const ix = indexOf([
      { id: 1, source: '(*): (*)', updatedAt: 0 },
      { id: 2, source: '(*):(*)', updatedAt: 0 },
      { id: 3, source: '(*)', updatedAt: 0 },
      { id: 4, source: 'word', updatedAt: 0 },
      // Placeholders are content: this one is no text without words.
      { id: 5, source: '%s: %s', updatedAt: 0 },
    ]);
    assert.deepEqual(summary(ix, '(*): (*)'), ['1:100:exact', '2:86:fuzzy']);
    assert.deepEqual(summary(ix, '%s:%s'), ['5:99:fuzzy']);
    assert.deepEqual(summary(ix, ''), []);
  });

  it('rejects bad arguments with a clear error', () => {
    assert.throws(
      () => index.search('x', { threshold: 74, n: 10 }),
      /threshold must be an integer from 75 to 100, got 74/,
    );
    assert.throws(() => index.search('x', { threshold: 80.5, n: 10 }), /threshold/);
    assert.throws(() => index.search('x', { n: 0 }), /n must be a positive integer, got 0/);
    assert.throws(
      () => index.search('a'.repeat(MAX_QUERY_LENGTH + 1), { n: 1 }),
      /query is 5001 characters long; the limit is 5000/,
    );
    assert.equal(index.search('a'.repeat(MAX_QUERY_LENGTH), { n: 1 }).length, 0);
  });
});

describe('MemoryIndex updates', () => {
  it('adds, replaces and removes entries', () => {
    const ix = new MemoryIndex();
    ix.add(1, 'Open the new file', 1);
    ix.add(2, 'Open the new folder', 1);
    assert.equal(ix.size, 2);
    assert.ok(ix.has(1));
    assert.deepEqual(summary(ix, 'Open the new file'), ['1:100:exact', '2:75:fuzzy']);
    ix.add(1, 'Close the new file', 2);
    assert.equal(ix.size, 2);
    assert.deepEqual(summary(ix, 'Open the new file'), ['1:75:fuzzy', '2:75:fuzzy']);
    assert.deepEqual(summary(ix, 'Close the new file'), ['1:100:exact']);
    assert.equal(ix.remove(2), true);
    assert.equal(ix.remove(2), false);
    assert.equal(ix.has(2), false);
    assert.equal(ix.size, 1);
    assert.deepEqual(summary(ix, 'Open the new file'), ['1:75:fuzzy']);
    ix.remove(1);
    assert.deepEqual(summary(ix, 'Close the new file'), []);
    assert.equal(ix.size, 0);
  });

  it('makes room for a bulk load up front: its tables do not grow while it is read, and it answers alike', () => {
    const rand = prng(21);
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const entries: OracleEntry[] = Array.from({ length: 5000 }, (_, i) => ({
      id: i + 1,
      source: Array.from({ length: 2 + Math.floor(rand() * 6) }, () => words[Math.floor(rand() * 60)]).join(
        ' ',
      ),
      updatedAt: i % 13,
    }));
    const index = new MemoryIndex();
    index.add(9999, 'already here', 0);
    index.reserve(entries.length + 1);
    const tables = (ix: MemoryIndex) => {
      const { arrays, numbers } = ix.toParts();
      return { buckets: arrays.buckets.length, pairs: numbers.pairMask + 1 };
    };
    const reserved = tables(index);
    assert.ok(reserved.buckets >= 2 * (entries.length + 1) && reserved.pairs >= entries.length + 1);
    index.remove(9999);
    for (const e of entries) index.add(e.id, e.source, e.updatedAt);
    index.refresh();
    assert.deepEqual(tables(index), reserved);
    // Without the reservation the same load grows them.
    const grown = indexOf(entries.slice(0, 100));
    const before = tables(grown);
    for (const e of entries.slice(100)) grown.add(e.id, e.source, e.updatedAt);
    assert.ok(tables(grown).buckets > before.buckets);
    for (let i = 0; i < 30; i++) {
      const query = entries[i * 97].source;
      assert.deepEqual(
        index.search(query, { threshold: 75, n: 5 }),
        bruteForceSearch(entries, query, { threshold: 75, n: 5 }),
        JSON.stringify(query),
      );
    }
  });

  it('rejects ids and times that are not numbers', () => {
    const ix = new MemoryIndex();
    assert.throws(() => ix.add(Number.NaN, 'x', 1), /entry id must be a finite number, got NaN/);
    assert.throws(
      () => ix.add(3, 'x', Number('2024-01-01')),
      /entry 3: updatedAt must be a finite number, got NaN/,
    );
    assert.equal(ix.size, 0);
  });

  it('agrees with the oracle through tail, blocks, merges and compaction', () => {
    const rand = prng(11);
    // Placeholders among the words: content tokens by their key, however written.
    const words = [
      ...'open save close file folder the a new old document window print copy paste cut undo'.split(' '),
      '%s',
      '%d',
      '{0}',
      '{{count}}',
      '<ph id="1">{{count}}</ph>',
      '$HOME',
      '&amp;',
    ];
    const sentence = () =>
      Array.from({ length: 1 + Math.floor(rand() * 7) }, () => words[Math.floor(rand() * words.length)]).join(
        ' ',
      ) + (rand() < 0.3 ? '.' : '');
    const live = new Map<number, OracleEntry>();
    const ix = new MemoryIndex();
    let clock = 0;
    const check = () => {
      for (let q = 0; q < 15; q++) {
        const query = sentence();
        for (const [threshold, n] of [
          [75, 10],
          [90, 1000],
        ]) {
          assert.deepEqual(
            ix.search(query, { threshold, n }),
            bruteForceSearch(live.values(), query, { threshold, n }),
            `query ${JSON.stringify(query)} at ${threshold}, n ${n}`,
          );
        }
      }
    };
    let nextId = 1;
    const addSome = (count: number) => {
      for (let i = 0; i < count; i++) {
        // One add in ten replaces a live entry.
        const id =
          rand() < 0.1 && live.size > 0 ? [...live.keys()][Math.floor(rand() * live.size)] : nextId++;
        const e = { id, source: sentence(), updatedAt: clock++ % 50 };
        live.set(id, e);
        ix.add(e.id, e.source, e.updatedAt);
      }
    };
    const removeSome = (count: number) => {
      const ids = [...live.keys()];
      for (let i = 0; i < count; i++) {
        const id = ids[Math.floor(rand() * ids.length)];
        assert.equal(ix.remove(id), live.delete(id));
      }
    };
    // Bulk load (one block); a tail below the limit; tails sealed into blocks that merge or not;
    // removals as tombstones; then enough removals to compact.
    for (const [adds, removes] of [
      [4100, 0],
      [500, 50],
      [1100, 50],
      [1100, 50],
      [1100, 300],
      [200, 3000],
      [1500, 0],
    ]) {
      addSome(adds);
      removeSome(removes);
      assert.equal(ix.size, live.size);
      check();
    }
  });

  it('ranks the copies of a text as the oracle does, whichever of them are removed', () => {
    const rand = prng(13);
    const live = new Map<number, OracleEntry>();
    let ix = new MemoryIndex();
    let nextId = 1;
    const add = (source: string) => {
      const e = { id: nextId++, source, updatedAt: Math.floor(rand() * 20) };
      live.set(e.id, e);
      ix.add(e.id, e.source, e.updatedAt);
      return e.id;
    };
    const texts = ['Open the file', 'open the file', 'Open the file.', 'Close the file', 'Open a file'];
    const ids: number[] = [];
    for (let i = 0; i < 3000; i++) ids.push(add(texts[i % texts.length]));
    for (let i = 0; i < 1100; i++) add(`entry ${i} of no other kind`);
    ix.refresh();
    const agrees = (label: string) => {
      for (const query of [...texts, 'OPEN THE FILE', 'open the files']) {
        for (const [threshold, n] of [
          [75, 5],
          [75, 1000],
          [100, 3],
        ]) {
          assert.deepEqual(
            ix.search(query, { threshold, n }),
            bruteForceSearch(live.values(), query, { threshold, n }),
            `${label}: ${JSON.stringify(query)} at ${threshold}, n ${n}`,
          );
        }
      }
    };
    agrees('grouped');
    // The newest copy of each text heads its group in the postings: remove those, then others at random.
    for (const id of ids.slice(-texts.length)) {
      ix.remove(id);
      live.delete(id);
    }
    agrees('heads removed');
    for (let i = 0; i < 300; i++) {
      const id = ids[Math.floor(rand() * ids.length)];
      assert.equal(ix.remove(id), live.delete(id));
    }
    agrees('members removed');
    // More copies, in the tail and then in a block of their own.
    for (let i = 0; i < 1500; i++) add(texts[i % texts.length]);
    agrees('copies in the tail');
    ix.refresh();
    agrees('copies in two blocks');
    // And the same from the saved form.
    const saved = ix;
    ix = MemoryIndex.fromParts(saved.toParts());
    agrees('restored');
  });

  it('still finds the copies under a removed head after the exact-text table grows', () => {
    const live = new Map<number, OracleEntry>();
    const ix = new MemoryIndex();
    let nextId = 1;
    const add = (source: string, updatedAt: number) => {
      const e = { id: nextId++, source, updatedAt };
      live.set(e.id, e);
      ix.add(e.id, e.source, e.updatedAt);
      return e.id;
    };
    let head = 0;
    for (let i = 0; i < 2000; i++) head = add('Open the file', i % 7);
    for (let i = 0; i < 20_000; i++) add(`entry ${i} of its own`, 0);
    // One block of 22,000 slots; its newest copy heads the group, and goes.
    ix.refresh();
    ix.remove(head);
    live.delete(head);
    // The table grows past 32,768 slots; the new tail (11,000) is too small to merge with the block.
    for (let i = 0; i < 11_000; i++) add(`more ${i} of its own`, 0);
    for (const [query, threshold] of [
      ['Open the file', 100],
      ['open the file', 75],
    ] as const)
      assert.deepEqual(
        ix.search(query, { threshold, n: 5 }),
        bruteForceSearch(live.values(), query, { threshold, n: 5 }),
        query,
      );
  });

  it('keeps every change made while a refresh gives back slack memory in slices', () => {
    const ix = new MemoryIndex();
    const text = (id: number) => `alpha${id} beta${id} gamma${id} delta${id}`;
    // 33,000 entries: the slot arrays doubled to 65,536, so the refresh ends by trimming them.
    for (let id = 1; id <= 33_000; id++) ix.add(id, text(id), 0);
    let id = 33_000;
    const removed: number[] = [];
    let slices = 0;
    for (const _ of ix.refreshInSlices()) {
      slices++;
      ix.add(++id, text(id), 0);
      removed.push(slices * 7);
      ix.remove(slices * 7);
    }
    assert.ok(slices > 5);
    const found = (n: number) => ix.search(`${text(n)} epsilon`, { threshold: 75, n: 3 }).map((m) => m.id);
    for (let n = 33_001; n <= id; n++)
      assert.deepEqual(found(n), [n], `entry ${n}, added during the refresh`);
    for (const n of removed) assert.deepEqual(found(n), [], `entry ${n}, removed during the refresh`);
    for (const n of [1, 2, 3, 32_999]) assert.deepEqual(found(n), [n]);
  });

  it('answers as the oracle when its postings are built in slices, with changes and searches between them', () => {
    const rand = prng(12);
    const words = 'open save close file folder the a new old document window print copy paste cut undo'.split(
      ' ',
    );
    const sentence = () =>
      Array.from({ length: 1 + Math.floor(rand() * 9) }, () => words[Math.floor(rand() * words.length)]).join(
        ' ',
      );
    const live = new Map<number, OracleEntry>();
    const ix = new MemoryIndex();
    let nextId = 1;
    const add = () => {
      const e = { id: nextId++, source: sentence(), updatedAt: nextId % 40 };
      live.set(e.id, e);
      ix.add(e.id, e.source, e.updatedAt);
    };
    const removeOne = () => {
      const ids = [...live.keys()];
      const id = ids[Math.floor(rand() * ids.length)];
      assert.equal(ix.remove(id), live.delete(id));
    };
    const agrees = (label: string) => {
      for (let q = 0; q < 3; q++) {
        const query = sentence();
        assert.deepEqual(
          ix.search(query, { threshold: 75, n: 10 }),
          bruteForceSearch(live.values(), query, { threshold: 75, n: 10 }),
          `${label}: ${JSON.stringify(query)}`,
        );
      }
    };
    // Entries of words of their own, added while postings are being built: each must be found, by the
    // fuzzy path (the query has a word more), whether it ended up in a block or in the tail.
    const own: number[] = [];
    const ownText = (id: number) => `alpha${id} beta${id} gamma${id} delta${id}`;
    const findsOwn = (label: string) => {
      for (const id of own) {
        const found = ix.search(`${ownText(id)} epsilon`, { threshold: 75, n: 10 }).map((m) => m.id);
        assert.deepEqual(found, live.has(id) ? [id] : [], `${label}: entry ${id}`);
      }
    };
    // Between slices: entries added (a new tail) and removed (dead slots in the block being built); one
    // search in the middle, which finishes the work at once, the rest of the slices then having none.
    const driveWithChanges = (label: string) => {
      let slices = 0;
      for (const _ of ix.refreshInSlices()) {
        slices++;
        for (let i = 0; i < 50; i++) add();
        const id = nextId++;
        const e = { id, source: ownText(id), updatedAt: 0 };
        live.set(id, e);
        ix.add(e.id, e.source, e.updatedAt);
        own.push(e.id);
        for (let i = 0; i < 20; i++) removeOne();
        if (slices === 6) agrees(`${label}, search after slice ${slices}`);
      }
      findsOwn(label);
      return slices;
    };
    for (let i = 0; i < 40_000; i++) add();
    // A block of 40,000 slots is built in more than six slices, but the search after the sixth finished
    // the work, and the drive ended there.
    assert.equal(driveWithChanges('bulk load'), 6);
    agrees('after the bulk load');
    // Sliced again with no search in between: the tail that arrived becomes a block.
    for (let i = 0; i < 3000; i++) add();
    assert.ok(driveWithChanges('tail') > 1);
    agrees('after the tail');
    // A quarter of the slots removed: the sliced refresh compacts them, entries still arriving.
    for (let i = 0; i < 14_000; i++) removeOne();
    assert.ok(driveWithChanges('compaction') > 1);
    agrees('after the compaction');
    assert.equal(ix.size, live.size);
  });
});

describe('MemoryIndex: the bound on punctuation and tag penalties', () => {
  // The same words with 0–20 punctuation or tag tokens (beyond SHAPE_CAP, 15, which the flags store as 15):
  // the score is 99 (or less, with 4–5 words) minus exactly the penalties, so at every threshold the
  // bound decides the answer alone — an overestimate drops a match the oracle keeps.
  const words = ['alpha beta gamma delta', 'alpha beta gamma delta epsilon'];
  const counts = [0, 1, 2, 3, 4, 5, 13, 14, 15, 16, 17, 20];
  const entries: OracleEntry[] = [];
  for (const w of words)
    for (const c of counts) {
      entries.push({ id: entries.length + 1, source: `${w} ${'!'.repeat(c)}`.trim(), updatedAt: c });
      entries.push({ id: entries.length + 1, source: `${w}${' <x/>'.repeat(c)}`, updatedAt: c });
      entries.push({
        id: entries.length + 1,
        source: `${w}${' <br>'.repeat(c)} ${'?'.repeat(c)}`,
        updatedAt: c,
      });
    }
  // Copies of one text: a group whose head is then removed (the head's flags stand for the others).
  for (let i = 0; i < 3; i++)
    entries.push({ id: 1000 + i, source: 'alpha beta gamma delta <x/> <x/> !', updatedAt: i });

  it('answers as the oracle for every query shape, threshold and n', () => {
    const index = indexOf(entries);
    assert.equal(index.remove(1002), true);
    const live = entries.filter((e) => e.id !== 1002);
    index.refresh();
    let compared = 0;
    for (const w of words)
      for (const c of counts)
        for (const query of [
          `${w} ${'!'.repeat(c)}`.trim(),
          `${w}${' <x/>'.repeat(c)}`,
          `${w} <x/> <x/>${' .'.repeat(c)}`,
        ])
          for (const threshold of [75, 88, 92, 95, 97, 99])
            for (const n of [1, 5, 50]) {
              const got = index.search(query, { threshold, n });
              assert.deepEqual(
                got,
                bruteForceSearch(live, query, { threshold, n }),
                `${query} at ${threshold}, n ${n}`,
              );
              compared += got.length;
            }
    // The queries do find matches, near the threshold too: the comparisons are not of empty answers only.
    assert.ok(compared > 5000, `${compared} matches compared`);
  });
});

describe('TokenStore: live entries by length (the estimate that chooses a prefix filter)', () => {
  it('counts adds and removals, the last bucket holding LEN_CAP tokens and more, and is rebuilt on restore', () => {
    const store = new TokenStore();
    const tokens = new TokenIds();
    const add = (id: number, count: number) => {
      tokens.clear();
      for (let i = 0; i < count; i++) tokens.push(store.vocabulary.intern(`t${i}`));
      store.add(id, `entry ${id}`, 0, tokens);
    };
    add(1, 3);
    add(2, 3);
    add(3, 5);
    add(4, LEN_CAP + 40);
    add(5, 0);
    const version = store.lengthsVersion;
    store.remove(2);
    add(3, 7); // replaces entry 3
    assert.notEqual(store.lengthsVersion, version);
    const expected = new Float64Array(LEN_CAP + 1);
    expected[0] = 1;
    expected[3] = 1;
    expected[7] = 1;
    expected[LEN_CAP] = 1;
    assert.deepEqual(store.lengthCounts, expected);
    store.refresh();
    assert.deepEqual(restoreStore(storeParts(store)).lengthCounts, expected);
  });
});

describe('TokenStore.refresh when nothing is due', () => {
  it('starts no refresh work (no generator) until a tail of TAIL_LIMIT entries or a compaction is due', () => {
    const store = new TokenStore();
    let started = 0;
    const real = store.refreshInSlices.bind(store);
    store.refreshInSlices = () => {
      started++;
      return real();
    };
    const word = new TokenIds();
    word.push(store.vocabulary.intern('word'));
    for (let id = 1; id <= 10; id++) store.add(id, `word ${id}`, 0, word);
    for (let i = 0; i < 100; i++) store.refresh();
    assert.equal(started, 0, 'a short tail is searched as it is: no work is due');
    for (let id = 11; id <= 1100; id++) store.add(id, `word ${id}`, 0, word);
    store.refresh();
    assert.equal(started, 1, 'a tail of 1,024 entries is due to become a block');
    store.refresh();
    assert.equal(started, 1, 'and once built, nothing is due again');
  });
});

describe('TokenStore: blocks built and blocks restored from a saved index', () => {
  // V8 gives objects whose properties were added in another order another hidden class: a search
  // optimised on the blocks of the start-up warm-up's built index then deoptimised on a loaded memory's.
  it('hold the same properties in the same order', () => {
    const store = new TokenStore({ groups: true });
    const tokens = new TokenIds();
    for (let id = 1; id <= 1500; id++) {
      tokens.clear();
      for (let i = 0; i < 3 + (id % 5); i++) tokens.push(store.vocabulary.intern(`w${(id * 7 + i) % 97}`));
      store.add(id, `entry ${id % 700}`, id, tokens);
    }
    store.refresh();
    assert.ok(store.blocks.length > 0);
    const restored = restoreStore(storeParts(store));
    assert.equal(restored.blocks.length, store.blocks.length);
    for (let b = 0; b < store.blocks.length; b++)
      assert.deepEqual(Object.keys(restored.blocks[b]), Object.keys(store.blocks[b]), `block ${b}`);
  });
});
