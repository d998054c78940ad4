// Building a postings block from a range of a store's slots: token postings, groups of copies, pair postings.
import {
  EMPTY,
  isDense,
  keyDirectory,
  LEN_CAP,
  PAIR_INDEX_END,
  type PostingsBlock,
  pairHash,
} from './postings-block.ts';
import {
  ALIVE,
  foldedBloom,
  M_BLOOM_HI,
  M_BLOOM_LO,
  M_FLAGS,
  M_HASH,
  M_LEN,
  M_START,
  META,
} from './slot-layout.ts';
import { SmallCounts } from './small-counts.ts';
import type { TextPool } from './text-pool.ts';
import { grow } from './typed-arrays.ts';
import type { Vocabulary } from './vocabulary.ts';

/** What building a block reads of its store (TokenStore), again after each yield where it may change. */
export interface BlockSource {
  /** Whether copies of a text are grouped under one posting (TokenStore.groups). */
  readonly groups: boolean;
  readonly meta: Int32Array;
  readonly pool: Int32Array;
  readonly ids: Float64Array;
  readonly updated: Float64Array;
  readonly texts: TextPool;
  readonly vocabulary: Vocabulary;
  readonly pairMask: number;
  nextCandidateStamp(): number;
}

// Building postings yields to TokenStore.refreshInSlices every this many slots (a few milliseconds of
// work, not timed apart), and every this many pair postings when it places them. Measured on a 1M-entry
// block (each step between yields timed): placing 2^20 pair postings a step, in random order, held the
// event loop 40–150 ms; 2^16 holds it a few.
const SLICE_MASK = 2 ** 12 - 1;
const PAIR_SLICE_MASK = 2 ** 16 - 1;
/** A group of copies larger than this is ranked by a merge sort that yields (sortInSlices). */
const SORT_SLICE = 2 ** 12;

/**
 * One entry's distinct pair buckets at a time (buildPairs): shared by every store, as no build yields
 * within an entry.
 */
const entryPairs = new SmallCounts();

/**
 * Postings of [from, to), each key's slots by token count, then newest slot first: searches meet recent
 * entries first, which win ties, so the top n settles early and prunes the rest. Yields every
 * SLICE_MASK + 1 slots (TokenStore.refreshInSlices); entries added meanwhile lie beyond `to`, and one
 * removed meanwhile only leaves a dead slot in the postings, as removals after a build do.
 */
