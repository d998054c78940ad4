// Postings blocks: a range of slots' postings by token and by adjacent token pair, sorted by length, and
// their lookups (postings-build.ts builds them from the slots).
import { M_LEN, META } from './slot-layout.ts';

/**
 * Postings of a contiguous range of slots: for each posting key (a token, or its k-th repeat within an
 * entry) the slots holding it, sorted by token count so that a length window is a sub-range (and within a
 * count newest first).
 */
export interface PostingsBlock {
  from: number;
  to: number;
  /**
   * Posting keys present, ascending; the postings of keys[i] are slots[starts[i] .. starts[i + 1]). Empty
   * when `starts` is indexed by the key itself (dense, for a block holding most keys: no search, and no
   * larger than the pair of arrays): the postings of key k are slots[starts[k] .. starts[k + 1]), and keys
   * from starts.length − 1 on have none (see `listOf`).
   */
  keys: Int32Array;
  starts: Int32Array;
  slots: Int32Array;
  /**
   * Beside each of `slots`, that slot's Bloom filter folded to 32 bits (foldedBloom): read in sequence
   * with the postings, it lets a search pass over candidates that cannot share enough tokens without
   * reading their meta, a cache miss each.
   */
  blooms: Int32Array;
  /**
   * Beside each of `slots`, that slot's token count, capped at LEN_CAP: a length window is found by
   * binary search over these bytes, near each other, instead of over each slot's meta (two cache misses
   * a step).
   */
  lens: Uint8Array;
  /**
   * Copies (TokenStore.groups): slots whose text equals an earlier one's of the block are left out of
   * the postings, and listed with that one, the head. groupAt[head - from] is where its group starts in
   * `members`: the count, then the slots of the group, head included, in rank order (updated time
   * descending, then id ascending). -1 for a slot without copies; both empty when the store does not group.
   */
  groupAt: Int32Array;
  members: Int32Array;
  /**
   * The same for the entries' adjacent token pairs, each entry's distinct pairs once, keyed by their
   * bucket pairHash(a, b) & pairMask (the store's pair table size when the block was built): buckets may
   * hold several pairs, which only adds candidates (the pair filter needs a superset, not exactness).
   * Dense: pairStarts by bucket as `starts` above, pairIndex empty. Sparse (pairStarts empty): pairIndex
   * holds each bucket with postings and where they start, side by side and ascending, closed by
   * (PAIR_INDEX_END, their number): [b₀, s₀, b₁, s₁, …, PAIR_INDEX_END, n]. A bucket's number and its
   * bounds are then on one cache line; in two arrays they were on two, each a miss.
   */
  pairMask: number;
  pairIndex: Int32Array;
  /**
   * Sparse buckets (spread evenly over 0..pairMask) have a directory (keyDirectory): pairDir[j] is the
   * first entry of pairIndex whose bucket has bucket >>> pairDirShift ≥ j, so that a bucket is searched
   * among the dozen of its slice, a cache line or two, instead of over millions (a binary search whose
   * last dozen steps are each a cache miss). Derived from pairIndex, not saved; empty when dense.
   */
  pairDir: Int32Array;
  pairDirShift: number;
  pairStarts: Int32Array;
  pairSlots: Int32Array;
  /** Beside each of `pairSlots`, that slot's folded Bloom filter and capped length, as beside `slots`. */
  pairBlooms: Int32Array;
  pairLens: Uint8Array;
}

/** PostingsBlock.lens holds min(token count, LEN_CAP): a byte. */
export const LEN_CAP = 255;
export const EMPTY = new Int32Array(0);

/** The 32-bit hash of an adjacent token pair (a, b); its bucket is the hash masked by a table size. */
export function pairHash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * Where a slot's group starts in the members of `block` (the block holding it, null for the tail): -1
 * without copies, -2 for a copy (not a head). See PostingsBlock.groupAt.
 */
export function groupIn(block: PostingsBlock | null, slot: number): number {
  return block !== null && block.groupAt.length > 0 ? block.groupAt[slot - block.from] : -1;
}

/**
 * The sub-range of a block's postings of `key` whose slots have minLen..maxLen tokens; null if none.
 * `meta` is the store's (TokenStore.meta): lengths of LEN_CAP and more are read there.
 */
export function tokenPostings(
  seg: PostingsBlock,
  key: number,
  minLen: number,
  maxLen: number,
  meta: Int32Array,
): [number, number] | null {
  if (minLen > maxLen) return null;
  const { starts } = seg;
  const at = listOf(seg.keys, starts, key);
  if (at < 0) return null;
  return window(seg.slots, seg.lens, starts[at], starts[at + 1], minLen, maxLen, meta);
}

/** The same for the postings of a pair bucket (pairHash masked by the block's own pairMask). */
export function pairPostings(
  seg: PostingsBlock,
  hash: number,
  minLen: number,
  maxLen: number,
  meta: Int32Array,
): [number, number] | null {
  if (minLen > maxLen || !findPairList(seg, hash & seg.pairMask)) return null;
  return window(seg.pairSlots, seg.pairLens, listFrom, listTo, minLen, maxLen, meta);
}

