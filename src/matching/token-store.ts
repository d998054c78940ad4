// Entries as token-id sequences with postings sorted by length: the storage under both in-process indexes.
import { SmallCounts } from './small-counts.ts';
import { TextPool } from './text-pool.ts';

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

// A slot's small fields side by side in `meta` (META ints per slot), so that looking at a candidate costs
// one cache line rather than one per field.
export const META = 8;
/** Where the slot's token ids start in `pool`, and how many there are. */
export const M_START = 0;
export const M_LEN = 1;
/**
 * Flags: ALIVE while the entry is live (cleared once removed: a tombstone until compaction), and above it
 * the entry's punctuation and tag tokens, counted up to SHAPE_CAP each (shapeFlags): enough for a bound
 * on the score's penalties before the text is read (memory-index.ts consider).
 */
export const M_FLAGS = 2;
export const ALIVE = 1;
/** Counts of punctuation and tag tokens at or above this are stored as this (4 bits each). */
export const SHAPE_CAP = 15;

/** The flags of a live entry with these numbers of punctuation and tag tokens. */
export function shapeFlags(punct: number, tags: number): number {
  return ALIVE | (Math.min(punct, SHAPE_CAP) << 1) | (Math.min(tags, SHAPE_CAP) << 5);
}

/** The stored (capped) count of punctuation tokens of a slot's flags. */
export function punctOf(flags: number): number {
  return (flags >>> 1) & SHAPE_CAP;
}

/** The stored (capped) count of tag tokens of a slot's flags. */
export function tagsOf(flags: number): number {
  return (flags >>> 5) & SHAPE_CAP;
}
/** The mark of the last query that looked at the slot. */
export const M_SEEN = 3;
/** 64-bit Bloom filter of the slot's token ids (bloomBit): a token whose bit is unset is absent. */
export const M_BLOOM_LO = 4;
export const M_BLOOM_HI = 5;
/** The hash of the slot's text (the exact path's; equal texts have equal hashes). */
export const M_HASH = 6;
/** Next slot with the same exact-text bucket, -1 at the end. */
const M_NEXT = 7;

// New entries wait in an unindexed tail, scanned by every query, until this many are there; then they
// become a block, and equal-sized blocks merge (a binary counter), so adds cost O(log n) amortized.
const TAIL_LIMIT = 1024;
// Removed entries stay as tombstones until they are a quarter of all slots; then slots are renumbered.
const MIN_DEAD_TO_COMPACT = 1024;
// The posting key of the k-th occurrence (k ≥ 2) of token t in an entry is looked up by k·2^32 + t.
const REPEAT_KEY = 2 ** 32;
// Stamps mark per-query and per-candidate state without clearing arrays; they restart before overflowing.
const STAMP_LIMIT = 2 ** 30;
// Building postings yields to refreshInSlices every this many slots (a few milliseconds of work, not timed apart), and every
// this many pair postings when it places them.
const SLICE_MASK = 2 ** 14 - 1;
const EMPTY = new Int32Array(0);
/** PostingsBlock.lens holds min(token count, LEN_CAP): a byte. */
export const LEN_CAP = 255;
const PAIR_SLICE_MASK = 2 ** 20 - 1;

/** The 32-bit hash of an adjacent token pair (a, b); its bucket is the hash masked by a table size. */
export function pairHash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

// Pair buckets: at least as many as slots (so that a bucket holds about one distinct pair at most), grown
// by doubling; blocks keep the mask they were built with.
const MIN_PAIR_BUCKETS = 1024;

/**
 * Where a slot's group starts in the members of `block` (the block holding it, null for the tail): -1
 * without copies, -2 for a copy (not a head). See PostingsBlock.groupAt.
 */
export function groupIn(block: PostingsBlock | null, slot: number): number {
  return block !== null && block.groupAt.length > 0 ? block.groupAt[slot - block.from] : -1;
}

/** The Bloom bit (0–63) of a token id. */
export function bloomBit(tid: number): number {
  return Math.imul(tid, 0x9e3779b1) >>> 26;
}

/** A slot's 64-bit Bloom filter folded to 32 bits: bits b and b + 32 both become bit b. */
export function foldedBloom(lo: number, hi: number): number {
  return lo | hi;
}

/** The token ids of the entry being added, in a buffer reused from entry to entry. */
export class TokenIds {
  ids = new Int32Array(256);
  count = 0;
  /** The entry's punctuation and tag tokens (the match index counts them; the concordance leaves 0). */
  punct = 0;
  tags = 0;

  clear(): void {
    this.count = 0;
    this.punct = 0;
    this.tags = 0;
  }

  push(tid: number): void {
    if (this.count === this.ids.length) this.ids = grow(this.ids, this.count * 2);
    this.ids[this.count++] = tid;
  }
}

/**
 * Entries (id, text, update time, tokens) in slots: typed arrays indexed by slot, tokens as ids in one
 * pool, postings per token in blocks, an exact-text hash. Slots are appended; removal leaves a
 * tombstone; compaction renumbers. The indexes of this folder read the fields directly.
 */
export class TokenStore {
  /**
   * Whether blocks group copies of a text under one posting (the match index: a search takes a group's
   * best-ranked members only). The concordance index, which returns every entry, does not.
   */
  readonly groups: boolean;

  constructor(options: { groups?: boolean } = {}) {
    this.groups = options.groups ?? false;
  }

  slotCount = 0;
  ids = new Float64Array(1024);
  updated = new Float64Array(1024);
  /** The entries' texts by slot (read them with text()); a removed slot's stays until compaction. */
  private texts = new TextPool();
  meta = new Int32Array(1024 * META);
  private readonly slotOf = new IdTable();
  private dead = 0;
  /**
   * Live entries by token count (the last bucket: LEN_CAP and more), and a number that changes with them:
   * the match index estimates from it how many of a key's postings fall in a length window.
   */
  readonly lengthCounts = new Float64Array(LEN_CAP + 1);
  lengthsVersion = 0;
  /** Token ids of every slot, back to back. */
  pool = new Int32Array(8192);
  private poolLen = 0;