export function* buildBlock(store: BlockSource, from: number, to: number): Generator<void, PostingsBlock> {
  const { vocabulary } = store;
  let { meta, pool } = store;
  // Live slots with tokens in (length, slot descending) order, by counting sort on length. Each slot's
  // length (-1 for a removed one) is read once, in slices: the passes after a yield use what was read, so a
  // slot removed meanwhile stays in (a dead slot in the postings, as removals after a build leave).
  const lenOf = new Int32Array(to - from);
  let maxLen = 0;
  let total = 0;
  for (let s = from; s < to; s++) {
    if (((s - from) & SLICE_MASK) === SLICE_MASK) {
      yield;
      meta = store.meta;
    }
    if (!(meta[s * META + M_FLAGS] & ALIVE)) {
      lenOf[s - from] = -1;
      continue;
    }
    const len = meta[s * META + M_LEN];
    lenOf[s - from] = len;
    if (len > maxLen) maxLen = len;
    total += len;
  }
  const byLen = new Int32Array(maxLen + 2);
  for (let i = 0; i < lenOf.length; i++) if (lenOf[i] >= 0) byLen[lenOf[i] + 1]++;
  for (let l = 1; l < byLen.length; l++) byLen[l] += byLen[l - 1];
  // Slots without tokens have no postings: positions start after them.
  const skip = byLen[1];
  let order: Int32Array = new Int32Array(byLen[maxLen + 1] - skip);
  for (let s = to - 1; s >= from; s--) {
    const len = lenOf[s - from];
    if (len > 0) order[byLen[len]++ - skip] = s;
  }
  yield;
  ({ meta, pool } = store);
  let groupAt: Int32Array = EMPTY;
  let members: Int32Array = EMPTY;
  if (store.groups) {
    const grouped = yield* groupCopies(store, order, from, to);
    ({ groupAt, members } = grouped);
    order = grouped.heads;
    ({ meta, pool } = store);
    total = 0;
    for (let i = 0; i < order.length; i++) total += meta[order[i] * META + M_LEN];
  }
  // Keys of every token in that order, counted per key; then each key's postings filled in order. Every
  // key of these slots exists already (describe made them), so keys made meanwhile are out of range.
  const keysInOrder = new Int32Array(total);
  const count = new Int32Array(vocabulary.keyCount + 1);
  let p = 0;
  for (let i = 0; i < order.length; i++) {
    if ((i & SLICE_MASK) === SLICE_MASK) {
      yield;
      ({ meta, pool } = store);
    }
    const m = order[i] * META;
    const start = meta[m + M_START];
    const end = start + meta[m + M_LEN];
    const mark = store.nextCandidateStamp();
    for (let t = start; t < end; t++) {
      const tid = pool[t];
      let key: number;
      if (vocabulary.useMarks[2 * tid] !== mark) {
        vocabulary.useMarks[2 * tid] = mark;
        vocabulary.useMarks[2 * tid + 1] = 1;
        key = vocabulary.firstKey[tid];
      } else key = vocabulary.repeatKeyOf(tid, ++vocabulary.useMarks[2 * tid + 1]);
      keysInOrder[p++] = key;
      count[key + 1]++;
    }
  }
  const keyCount = count.length - 1;
  let present = 0;
  for (let k = 1; k <= keyCount; k++) {
    if (count[k] > 0) present++;
    count[k] += count[k - 1];
  }
  let keys = EMPTY;
  let starts: Int32Array;
  if (isDense(keyCount, present)) starts = count.slice();
  else {
    keys = new Int32Array(present);
    starts = new Int32Array(present + 1);
    let j = 0;
    for (let k = 0; k < keyCount; k++) {
      if (count[k + 1] === count[k]) continue;
      keys[j] = k;
      starts[j++] = count[k];
    }
    starts[present] = total;
  }
  yield;
  ({ meta } = store);
  const slots = new Int32Array(total);
  const blooms = new Int32Array(total);
  const lens = new Uint8Array(total);
  p = 0;
  for (let i = 0; i < order.length; i++) {
    if ((i & SLICE_MASK) === SLICE_MASK) {
      yield;
      ({ meta } = store);
    }
    const s = order[i];
    const bloom = foldedBloom(meta[s * META + M_BLOOM_LO], meta[s * META + M_BLOOM_HI]);
    const len = meta[s * META + M_LEN];
    const capped = Math.min(len, LEN_CAP);
    for (let n = len; n > 0; n--) {
      const at = count[keysInOrder[p++]]++;
      slots[at] = s;
      blooms[at] = bloom;
      lens[at] = capped;
    }
  }
  const pairs = yield* buildPairs(store, order, total);
  // Every property written out, in the order of PostingsBlock and of restoreStore (store-parts.ts): a
  // block built here and one loaded from a file then share one hidden class, so that the search code
  // optimised on either (the start-up warm-up builds its index) meets no other shape (a spread here gave
  // blocks of another shape than loaded ones, and the first searches of a loaded index deoptimised).
  return {
    from,
    to,
    keys,
    starts,
    slots,
    blooms,
    lens,
    groupAt,
    members,
    pairMask: pairs.pairMask,
    pairIndex: pairs.pairIndex,
    pairDir: pairs.pairDir,
    pairDirShift: pairs.pairDirShift,
    pairStarts: pairs.pairStarts,
    pairSlots: pairs.pairSlots,
    pairBlooms: pairs.pairBlooms,
    pairLens: pairs.pairLens,
  };
}

/**
 * The slots of `order` (by length, then newest first) whose text equals an earlier one's, grouped
 * under that first one: the heads in the same order, and the groups of more than one (PostingsBlock
 * groupAt and members). Memories repeat a source once per target: a short one thousands of times.
 */