/** The number of postings of a pair bucket in a block: the block's entries holding it. */
export function pairListLength(seg: PostingsBlock, hash: number): number {
  return findPairList(seg, hash & seg.pairMask) ? listTo - listFrom : 0;
}

/** Bounds of the list findPairList found last (no array allocated a lookup). */
let listFrom = 0;
let listTo = 0;

/** Finds the postings of a bucket in a block into listFrom..listTo; false when it has none. */
function findPairList(seg: PostingsBlock, bucket: number): boolean {
  const { pairIndex: index, pairStarts: starts } = seg;
  if (index.length === 0) {
    const at = listOf(index, starts, bucket);
    if (at < 0) return false;
    listFrom = starts[at];
    listTo = starts[at + 1];
    return true;
  }
  const j = bucket >>> seg.pairDirShift;
  const dir = seg.pairDir;
  if (j + 1 >= dir.length) return false;
  // Binary search over the slice's entries (bucket at 2i, start at 2i + 1).
  let a = dir[j];
  let b = dir[j + 1];
  while (a < b) {
    const mid = (a + b) >> 1;
    if (index[2 * mid] < bucket) a = mid + 1;
    else b = mid;
  }
  if (index[2 * a] !== bucket) return false;
  listFrom = index[2 * a + 1];
  listTo = index[2 * a + 3];
  return true;
}

/** The part of the postings from..to (one list, sorted by token count) of minLen..maxLen tokens. */
function window(
  slots: Int32Array,
  lens: Uint8Array,
  from: number,
  to: number,
  minLen: number,
  maxLen: number,
  meta: Int32Array,
): [number, number] | null {
  const lo = firstLonger(slots, lens, from, to, minLen - 1, meta);
  const hi = firstLonger(slots, lens, lo, to, maxLen, meta);
  return lo < hi ? [lo, hi] : null;
}

/**
 * The first position in a..end of a posting list (sorted by token count) whose entry has more than x
 * tokens: by the capped lengths beside the postings, exact below LEN_CAP; from there by the slots' own.
 */
function firstLonger(
  slots: Int32Array,
  lens: Uint8Array,
  a: number,
  end: number,
  x: number,
  meta: Int32Array,
): number {
  const capped = Math.min(x, LEN_CAP - 1);
  let b = end;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (lens[mid] <= capped) a = mid + 1;
    else b = mid;
  }
  if (x < LEN_CAP) return a;
  b = end;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (meta[slots[mid] * META + M_LEN] <= x) a = mid + 1;
    else b = mid;
  }
  return a;
}

/**
 * Whether a block's postings index their starts by key directly (PostingsBlock.keys): when `present` of
 * `range` keys have postings and the dense array (range + 1 ints) is at most a quarter larger than the
 * sparse pair (2·present + 1): the big blocks, which hold most keys and every query reads.
 */
export function isDense(range: number, present: number): boolean {
  return 4 * (range + 1) <= 5 * (2 * present + 1);
}

/** Where the postings of `key` start in `starts` (PostingsBlock.keys, dense or sparse), -1 for none. */
function listOf(keys: Int32Array, starts: Int32Array, key: number): number {
  if (keys.length > 0) return indexOf(keys, key);
  return key + 1 < starts.length && starts[key] < starts[key + 1] ? key : -1;
}

/** The position of `key` in sorted, -1 when absent. */
function indexOf(sorted: Int32Array, key: number): number {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (sorted[mid] < key) a = mid + 1;
    else b = mid;
  }
  return a < sorted.length && sorted[a] === key ? a : -1;
}

/** Buckets a slice of a pair directory holds on average, at least: the directory is at most an eighth of them. */
const KEYS_PER_SLICE = 8;

/** Closes a sparse pairIndex: above every bucket, so that a search of the last slice stops there. */
export const PAIR_INDEX_END = 2 ** 31 - 1;

/**
 * The directory of a sparse pairIndex (buckets in 0..maxKey at its even positions, closed by
 * PAIR_INDEX_END): the smallest shift leaving at least KEYS_PER_SLICE buckets a slice on average, and
 * at[j] the first entry whose bucket >>> shift ≥ j (slices + 1 entries, the last one the closing entry).
 * Empty for a dense block.
 */
export function keyDirectory(index: Int32Array, maxKey: number): { at: Int32Array; shift: number } {
  if (index.length === 0) return { at: EMPTY, shift: 0 };
  const count = index.length / 2 - 1;
  let shift = 0;
  while (shift < 31 && ((maxKey >>> shift) + 1) * KEYS_PER_SLICE > count) shift++;
  const slices = (maxKey >>> shift) + 1;
  const at = new Int32Array(slices + 1);
  let i = 0;
  for (let j = 0; j <= slices; j++) {
    while (i < count && index[2 * i] >>> shift < j) i++;
    at[j] = i;
  }
  return { at, shift };
}