  // Vocabulary: token → token id in an open-addressing table (so that an ASCII word can be looked up
  // from the text it is in, without building its string); (token id, occurrence) → posting key. The
  // table holds each token's id, hash and first posting key side by side (TABLE_STRIDE ints a place, id
  // -1 when free): a probe compares hashes on the line it reads, and a search finds the key there, where
  // arrays by token id cost a cache miss each.
  private readonly tokens: string[] = [];
  private table = new Int32Array(4096 * TABLE_STRIDE).fill(-1);
  private firstKey = new Int32Array(1024);
  private readonly repeatKey = new Map<number, number>();
  frequency = new Int32Array(1024);
  private keyCount = 0;
  /**
   * The pair buckets of the next block: pairHash & pairMask, at least as many as slots (growPairs). A
   * search takes a pair's frequency from its lists in the blocks (pairListLength), where it reads them
   * next: a table of counts by bucket would cost a cache miss a pair more, and 4 bytes a bucket.
   */
  pairMask = MIN_PAIR_BUCKETS - 1;
  /** One entry's distinct pair buckets at a time (buildPairs). */
  private readonly entryPairs = new SmallCounts();
  /**
   * Per token id scratch for the concordance search: its words, marked with the search's stamp
   * (nextStamp). The match index keeps a query's tokens in a SmallCounts of its own.
   */
  queryMark = new Int32Array(1024);
  /**
   * Per token id scratch for one entry or candidate at a time, side by side (one cache line for both):
   * useMarks[2·tid] its stamp (nextCandidateStamp), useMarks[2·tid + 1] the token's occurrences so far.
   */
  useMarks = new Int32Array(2048);

  private buckets = new Int32Array(2048).fill(-1);
  blocks: PostingsBlock[] = [];
  /** Slots below this are in blocks; the rest is the tail. */
  indexed = 0;
  /** Slots without any token. */
  empty: number[] = [];
  private stamp = 0;
  private candidateStamp = 0;

  get size(): number {
    return this.slotOf.size;
  }

  has(id: number): boolean {
    return this.slotOf.get(id) >= 0;
  }

  isAlive(slot: number): boolean {
    return (this.meta[slot * META + M_FLAGS] & ALIVE) !== 0;
  }

  lengthOf(slot: number): number {
    return this.meta[slot * META + M_LEN];
  }

  /** Whether the slot's text is `text`, compared without decoding it. */
  textEquals(slot: number, text: string): boolean {
    return this.texts.equals(slot, text);
  }

  /** The text of a live slot, decoded from the pool: read it only for the candidates that need it. */
  text(slot: number): string {
    return this.texts.text(slot);
  }

  /** Stores an entry (replacing the one with this id) with its tokens' ids (from intern*). */
  add(id: number, text: string, updatedAt: number, tokens: TokenIds): void {
    // Ranking compares ids and times as numbers: NaN would make ties undecidable.
    if (!Number.isFinite(id)) throw new RangeError(`entry id must be a finite number, got ${id}`);
    if (!Number.isFinite(updatedAt))
      throw new RangeError(`entry ${id}: updatedAt must be a finite number, got ${updatedAt}`);
    const { ids: tids, count } = tokens;
    this.remove(id);
    const slot = this.slotCount++;
    if (slot === this.ids.length) this.growSlots(slot * 2);
    this.ids[slot] = id;
    this.updated[slot] = updatedAt;
    this.texts.push(text);
    this.slotOf.set(id, slot);
    const start = this.poolLen;
    if (start + count > this.pool.length) this.pool = grow(this.pool, (start + count) * 2);
    this.pool.set(tids.subarray(0, count), start);
    this.poolLen += count;
    const m = slot * META;
    this.meta[m + M_START] = start;
    this.meta[m + M_LEN] = count;
    this.meta[m + M_FLAGS] = shapeFlags(tokens.punct, tokens.tags);
    this.lengthCounts[Math.min(count, LEN_CAP)]++;
    this.lengthsVersion++;
    this.meta[m + M_HASH] = hashString(text);
    if (count === 0) this.empty.push(slot);
    if (this.slotCount > this.pairMask + 1) this.growPairs();
    this.describe(slot);
    if (this.slotCount * 2 > this.buckets.length) this.rehash(this.buckets.length * 2);
    else this.link(slot);
  }

  /**
   * Room for n entries in all: the slot arrays, the id and exact-text tables and the pair buckets grown
   * once now, rather than doubled during a bulk load, where each doubling copies or rehashes every slot
   * in one piece (the exact-text rehash at eight million entries held the event loop 523 ms in a CPU
   * profile of the 10M import bench).
   */
  reserve(n: number): void {
    if (n > this.ids.length) this.growSlots(n);
    this.slotOf.reserve(n);
    let size = this.buckets.length;
    while (n * 2 > size) size *= 2;
    if (size > this.buckets.length) this.rehash(size);
    if (n > this.pairMask + 1) this.growPairs(n);
  }

  /** Removes the entry with this id; false when there is none. */
  remove(id: number): boolean {
    const slot = this.slotOf.get(id);
    if (slot < 0) return false;
    this.slotOf.delete(id);
    // The rest of the flags stay: a removed head of a group of copies still stands for them (groupAt).
    this.meta[slot * META + M_FLAGS] &= ~ALIVE;
    this.metaWrites++;
    this.dead++;
    this.lengthCounts[Math.min(this.meta[slot * META + M_LEN], LEN_CAP)]--;
    this.lengthsVersion++;
    return true;
  }

  /** Indexes the tail, merges blocks, compacts tombstones, as far as due. */
  refresh(): void {
    for (const _ of this.refreshInSlices());
  }