function* groupCopies(
  store: BlockSource,
  order: Int32Array,
  from: number,
  to: number,
): Generator<void, { heads: Int32Array; groupAt: Int32Array; members: Int32Array }> {
  const n = order.length;
  let size = 1024;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  // Open addressing by text hash: positions in `order` of the heads.
  const table = new Int32Array(size).fill(-1);
  const headOf = new Int32Array(n);
  const count = new Int32Array(n);
  let heads = 0;
  let withCopies = 0;
  let meta = store.meta;
  for (let i = 0; i < n; i++) {
    if ((i & SLICE_MASK) === SLICE_MASK) {
      yield;
      meta = store.meta;
    }
    const s = order[i];
    const h = meta[s * META + M_HASH];
    let at = h & mask;
    let head = -1;
    for (let j = table[at]; j >= 0; j = table[(at = (at + 1) & mask)]) {
      const t = order[j];
      if (meta[t * META + M_HASH] === h && store.texts.same(t, s)) {
        head = j;
        break;
      }
    }
    if (head < 0) {
      table[at] = i;
      head = i;
      heads++;
    } else if (count[head] === 1) withCopies++;
    headOf[i] = head;
    count[head]++;
  }
  yield;
  // A group of c slots takes 1 + c places: its count, then its slots.
  const members = new Int32Array(2 * withCopies + (n - heads));
  const groupAt = withCopies > 0 ? new Int32Array(to - from).fill(-1) : EMPTY;
  const headSlots = new Int32Array(heads);
  const next = headOf; // reused: for a head with copies, where its next member goes
  let k = 0;
  let at = 0;
  for (let i = 0; i < n; i++) {
    if ((i & SLICE_MASK) === SLICE_MASK) yield;
    const head = headOf[i];
    const s = order[i];
    if (head === i) {
      headSlots[k++] = s;
      if (count[i] > 1) {
        groupAt[s - from] = at;
        members[at] = count[i];
        members[at + 1] = s;
        next[i] = at + 2;
        at += 1 + count[i];
      }
    } else {
      members[next[head]++] = s;
      groupAt[s - from] = -2;
    }
  }
  yield;
  // Each group in rank order, so that a search stops at the first member that does not enter its top n.
  const { ids, updated } = store;
  const byRank = (a: number, b: number) => updated[b] - updated[a] || ids[a] - ids[b];
  for (let g = 0, done = 0; g < members.length; g += 1 + members[g]) {
    const c = members[g];
    // A source a memory repeats tens of thousands of times (once per target) is one group: sorted in one
    // piece, it held the event loop 100 ms.
    if (c > SORT_SLICE) yield* sortInSlices(members.subarray(g + 1, g + 1 + c), byRank);
    else members.set(Array.from(members.subarray(g + 1, g + 1 + c)).sort(byRank), g + 1);
    if ((done += c) > SLICE_MASK) {
      done = 0;
      yield;
    }
  }
  return { heads: headSlots, groupAt, members };
}

/**
 * Sorts `a` in place by `compare`, stably, yielding between steps of about SORT_SLICE elements: runs of
 * SORT_SLICE sorted each in one piece, then merged pairwise, a slice of each merge at a time.
 */
export function* sortInSlices(
  a: Int32Array,
  compare: (x: number, y: number) => number,
): Generator<void, void> {
  const n = a.length;
  for (let at = 0; at < n; at += SORT_SLICE) {
    const end = Math.min(n, at + SORT_SLICE);
    a.set(Array.from(a.subarray(at, end)).sort(compare), at);
    yield;
  }
  let from: Int32Array = a;
  let into: Int32Array = new Int32Array(n);
  for (let width = SORT_SLICE; width < n; width *= 2) {
    let moved = 0;
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        // Ties take the left run's first: stable.
        into[k] = i < mid && (j >= hi || compare(from[i], from[j]) <= 0) ? from[i++] : from[j++];
        if (++moved === SORT_SLICE) {
          moved = 0;
          yield;
        }
      }
    }
    [from, into] = [into, from];
  }
  if (from !== a) a.set(from);
}

/** The pair postings of the slots in `order` (by length, then newest first), each list in that order. */
function* buildPairs(
  store: BlockSource,
  order: Int32Array,
  total: number,
): Generator<
  void,
  Omit<PostingsBlock, 'from' | 'to' | 'keys' | 'starts' | 'slots' | 'blooms' | 'lens' | 'groupAt' | 'members'>
