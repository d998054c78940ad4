// Entries as token-id sequences with postings sorted by length: the storage under both in-process indexes.
import { IdTable } from './id-table.ts';
import { groupIn, LEN_CAP, type PostingsBlock } from './postings-block.ts';
import { buildBlock } from './postings-build.ts';
import {
  ALIVE,
  bloomBit,
  M_BLOOM_HI,
  M_BLOOM_LO,
  M_FLAGS,
  M_HASH,
  M_LEN,
  M_NEXT,
  M_SEEN,
  M_START,
  META,
  shapeFlags,
} from './slot-layout.ts';
import { TextPool } from './text-pool.ts';
import { copied, grow } from './typed-arrays.ts';
import { hashString, type TokenIds, Vocabulary } from './vocabulary.ts';

// New entries wait in an unindexed tail, scanned by every query, until this many are there; then they
// become a block, and equal-sized blocks merge (a binary counter), so adds cost O(log n) amortized.
const TAIL_LIMIT = 1024;
// Removed entries stay as tombstones until they are a quarter of all slots; then slots are renumbered.
const MIN_DEAD_TO_COMPACT = 1024;
// Stamps mark per-query and per-candidate state without clearing arrays; they restart before overflowing.
const STAMP_LIMIT = 2 ** 30;
// Taking a block's copies out of the hash chains yields every this many chain links walked (as many as a
// build's slice of slots, SLICE_MASK in postings-build.ts, and each cheaper).
const UNLINK_SLICE = 2 ** 14 - 1;
// Pair buckets: at least as many as slots (so that a bucket holds about one distinct pair at most), grown
// by doubling; blocks keep the mask they were built with.
const MIN_PAIR_BUCKETS = 1024;

/**
 * Entries (id, text, update time, tokens) in slots: typed arrays indexed by slot, tokens as ids in one
 * pool, postings per token in blocks, an exact-text hash. Slots are appended; removal leaves a
 * tombstone; compaction renumbers. The indexes of this folder, the postings builder (postings-build.ts)
 * and the saved parts (store-parts.ts) read the fields directly.
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
  texts = new TextPool();
  meta = new Int32Array(1024 * META);
  readonly slotOf = new IdTable();
  /** Removed slots not compacted yet. */
  dead = 0;
  /**
   * Live entries by token count (the last bucket: LEN_CAP and more), and a number that changes with them:
   * the match index estimates from it how many of a key's postings fall in a length window.
   */
  readonly lengthCounts = new Float64Array(LEN_CAP + 1);
  lengthsVersion = 0;
  /** Token ids of every slot, back to back. */
  pool = new Int32Array(8192);
  poolLen = 0;

  /** The tokens of every entry as token ids, and the posting keys they give. */
  readonly vocabulary = new Vocabulary();
  /**
   * The pair buckets of the next block: pairHash & pairMask, at least as many as slots (growPairs). A
   * search takes a pair's frequency from its lists in the blocks (pairListLength), where it reads them
   * next: a table of counts by bucket would cost a cache miss a pair more, and 4 bytes a bucket.
   */
  pairMask = MIN_PAIR_BUCKETS - 1;
  /** The exact-text hash: bucket → first slot, the rest chained through M_NEXT. */
  buckets = new Int32Array(2048).fill(-1);
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

  /** Stores an entry (replacing the one with this id) with its tokens' ids (from vocabulary.intern*). */
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
    // Every search calls this: when nothing is due it must cost a comparison or two, not two generators
    // (their allocation alone put young-generation collections into the engine's p99).
    if (this.pending === null && !this.refreshDue()) return;
    for (const _ of this.refreshInSlices());
  }

  /** Whether refreshWork has anything to do: a compaction, or a tail long enough to become a block. */
  private refreshDue(): boolean {
    return (
      (this.dead >= MIN_DEAD_TO_COMPACT && this.dead * 4 > this.slotCount) ||
      this.slotCount - this.indexed >= TAIL_LIMIT
    );
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
    if (!this.refreshDue()) return;
    if (this.dead >= MIN_DEAD_TO_COMPACT && this.dead * 4 > this.slotCount) {
      yield* this.compact();
      return;
    }
    const s = this.blocks;
    const to = this.slotCount;
    const tail = yield* buildBlock(this, this.indexed, to);
    s.push(tail);
    this.indexed = to;
    // Installed first: a rehash meanwhile (an add) then leaves the block's copies out too.
    yield* this.unlinkCopies(tail);
    const size = (g: PostingsBlock) => g.to - g.from;
    while (s.length > 1 && size(s[s.length - 2]) < 2 * size(s[s.length - 1])) {
      const merged = yield* buildBlock(this, s[s.length - 2].from, s[s.length - 1].to);
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

  /** A fresh mark for M_SEEN and the vocabulary's `queryMark`. */
  nextStamp(): number {
    if (this.stamp >= STAMP_LIMIT) {
      this.stamp = 0;
      for (let m = M_SEEN; m < this.meta.length; m += META) this.meta[m] = 0;
      this.vocabulary.queryMark.fill(0);
    }
    return ++this.stamp;
  }

  /** A fresh mark for the vocabulary's `useMarks`. */
  nextCandidateStamp(): number {
    if (this.candidateStamp >= STAMP_LIMIT) {
      this.candidateStamp = 0;
      this.vocabulary.useMarks.fill(0);
    }
    return ++this.candidateStamp;
  }

  /** Counts the slot's posting keys into `frequency` and sets its Bloom filter. */
  private describe(slot: number): void {
    const m = slot * META;
    const start = this.meta[m + M_START];
    const end = start + this.meta[m + M_LEN];
    const { vocabulary } = this;
    const mark = this.nextCandidateStamp();
    let lo = 0;
    let hi = 0;
    for (let i = start; i < end; i++) {
      const tid = this.pool[i];
      const bit = bloomBit(tid);
      if (bit < 32) lo |= 1 << bit;
      else hi |= 1 << (bit - 32);
      if (vocabulary.useMarks[2 * tid] !== mark) {
        vocabulary.useMarks[2 * tid] = mark;
        vocabulary.useMarks[2 * tid + 1] = 1;
        vocabulary.frequency[vocabulary.firstKey[tid]]++;
      } else vocabulary.frequency[vocabulary.repeatKeyOf(tid, ++vocabulary.useMarks[2 * tid + 1])]++;
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
      // Counted by the chain's length, not by groups: the chain of a text repeated thousands of times is
      // as long (a step of 1,024 groups took 40–107 ms on a 1M-entry memory when counted by groups).
      for (let s = buckets[bucket]; s >= 0; done++) {
        const next = meta[s * META + M_NEXT];
        if (s >= from && s < to && groupAt[s - from] === -2) {
          if (prev < 0) buckets[bucket] = next;
          else meta[prev * META + M_NEXT] = next;
        } else prev = s;
        s = next;
      }
      if (++done > UNLINK_SLICE) {
        done = 0;
        yield;
      }
    }
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
    this.vocabulary.frequency.fill(0);
    for (let s = 0; s < t; s++) this.describe(s);
    // The old blocks go first: their groups speak of the old slot numbers, which rehash would consult.
    this.blocks = [];
    this.indexed = 0;
    this.rehash(this.buckets.length);
    // Whole again (every slot in the tail) at each yield of the build.
    if (t > 0) this.blocks = [yield* buildBlock(this, 0, t)];
    this.indexed = t;
    for (const b of this.blocks) yield* this.unlinkCopies(b);
  }
}