  /**
   * refresh() in slices: it yields every SLICE slots or so of work, so that an asynchronous caller can
   * give the event loop a turn in between (after a bulk load of ten million entries the work is a block
   * of all of them, several seconds of one call). At every yield the store is whole and searchable as it
   * was: a block takes its place only once built. A refresh() called meanwhile (a search) finishes the
   * work in one go, and then this one ends at its next step.
   */
  *refreshInSlices(): Generator<void, void> {
    for (;;) {
      // Work left suspended by another caller is finished first; then what is due now is done too.
      const resumed = this.pending !== null;
      this.pending ??= this.refreshWork();
      const work = this.pending;
      while (!work.next().done) yield;
      if (this.pending === work) this.pending = null;
      if (!resumed) return;
    }
  }

  /** The work of refresh() suspended between its slices, which any refresh finishes first. */
  private pending: Generator<void, void> | null = null;

  private *refreshWork(): Generator<void, void> {
    if (this.dead >= MIN_DEAD_TO_COMPACT && this.dead * 4 > this.slotCount) {
      yield* this.compact();
      return;
    }
    if (this.slotCount - this.indexed < TAIL_LIMIT) return;
    const s = this.blocks;
    const to = this.slotCount;
    const tail = yield* this.buildBlock(this.indexed, to);
    s.push(tail);
    this.indexed = to;
    // Installed first: a rehash meanwhile (an add) then leaves the block's copies out too.
    yield* this.unlinkCopies(tail);
    const size = (g: PostingsBlock) => g.to - g.from;
    while (s.length > 1 && size(s[s.length - 2]) < 2 * size(s[s.length - 1])) {
      const merged = yield* this.buildBlock(s[s.length - 2].from, s[s.length - 1].to);
      s.splice(s.length - 2, 2, merged);
      yield* this.unlinkCopies(merged);
    }
    yield* this.trim();
  }

  /**
   * Gives back the slack that growth by doubling leaves after a bulk load (up to half of the pool and of
   * the slot arrays), keeping an eighth for the next additions.
   */
  private *trim(): Generator<void, void> {
    const fit = (used: number) => Math.max(1024, used + (used >> 3));
    // In slices (a gigabyte of copies at ten million entries). A copy whose source changed meanwhile is
    // dropped, the next trim trying again: entries added (the slot arrays and the pool only grow at their
    // end), or slots' fields changed in place (metaWrites: removals, rehashes).
    yield* this.texts.trim();
    const { pool, poolLen } = this;
    if (pool.length > 1.5 * poolLen + 8192) {
      const copy = yield* copied(pool, fit(poolLen));
      if (this.pool === pool && this.poolLen === poolLen) this.pool = copy;
    }
    const { ids, updated, meta, slotCount, metaWrites } = this;
    if (ids.length > 1.5 * slotCount + 1024) {
      const n = fit(slotCount);
      const idsCopy = yield* copied(ids, n);
      const updatedCopy = yield* copied(updated, n);
      const metaCopy = yield* copied(meta, n * META);
      const unchanged =
        this.ids === ids &&
        this.meta === meta &&
        this.slotCount === slotCount &&
        this.metaWrites === metaWrites;
      if (unchanged) {
        this.ids = idsCopy;
        this.updated = updatedCopy;
        this.meta = metaCopy;
      }
    }
  }

  /** Counts the changes to existing slots' meta outside refresh (removals, rehashes): see trim(). */
  private metaWrites = 0;