> {
  let { meta, pool } = store;
  // The table may grow while this yields: the block keeps the size it was started with.
  const pairMask = store.pairMask;
  // Each slot's distinct buckets, in order; then grouped by bucket keeping that order: by counting
  // (a count per bucket) for large blocks, by sorting bucket · 2^26 + position (exact in a double:
  // buckets < 2^27, positions < 2^26) for small ones, where a count array would cost more than them.
  // `owner` is the position in `order` (so that reading order, bloomAt and lenAt by it goes in sequence).
  let buckets = new Int32Array(Math.max(16, total));
  let owner = new Int32Array(Math.max(16, total));
  const bloomAt = new Int32Array(order.length);
  const lenAt = new Uint8Array(order.length);
  let n = 0;
  for (let i = 0; i < order.length; i++) {
    if ((i & SLICE_MASK) === SLICE_MASK) {
      yield;
      ({ meta, pool } = store);
    }
    const m = order[i] * META;
    bloomAt[i] = foldedBloom(meta[m + M_BLOOM_LO], meta[m + M_BLOOM_HI]);
    lenAt[i] = Math.min(meta[m + M_LEN], LEN_CAP);
    const start = meta[m + M_START];
    const end = start + meta[m + M_LEN];
    const seen = entryPairs;
    seen.clear(end - start);
    for (let t = start + 1; t < end; t++) {
      const b = pairHash(pool[t - 1], pool[t]) & pairMask;
      if (seen.count[seen.add(b)]++ > 0) continue;
      if (n === buckets.length) {
        buckets = grow(buckets, n * 2);
        owner = grow(owner, n * 2);
      }
      buckets[n] = b;
      owner[n++] = i;
    }
  }
  yield;
  const pairSlots = new Int32Array(n);
  const pairBlooms = new Int32Array(n);
  const pairLens = new Uint8Array(n);
  let pairIndex: Int32Array;
  let pairStarts: Int32Array;
  if (n * 8 >= pairMask) {
    const count = new Int32Array(pairMask + 2);
    for (let j = 0; j < n; j++) {
      if ((j & PAIR_SLICE_MASK) === PAIR_SLICE_MASK) yield;
      count[buckets[j] + 1]++;
    }
    let present = 0;
    for (let k = 1; k < count.length; k++) {
      if ((k & PAIR_SLICE_MASK) === PAIR_SLICE_MASK) yield;
      if (count[k] > 0) present++;
      count[k] += count[k - 1];
    }
    if (isDense(pairMask + 1, present)) {
      pairIndex = EMPTY;
      pairStarts = count.slice();
    } else {
      pairIndex = new Int32Array(2 * present + 2);
      pairStarts = EMPTY;
      let j = 0;
      for (let k = 0; k <= pairMask; k++) {
        if ((k & PAIR_SLICE_MASK) === PAIR_SLICE_MASK) yield;
        if (count[k + 1] === count[k]) continue;
        pairIndex[j++] = k;
        pairIndex[j++] = count[k];
      }
      pairIndex[j++] = PAIR_INDEX_END;
      pairIndex[j] = n;
    }
    yield;
    for (let i = 0; i < n; i++) {
      if ((i & PAIR_SLICE_MASK) === PAIR_SLICE_MASK) yield;
      const at = count[buckets[i]]++;
      pairSlots[at] = order[owner[i]];
      pairBlooms[at] = bloomAt[owner[i]];
      pairLens[at] = lenAt[owner[i]];
    }
  } else {
    const POS = 2 ** 26;
    const sorted = new Float64Array(n);
    for (let j = 0; j < n; j++) sorted[j] = buckets[j] * POS + j;
    sorted.sort();
    yield;
    let present = 0;
    for (let j = 0; j < n; j++)
      if (j === 0 || buckets[sorted[j] % POS] !== buckets[sorted[j - 1] % POS]) present++;
    pairIndex = new Int32Array(2 * present + 2);
    pairStarts = EMPTY;
    let k = 0;
    let last = -1;
    for (let j = 0; j < n; j++) {
      const at = sorted[j] % POS;
      const b = buckets[at];
      if (b !== last) {
        pairIndex[k++] = b;
        pairIndex[k++] = j;
        last = b;
      }
      pairSlots[j] = order[owner[at]];
      pairBlooms[j] = bloomAt[owner[at]];
      pairLens[j] = lenAt[owner[at]];
    }
    pairIndex[k++] = PAIR_INDEX_END;
    pairIndex[k] = n;
  }
  const { at: pairDir, shift: pairDirShift } = keyDirectory(pairIndex, pairMask);
  return { pairMask, pairIndex, pairDir, pairDirShift, pairStarts, pairSlots, pairBlooms, pairLens };
}