  /**
   * The token id of a token, -1 when no entry ever had it; `foundKey` is then its first occurrence's
   * posting key (keyOf(tid, 1)), read from the same place of the table.
   */
  tokenId(token: string): number {
    const h = hashString(token);
    const { table } = this;
    const mask = table.length / TABLE_STRIDE - 1;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const o = at * TABLE_STRIDE;
      const tid = table[o];
      if (tid < 0 || (table[o + 1] === h && this.tokens[tid] === token)) {
        this.foundKey = tid < 0 ? -1 : table[o + 2];
        return tid;
      }
    }
  }

  /** The first occurrence's posting key of the token tokenId found last. */
  foundKey = -1;

  /** The token id of a token, added to the vocabulary when new. */
  intern(token: string): number {
    const h = hashString(token);
    const { table } = this;
    const mask = table.length / TABLE_STRIDE - 1;
    let at = h & mask;
    for (let tid = table[at * TABLE_STRIDE]; tid >= 0; tid = table[(at = (at + 1) & mask) * TABLE_STRIDE])
      if (table[at * TABLE_STRIDE + 1] === h && this.tokens[tid] === token) return tid;
    return this.newToken(token, h, at);
  }

  /** intern(text.slice(start, end).toLowerCase()) for ASCII text, without building the string first. */
  internAsciiLower(text: string, start: number, end: number): number {
    let h = FNV_BASIS;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
    }
    h |= 0;
    const { table } = this;
    const mask = table.length / TABLE_STRIDE - 1;
    let at = h & mask;
    for (let tid = table[at * TABLE_STRIDE]; tid >= 0; tid = table[(at = (at + 1) & mask) * TABLE_STRIDE])
      if (table[at * TABLE_STRIDE + 1] === h && equalsAsciiLower(this.tokens[tid], text, start, end))
        return tid;
    return this.newToken(text.slice(start, end).toLowerCase(), h, at);
  }

  /** The posting key of the occurrence-th occurrence of a token in an entry, -1 when no entry has it. */
  keyOf(tid: number, occurrence: number): number {
    if (occurrence === 1) return this.firstKey[tid];
    return this.repeatKey.get(occurrence * REPEAT_KEY + tid) ?? -1;
  }

  /**
   * Slots whose text is exactly `text`: the live ones, and the heads of groups of copies, removed or not
   * (a group's other members are not in the hash chains: a search takes them from the head's group).
   */
  exactSlots(text: string): number[] {
    const h = hashString(text);
    const found: number[] = [];
    const { meta } = this;
    for (let s = this.buckets[h & (this.buckets.length - 1)]; s >= 0; s = meta[s * META + M_NEXT])
      if (
        meta[s * META + M_HASH] === h &&
        (meta[s * META + M_FLAGS] & ALIVE || this.groupOf(s) >= 0) &&
        this.texts.equals(s, text)
      )
        found.push(s);
    return found;
  }

  /** The block holding a slot, null for a slot of the tail. */
  blockOf(slot: number): PostingsBlock | null {
    const { blocks } = this;
    let a = 0;
    let b = blocks.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (blocks[mid].to <= slot) a = mid + 1;
      else b = mid;
    }
    return a < blocks.length && slot >= blocks[a].from ? blocks[a] : null;
  }

  /** Where the slot's group starts in its block's members; -1 without copies, -2 for a copy (not a head). */
  groupOf(slot: number): number {
    return groupIn(this.blockOf(slot), slot);
  }

  /** The sub-range of a block's postings of `key` whose slots have minLen..maxLen tokens; null if none. */
  postings(seg: PostingsBlock, key: number, minLen: number, maxLen: number): [number, number] | null {
    return this.range(seg.keys, seg.starts, seg.slots, seg.lens, key, minLen, maxLen);
  }

  /** The same for the postings of a pair bucket (pairHash masked by the block's own pairMask). */
  pairPostings(seg: PostingsBlock, hash: number, minLen: number, maxLen: number): [number, number] | null {
    if (minLen > maxLen || !this.findPairList(seg, hash & seg.pairMask)) return null;
    return this.window(seg.pairSlots, seg.pairLens, this.listFrom, this.listTo, minLen, maxLen);
  }

  /** The number of postings of a pair bucket in a block: the block's entries holding it. */
  pairListLength(seg: PostingsBlock, hash: number): number {
    return this.findPairList(seg, hash & seg.pairMask) ? this.listTo - this.listFrom : 0;
  }

  /** Bounds of the list findPairList found last (no array allocated a lookup). */
  private listFrom = 0;
  private listTo = 0;

  /** Finds the postings of a bucket in a block into listFrom..listTo; false when it has none. */
  private findPairList(seg: PostingsBlock, bucket: number): boolean {
    const { pairIndex: index, pairStarts: starts } = seg;
    if (index.length === 0) {
      const at = listOf(index, starts, bucket);
      if (at < 0) return false;
      this.listFrom = starts[at];
      this.listTo = starts[at + 1];
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
    this.listFrom = index[2 * a + 1];
    this.listTo = index[2 * a + 3];
    return true;
  }

  private range(
    keys: Int32Array,
    starts: Int32Array,
    slots: Int32Array,
    lens: Uint8Array,
    key: number,
    minLen: number,
    maxLen: number,
  ): [number, number] | null {
    if (minLen > maxLen) return null;
    const at = listOf(keys, starts, key);
    if (at < 0) return null;
    return this.window(slots, lens, starts[at], starts[at + 1], minLen, maxLen);
  }

  /** The part of the postings from..to (one list, sorted by token count) of minLen..maxLen tokens. */
  private window(
    slots: Int32Array,
    lens: Uint8Array,
    from: number,
    to: number,
    minLen: number,
    maxLen: number,
  ): [number, number] | null {
    const lo = this.firstLonger(slots, lens, from, to, minLen - 1);
    const hi = this.firstLonger(slots, lens, lo, to, maxLen);
    return lo < hi ? [lo, hi] : null;
  }

  /**
   * The first position in a..end of a posting list (sorted by token count) whose entry has more than x
   * tokens: by the capped lengths beside the postings, exact below LEN_CAP; from there by the slots' own.
   */
  private firstLonger(slots: Int32Array, lens: Uint8Array, a: number, end: number, x: number): number {
    const capped = Math.min(x, LEN_CAP - 1);
    let b = end;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (lens[mid] <= capped) a = mid + 1;
      else b = mid;
    }
    if (x < LEN_CAP) return a;
    const { meta } = this;
    b = end;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (meta[slots[mid] * META + M_LEN] <= x) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  /** A fresh mark for M_SEEN and `queryMark`. */
  nextStamp(): number {
    if (this.stamp >= STAMP_LIMIT) {
      this.stamp = 0;
      for (let m = M_SEEN; m < this.meta.length; m += META) this.meta[m] = 0;
      this.queryMark.fill(0);
    }
    return ++this.stamp;
  }

  /** A fresh mark for `useMarks`. */
  nextCandidateStamp(): number {
    if (this.candidateStamp >= STAMP_LIMIT) {
      this.candidateStamp = 0;
      this.useMarks.fill(0);
    }
    return ++this.candidateStamp;
  }

  private newToken(token: string, h: number, at: number): number {
    const tid = this.tokens.length;
    this.tokens.push(token);
    if (tid === this.firstKey.length) {
      const n = tid * 2;
      this.firstKey = grow(this.firstKey, n);
      this.queryMark = grow(this.queryMark, n);
      this.useMarks = grow(this.useMarks, 2 * n);
    }
    // A token's first key never changes: the table's copy stays true.
    const key = this.newKey();
    this.firstKey[tid] = key;
    this.table[at * TABLE_STRIDE] = tid;
    this.table[at * TABLE_STRIDE + 1] = h;
    this.table[at * TABLE_STRIDE + 2] = key;
    // Keep the table at most half full.
    if (this.tokens.length * 2 * TABLE_STRIDE > this.table.length) {
      const old = this.table;
      const table = new Int32Array(old.length * 2).fill(-1);
      const mask = table.length / TABLE_STRIDE - 1;
      for (let o = 0; o < old.length; o += TABLE_STRIDE) {
        if (old[o] < 0) continue;
        let a = old[o + 1] & mask;
        while (table[a * TABLE_STRIDE] >= 0) a = (a + 1) & mask;
        table.set(old.subarray(o, o + TABLE_STRIDE), a * TABLE_STRIDE);
      }
      this.table = table;
    }
    return tid;
  }

  private newKey(): number {
    const key = this.keyCount++;
    if (key === this.frequency.length) this.frequency = grow(this.frequency, key * 2);
    return key;
  }

  /** Counts the slot's posting keys into `frequency` and sets its Bloom filter. */
  private describe(slot: number): void {
    const m = slot * META;
    const start = this.meta[m + M_START];
    const end = start + this.meta[m + M_LEN];
    const mark = this.nextCandidateStamp();
    let lo = 0;
    let hi = 0;
    for (let i = start; i < end; i++) {
      const tid = this.pool[i];
      const bit = bloomBit(tid);
      if (bit < 32) lo |= 1 << bit;
      else hi |= 1 << (bit - 32);
      if (this.useMarks[2 * tid] !== mark) {
        this.useMarks[2 * tid] = mark;
        this.useMarks[2 * tid + 1] = 1;
        this.frequency[this.firstKey[tid]]++;
      } else this.frequency[this.repeatKeyOf(tid, ++this.useMarks[2 * tid + 1])]++;
    }
    this.meta[m + M_BLOOM_LO] = lo;
    this.meta[m + M_BLOOM_HI] = hi;
  }

  /** Doubles the pair buckets until there are at least as many as slots (for the blocks built next). */
  private growPairs(slots = this.slotCount): void {
    let n = this.pairMask + 1;
    while (n < slots) n *= 2;
    this.pairMask = n - 1;
  }

  /** The posting key of a token's occurrence-th (≥ 2) occurrence, created when new. */
  private repeatKeyOf(tid: number, occurrence: number): number {
    const k = occurrence * REPEAT_KEY + tid;
    let key = this.repeatKey.get(k);
    if (key === undefined) {
      key = this.newKey();
      this.repeatKey.set(k, key);
    }
    return key;
  }

  private growSlots(n: number): void {
    this.ids = grow(this.ids, n);
    this.updated = grow(this.updated, n);
    this.meta = grow(this.meta, n * META);
  }

  private link(slot: number): void {
    const m = slot * META;
    const b = this.meta[m + M_HASH] & (this.buckets.length - 1);
    this.meta[m + M_NEXT] = this.buckets[b];
    this.buckets[b] = slot;
  }

  private rehash(size: number): void {
    this.metaWrites++;
    this.buckets = new Int32Array(size).fill(-1);
    const { blocks } = this;
    let at = 0;
    for (let s = 0; s < this.slotCount; s++) {
      while (at < blocks.length && blocks[at].to <= s) at++;
      const b = at < blocks.length && s >= blocks[at].from ? blocks[at] : null;
      const group = groupIn(b, s);
      // A copy is reached through its group's head, which stays even once removed.
      if (group === -2) continue;
      if (group >= 0 || this.isAlive(s)) this.link(s);
    }
  }

  /**
   * Takes the copies of a block just installed out of the hash chains (PostingsBlock.groupAt): the exact
   * path then meets one head per text and block, not every copy, however many thousand there are.
   */
  private *unlinkCopies(b: PostingsBlock): Generator<void, void> {
    const { members, groupAt, from, to } = b;
    for (let g = 0, done = 0; g < members.length; g += 1 + members[g]) {
      const { meta, buckets } = this;
      const bucket = meta[members[g + 1] * META + M_HASH] & (buckets.length - 1);
      let prev = -1;
      for (let s = buckets[bucket]; s >= 0; ) {
        const next = meta[s * META + M_NEXT];
        if (s >= from && s < to && groupAt[s - from] === -2) {
          if (prev < 0) buckets[bucket] = next;
          else meta[prev * META + M_NEXT] = next;
        } else prev = s;
        s = next;
      }
      if (++done > SLICE_MASK >> 4) {
        done = 0;
        yield;
      }
    }
  }

  /**
   * Postings of [from, to), each key's slots by token count, then newest slot first: searches meet recent
   * entries first, which win ties, so the top n settles early and prunes the rest. Yields every SLICE
   * slots (refreshInSlices); entries added meanwhile lie beyond `to`, and one removed meanwhile only
   * leaves a dead slot in the postings, as removals after a build do.
   */
  private *buildBlock(from: number, to: number): Generator<void, PostingsBlock> {
    let { meta, pool } = this;
    // Live slots with tokens in (length, slot descending) order, by counting sort on length.
    let maxLen = 0;
    let total = 0;
    for (let s = from; s < to; s++) {
      if (!(meta[s * META + M_FLAGS] & ALIVE)) continue;
      const len = meta[s * META + M_LEN];
      if (len > maxLen) maxLen = len;
      total += len;
    }
    const byLen = new Int32Array(maxLen + 2);
    for (let s = from; s < to; s++) if (meta[s * META + M_FLAGS] & ALIVE) byLen[meta[s * META + M_LEN] + 1]++;
    for (let l = 1; l < byLen.length; l++) byLen[l] += byLen[l - 1];
    // Slots without tokens have no postings: positions start after them.
    const skip = byLen[1];
    let order: Int32Array = new Int32Array(byLen[maxLen + 1] - skip);
    for (let s = to - 1; s >= from; s--) {
      const len = meta[s * META + M_LEN];
      if (meta[s * META + M_FLAGS] & ALIVE && len > 0) order[byLen[len]++ - skip] = s;
    }
    yield;
    ({ meta, pool } = this);
    let groupAt: Int32Array = EMPTY;
    let members: Int32Array = EMPTY;
    if (this.groups) {
      const grouped = yield* this.groupCopies(order, from, to);
      ({ groupAt, members } = grouped);
      order = grouped.heads;
      ({ meta, pool } = this);
      total = 0;
      for (let i = 0; i < order.length; i++) total += meta[order[i] * META + M_LEN];
    }
    // Keys of every token in that order, counted per key; then each key's postings filled in order. Every
    // key of these slots exists already (describe made them), so keys made meanwhile are out of range.
    const keysInOrder = new Int32Array(total);
    const count = new Int32Array(this.keyCount + 1);
    let p = 0;
    for (let i = 0; i < order.length; i++) {
      if ((i & SLICE_MASK) === SLICE_MASK) {
        yield;
        ({ meta, pool } = this);
      }
      const m = order[i] * META;
      const start = meta[m + M_START];
      const end = start + meta[m + M_LEN];
      const mark = this.nextCandidateStamp();
      for (let t = start; t < end; t++) {
        const tid = pool[t];
        let key: number;
        if (this.useMarks[2 * tid] !== mark) {
          this.useMarks[2 * tid] = mark;
          this.useMarks[2 * tid + 1] = 1;
          key = this.firstKey[tid];
        } else key = this.repeatKeyOf(tid, ++this.useMarks[2 * tid + 1]);
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
    ({ meta } = this);
    const slots = new Int32Array(total);
    const blooms = new Int32Array(total);
    const lens = new Uint8Array(total);
    p = 0;
    for (let i = 0; i < order.length; i++) {
      if ((i & SLICE_MASK) === SLICE_MASK) {
        yield;
        ({ meta } = this);
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
    const pairs = yield* this.buildPairs(order, total);
    return { from, to, keys, starts, slots, blooms, lens, groupAt, members, ...pairs };
  }

  /**
   * The slots of `order` (by length, then newest first) whose text equals an earlier one's, grouped
   * under that first one: the heads in the same order, and the groups of more than one (PostingsBlock
   * groupAt and members). Memories repeat a source once per target: a short one thousands of times.
   */
  private *groupCopies(
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
    let meta = this.meta;
    for (let i = 0; i < n; i++) {
      if ((i & SLICE_MASK) === SLICE_MASK) {
        yield;
        meta = this.meta;
      }
      const s = order[i];
      const h = meta[s * META + M_HASH];
      let at = h & mask;
      let head = -1;
      for (let j = table[at]; j >= 0; j = table[(at = (at + 1) & mask)]) {
        const t = order[j];
        if (meta[t * META + M_HASH] === h && this.texts.same(t, s)) {
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
    const { ids, updated } = this;
    const byRank = (a: number, b: number) => updated[b] - updated[a] || ids[a] - ids[b];
    for (let g = 0, done = 0; g < members.length; g += 1 + members[g]) {
      const c = members[g];
      members.set(Array.from(members.subarray(g + 1, g + 1 + c)).sort(byRank), g + 1);
      if ((done += c) > SLICE_MASK) {
        done = 0;
        yield;
      }
    }
    return { heads: headSlots, groupAt, members };
  }

  /** The pair postings of the slots in `order` (by length, then newest first), each list in that order. */
  private *buildPairs(
    order: Int32Array,
    total: number,
  ): Generator<
    void,
    Omit<
      PostingsBlock,
      'from' | 'to' | 'keys' | 'starts' | 'slots' | 'blooms' | 'lens' | 'groupAt' | 'members'
    >
  > {
    let { meta, pool } = this;
    // The table may grow while this yields: the block keeps the size it was started with.
    const pairMask = this.pairMask;
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
        ({ meta, pool } = this);
      }
      const m = order[i] * META;
      bloomAt[i] = foldedBloom(meta[m + M_BLOOM_LO], meta[m + M_BLOOM_HI]);
      lenAt[i] = Math.min(meta[m + M_LEN], LEN_CAP);
      const start = meta[m + M_START];
      const end = start + meta[m + M_LEN];
      const seen = this.entryPairs;
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

  /**
   * The store's state as numbers, strings and typed arrays, for the saved index file; restore() takes it
   * back. A snapshot: the arrays that change in place (slots, pool, counts, hash tables) are copied, so
   * that the store can go on taking entries and queries while the file is written; the postings blocks,
   * never changed once built, and the texts, only ever appended to, are shared.
   */
  toParts(): StoreParts {
    const steps = this.toPartsInSlices();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * toParts() with a yield after each slice of the copies (some 10 ms each): at ten million entries they
   * are a gigabyte, over a second in one piece. The store must not change until it returns (the index
   * cache holds its catch-ups back meanwhile); searches may run between the slices.
   */
  *toPartsInSlices(): Generator<void, StoreParts> {
    return {
      numbers: {
        slotCount: this.slotCount,
        dead: this.dead,
        poolLen: this.poolLen,
        keyCount: this.keyCount,
        indexed: this.indexed,
        pairMask: this.pairMask,
        tokenCount: this.tokens.length,
        blockCount: this.blocks.length,
        groups: this.groups ? 1 : 0,
      },
      strings: { tokens: this.tokens.slice() },
      arrays: {
        ...textArrays(this.texts),
        ids: yield* copied(this.ids, this.slotCount),
        updated: yield* copied(this.updated, this.slotCount),
        meta: yield* copied(this.meta, this.slotCount * META),
        pool: yield* copied(this.pool, this.poolLen),
        table: this.table.slice(),
        firstKey: this.firstKey.slice(0, this.tokens.length),
        repeatKeys: Float64Array.from(this.repeatKey.keys()),
        repeatValues: Int32Array.from(this.repeatKey.values()),
        frequency: this.frequency.slice(0, this.keyCount),
        buckets: yield* copied(this.buckets, this.buckets.length),
        empty: Int32Array.from(this.empty),
        blockRanges: Int32Array.from(this.blocks.flatMap((b) => [b.from, b.to, b.pairMask])),
        ...Object.fromEntries(
          this.blocks.flatMap((b, i) => [
            [`b${i}keys`, b.keys],
            [`b${i}starts`, b.starts],
            [`b${i}slots`, b.slots],
            [`b${i}blooms`, b.blooms],
            [`b${i}lens`, b.lens],
            [`b${i}groupAt`, b.groupAt],
            [`b${i}members`, b.members],
            [`b${i}pairIndex`, b.pairIndex],
            [`b${i}pairStarts`, b.pairStarts],
            [`b${i}pairSlots`, b.pairSlots],
            [`b${i}pairBlooms`, b.pairBlooms],
            [`b${i}pairLens`, b.pairLens],
          ]),
        ),
      },
    };
  }

  /** A store from toParts() of another (its arrays are taken over, not copied). */
  static restore(parts: StoreParts): TokenStore {
    const { numbers: n, strings, arrays: a } = parts;
    const int = (name: string) => a[name] as Int32Array<ArrayBuffer>;
    const bytes = (name: string) => a[name] as Uint8Array<ArrayBuffer>;
    const store = new TokenStore({ groups: n.groups === 1 });
    const room = Math.max(1024, n.slotCount);
    store.slotCount = n.slotCount;
    store.dead = n.dead;
    store.ids = withRoom(a.ids as Float64Array<ArrayBuffer>, room);
    store.updated = withRoom(a.updated as Float64Array<ArrayBuffer>, room);
    store.meta = withRoom(int('meta'), room * META);
    store.texts = TextPool.restore({
      bytes: a.textBytes as Uint8Array<ArrayBuffer>,
      starts: a.textStarts as Float64Array<ArrayBuffer>,
      wide: a.textWide as Uint8Array<ArrayBuffer>,
    });
    if (store.texts.count !== n.slotCount) throw new RangeError('index parts: one text per slot expected');
    store.slotOf.reserve(n.slotCount - n.dead);
    for (let s = 0; s < n.slotCount; s++)
      if (store.meta[s * META + M_FLAGS] & ALIVE) {
        store.slotOf.set(store.ids[s], s);
        store.lengthCounts[Math.min(store.meta[s * META + M_LEN], LEN_CAP)]++;
      }
    store.lengthsVersion++;
    store.pool = withRoom(int('pool'), Math.max(8192, n.poolLen));
    store.poolLen = n.poolLen;
    for (const token of strings.tokens) store.tokens.push(token);
    const tokenRoom = Math.max(1024, n.tokenCount);
    store.table = int('table');
    store.firstKey = withRoom(int('firstKey'), tokenRoom);
    store.queryMark = new Int32Array(tokenRoom);
    store.useMarks = new Int32Array(2 * tokenRoom);
    const rk = a.repeatKeys as Float64Array<ArrayBuffer>;
    const rv = int('repeatValues');
    for (let i = 0; i < rk.length; i++) store.repeatKey.set(rk[i], rv[i]);
    store.keyCount = n.keyCount;
    store.frequency = withRoom(int('frequency'), Math.max(1024, n.keyCount));
    store.pairMask = n.pairMask;
    store.buckets = int('buckets');
    store.empty = Array.from(int('empty'));
    const ranges = int('blockRanges');
    for (let i = 0; i < n.blockCount; i++) {
      const pairIndex = int(`b${i}pairIndex`);
      const dir = keyDirectory(pairIndex, ranges[3 * i + 2]);
      store.blocks.push({
        from: ranges[3 * i],
        to: ranges[3 * i + 1],
        pairMask: ranges[3 * i + 2],
        keys: int(`b${i}keys`),
        starts: int(`b${i}starts`),
        slots: int(`b${i}slots`),
        blooms: int(`b${i}blooms`),
        lens: bytes(`b${i}lens`),
        groupAt: int(`b${i}groupAt`),
        members: int(`b${i}members`),
        pairIndex,
        pairDir: dir.at,
        pairDirShift: dir.shift,
        pairStarts: int(`b${i}pairStarts`),
        pairSlots: int(`b${i}pairSlots`),
        pairBlooms: int(`b${i}pairBlooms`),
        pairLens: bytes(`b${i}pairLens`),
      });
    }
    store.indexed = n.indexed;
    // No marks of earlier queries: stamps start again.
    for (let m = M_SEEN; m < n.slotCount * META; m += META) store.meta[m] = 0;
    return store;
  }

  /** Renumbers the live slots densely and rebuilds every structure from their token ids. */
  private *compact(): Generator<void, void> {
    const old = { ids: this.ids, updated: this.updated, texts: this.texts, meta: this.meta, pool: this.pool };
    const cap = Math.max(1024, (this.slotCount - this.dead) * 2);
    this.ids = new Float64Array(cap);
    this.updated = new Float64Array(cap);
    this.meta = new Int32Array(cap * META);
    this.texts = new TextPool();
    this.empty = [];
    const pool = new Int32Array(Math.max(8192, this.poolLen));
    let poolLen = 0;
    let t = 0;
    for (let s = 0; s < this.slotCount; s++) {
      const o = s * META;
      if (!(old.meta[o + M_FLAGS] & ALIVE)) continue;
      const m = t * META;
      this.meta.set(old.meta.subarray(o, o + META), m);
      const len = old.meta[o + M_LEN];
      pool.set(old.pool.subarray(old.meta[o + M_START], old.meta[o + M_START] + len), poolLen);
      this.meta[m + M_START] = poolLen;
      poolLen += len;
      this.ids[t] = old.ids[s];
      this.updated[t] = old.updated[s];
      this.texts.copyFrom(old.texts, s);
      if (len === 0) this.empty.push(t);
      this.slotOf.set(old.ids[s], t);
      t++;
    }
    this.pool = pool;
    this.poolLen = poolLen;
    this.slotCount = t;
    this.dead = 0;
    this.frequency.fill(0);
    for (let s = 0; s < t; s++) this.describe(s);
    // The old blocks go first: their groups speak of the old slot numbers, which rehash would consult.
    this.blocks = [];
    this.indexed = 0;
    this.rehash(this.buckets.length);
    // Whole again (every slot in the tail) at each yield of the build.
    if (t > 0) this.blocks = [yield* this.buildBlock(0, t)];
    this.indexed = t;
    for (const b of this.blocks) yield* this.unlinkCopies(b);
  }
}

/**
 * Whether a block's postings index their starts by key directly (PostingsBlock.keys): when `present` of
 * `range` keys have postings and the dense array (range + 1 ints) is at most a quarter larger than the
 * sparse pair (2·present + 1): the big blocks, which hold most keys and every query reads.
 */
function isDense(range: number, present: number): boolean {
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
const PAIR_INDEX_END = 2 ** 31 - 1;

/**
 * The directory of a sparse pairIndex (buckets in 0..maxKey at its even positions, closed by
 * PAIR_INDEX_END): the smallest shift leaving at least KEYS_PER_SLICE buckets a slice on average, and
 * at[j] the first entry whose bucket >>> shift ≥ j (slices + 1 entries, the last one the closing entry).
 * Empty for a dense block.
 */
function keyDirectory(index: Int32Array, maxKey: number): { at: Int32Array; shift: number } {
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

/**
 * Ints a place of the vocabulary's table: the token id (-1 for a free place), its hash, its first posting
 * key, and one unused, so that a place never straddles two cache lines.
 */
const TABLE_STRIDE = 4;

const FNV_BASIS = 0x811c9dc5;
const FNV_PRIME = 16777619;

/** FNV-1a over UTF-16 code units: the hash of texts (exact path) and of tokens (vocabulary). */
function hashString(s: string): number {
  let h = FNV_BASIS;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

function equalsAsciiLower(token: string, text: string, start: number, end: number): boolean {
  if (token.length !== end - start) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (token.charCodeAt(i - start) !== (c >= 65 && c <= 90 ? c + 32 : c)) return false;
  }
  return true;
}

/**
 * Entry id → slot: open addressing over typed arrays (linear probing, deletion by backward shift), a
 * fraction of a Map's memory and time for millions of entries.
 */
class IdTable {
  private keys = new Float64Array(2048);
  private vals = new Int32Array(2048).fill(-1);
  size = 0;

  /** The slot of an id, -1 when absent. */
  get(id: number): number {
    const mask = this.vals.length - 1;
    for (let at = hashId(id) & mask; ; at = (at + 1) & mask) {
      const v = this.vals[at];
      if (v < 0 || this.keys[at] === id) return v;
    }
  }

  /** Room for n ids without growing. */
  reserve(n: number): void {
    let size = this.vals.length;
    while (n * 2 > size) size *= 2;
    if (size > this.vals.length) this.resize(size);
  }

  set(id: number, slot: number): void {
    if ((this.size + 1) * 2 > this.vals.length) this.resize(this.vals.length * 2);
    const mask = this.vals.length - 1;
    let at = hashId(id) & mask;
    while (this.vals[at] >= 0 && this.keys[at] !== id) at = (at + 1) & mask;
    if (this.vals[at] < 0) this.size++;
    this.keys[at] = id;
    this.vals[at] = slot;
  }

  delete(id: number): void {
    const mask = this.vals.length - 1;
    let at = hashId(id) & mask;
    for (;;) {
      if (this.vals[at] < 0) return;
      if (this.keys[at] === id) break;
      at = (at + 1) & mask;
    }
    this.size--;
    // Backward shift: move up every later entry of the run that may sit at `at`.
    let hole = at;
    for (let j = (hole + 1) & mask; this.vals[j] >= 0; j = (j + 1) & mask) {
      const home = hashId(this.keys[j]) & mask;
      // Whether home lies cyclically in (hole, j]: if not, the entry may move to the hole.
      if (hole <= j ? home > hole && home <= j : home > hole || home <= j) continue;
      this.keys[hole] = this.keys[j];
      this.vals[hole] = this.vals[j];
      hole = j;
    }
    this.vals[hole] = -1;
  }

  private resize(n: number): void {
    const { keys, vals } = this;
    this.keys = new Float64Array(n);
    this.vals = new Int32Array(n).fill(-1);
    this.size = 0;
    for (let i = 0; i < vals.length; i++) if (vals[i] >= 0) this.set(keys[i], vals[i]);
  }
}

const idWords = new Int32Array(2);
const idDouble = new Float64Array(idWords.buffer);

function hashId(id: number): number {
  // (+0 for -0, which equals 0 as a key.)
  idDouble[0] = id + 0;
  const h = Math.imul(idWords[0] ^ Math.imul(idWords[1], 0x85ebca6b), 0x9e3779b1);
  return h ^ (h >>> 15);
}

/** What TokenStore.toParts() gives and TokenStore.restore() takes. */
export interface StoreParts {
  numbers: {
    slotCount: number;
    dead: number;
    poolLen: number;
    keyCount: number;
    indexed: number;
    pairMask: number;
    tokenCount: number;
    blockCount: number;
    /** 1 when the store groups copies (TokenStore.groups). */
    groups: number;
  };
  strings: { tokens: string[] };
  arrays: Record<string, Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>;
}

/** The text pool's arrays under their names in StoreParts.arrays. */
function textArrays(texts: TextPool): StoreParts['arrays'] {
  const { bytes, starts, wide } = texts.toParts();
  return { textBytes: bytes, textStarts: starts, textWide: wide };
}

/** `a` itself when it has at least n elements, else a copy with room for n. */
/** Elements copied between two yields of copied(): 8 or 16 MB. */
const COPY_SLICE = 2 ** 21;

/** A copy of the first n elements of `a`, COPY_SLICE at a time, with a yield after each. */
function* copied<T extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(
  a: T,
  n: number,
): Generator<void, T> {
  const b = new (a.constructor as new (n: number) => T)(n);
  for (let at = 0; at < n; at += COPY_SLICE) {
    b.set(a.subarray(at, Math.min(n, at + COPY_SLICE)) as T, at);
    yield;
  }
  return b;
}

function withRoom<T extends Int32Array | Float64Array>(a: T, n: number): T {
  return a.length >= n ? a : grow(a, n);
}

function grow<T extends Int32Array | Float64Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
