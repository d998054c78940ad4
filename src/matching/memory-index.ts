// In-process fuzzy-match index of one memory's sources: exact hash, length and prefix filters, banded verification (MATCHING.md §3).
import { boundedDistance } from './levenshtein.ts';
import { checkSearch, type Match, ranked, type SearchOptions, TopN } from './ranking.ts';
import {
  flooredBase,
  maxDistance,
  type PreparedText,
  prepareText,
  scoreAtLeast,
  scorePrepared,
} from './score.ts';
import { scanTokens, type TokenSink } from './tokenize.ts';

/**
 * Postings of a contiguous range of slots: for each posting key (a token, or its k-th repeat within an
 * entry) the slots holding it, sorted by content length so that a length window is a sub-range.
 */
interface Segment {
  from: number;
  to: number;
  /** Posting keys present, ascending; the postings of keys[i] are slots[starts[i] .. starts[i + 1]). */
  keys: Int32Array;
  starts: Int32Array;
  slots: Int32Array;
}

// New entries wait in an unindexed tail, scanned by every query, until this many are there; then they
// become a segment, and equal-sized segments merge (a binary counter), so adds cost O(log n) amortized.
const TAIL_LIMIT = 1024;
// Removed entries stay as tombstones until they are a quarter of all slots; then slots are renumbered.
const MIN_DEAD_TO_COMPACT = 1024;
// The posting key of the k-th occurrence (k ≥ 2) of token t in an entry is looked up by k·2^32 + t.
const REPEAT_KEY = 2 ** 32;
// Stamps mark per-query and per-candidate state without clearing arrays; they restart before overflowing.
const STAMP_LIMIT = 2 ** 30;

export class MemoryIndex {
  // Per slot: an entry's place in the arrays below. Slots are appended; only compaction renumbers them.
  private slotCount = 0;
  private ids = new Float64Array(1024);
  private updated = new Float64Array(1024);
  private sources: string[] = [];
  private tokStart = new Int32Array(1024);
  private tokLen = new Int32Array(1024);
  private alive = new Uint8Array(1024);
  private hashes = new Int32Array(1024);
  private sameHash = new Int32Array(1024);
  private seen = new Int32Array(1024);
  private readonly slotOf = new Map<number, number>();
  private dead = 0;
  /** Content token ids of every slot, back to back. */
  private pool = new Int32Array(8192);
  private poolLen = 0;

  // Vocabulary: content token norm → token id; (token id, occurrence) → posting key with its frequency.
  private readonly vocab = new Map<string, number>();
  private firstKey = new Int32Array(1024);
  private readonly repeatKey = new Map<number, number>();
  private frequency = new Int32Array(1024);
  private keyCount = 0;
  // Per token id scratch: query multiplicities, candidate overlap counts, occurrence numbering.
  private queryMark = new Int32Array(1024);
  private queryCount = new Int32Array(1024);
  private useMark = new Int32Array(1024);
  private useCount = new Int32Array(1024);

  private buckets = new Int32Array(2048).fill(-1);
  private segments: Segment[] = [];
  /** Slots below this are in segments; the rest is the tail. */
  private indexed = 0;
  /** Slots whose source has no content token (only a character-level score can match them). */
  private contentless: number[] = [];
  private stamp = 0;
  private candidateStamp = 0;

  get size(): number {
    return this.slotOf.size;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Adds an entry, or replaces the entry with this id. */
  add(id: number, source: string, updatedAt: number): void {
    if (this.slotOf.has(id)) this.remove(id);
    const slot = this.slotCount++;
    if (slot === this.ids.length) this.growSlots(slot * 2);
    const nfc = source.normalize('NFC');
    this.ids[slot] = id;
    this.updated[slot] = updatedAt;
    this.sources[slot] = nfc;
    this.alive[slot] = 1;
    this.slotOf.set(id, slot);
    this.tokStart[slot] = this.poolLen;
    scanTokens(nfc, this.collect);
    const len = this.poolLen - this.tokStart[slot];
    this.tokLen[slot] = len;
    if (len === 0) this.contentless.push(slot);
    this.forEachKey(slot, (key) => this.frequency[key]++);
    const h = hashString(nfc);
    this.hashes[slot] = h;
    if (this.slotCount * 2 > this.buckets.length) this.rehash(this.buckets.length * 2);
    else this.link(slot, h);
  }

  /** Removes the entry with this id; false when there is none. */
  remove(id: number): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    this.slotOf.delete(id);
    this.alive[slot] = 0;
    this.sources[slot] = '';
    this.dead++;
    return true;
  }

  /**
   * Brings the postings up to date: indexes the tail, merges segments, compacts tombstones. Searches do it
   * when needed; calling it after a bulk load moves that work out of the first query.
   */
  refresh(): void {
    if (this.dead >= MIN_DEAD_TO_COMPACT && this.dead * 4 > this.slotCount) this.compact();
    else if (this.slotCount - this.indexed >= TAIL_LIMIT) {
      this.segments.push(this.buildSegment(this.indexed, this.slotCount));
      this.indexed = this.slotCount;
      const s = this.segments;
      while (
        s.length > 1 &&
        s[s.length - 2].to - s[s.length - 2].from < 2 * (s[s.length - 1].to - s[s.length - 1].from)
      ) {
        const last = s.pop()!;
        const prev = s.pop()!;
        s.push(this.buildSegment(prev.from, last.to));
      }
    }
  }

  search(query: string, opts: SearchOptions): Match[] {
    const threshold = checkSearch(query, opts);
    this.refresh();
    const q = prepareText(query);
    const top = new TopN(opts.n);
    const stamp = this.nextStamp();
    const h = hashString(q.nfc);
    for (let s = this.buckets[h & (this.buckets.length - 1)]; s >= 0; s = this.sameHash[s]) {
      if (this.hashes[s] !== h || !this.alive[s] || this.sources[s] !== q.nfc) continue;
      this.seen[s] = stamp;
      top.offer(ranked(this.ids[s], this.updated[s], 100, []));
    }
    // A fuzzy match scores at most 99.
    if (threshold < 100 && !(top.full && top.worst!.score === 100)) {
      if (q.content.length === 0) this.searchContentless(q, threshold, top, stamp);
      else
        this.searchFuzzy({
          q,
          threshold,
          top,
          stamp,
          floor: workingThreshold(top, threshold),
          qIds: new Int32Array(q.content.length),
        });
    }
    return top.sorted();
  }

  private readonly collect: TokenSink = (type, norm) => {
    if (type !== 'word' && type !== 'number') return;
    let tid = this.vocab.get(norm);
    if (tid === undefined) tid = this.newToken(norm);
    if (this.poolLen === this.pool.length) this.pool = grow(this.pool, this.pool.length * 2);
    this.pool[this.poolLen++] = tid;
  };

  private newToken(norm: string): number {
    const tid = this.vocab.size;
    this.vocab.set(norm, tid);
    if (tid === this.firstKey.length) {
      const n = tid * 2;
      this.firstKey = grow(this.firstKey, n);
      this.queryMark = grow(this.queryMark, n);
      this.queryCount = grow(this.queryCount, n);
      this.useMark = grow(this.useMark, n);
      this.useCount = grow(this.useCount, n);
    }
    this.firstKey[tid] = this.newKey();
    return tid;
  }

  private newKey(): number {
    const key = this.keyCount++;
    if (key === this.frequency.length) this.frequency = grow(this.frequency, key * 2);
    return key;
  }

  /** Calls fn with the posting key of every content token of the slot, repeats numbered as distinct. */
  private forEachKey(slot: number, fn: (key: number) => void): void {
    const start = this.tokStart[slot];
    const end = start + this.tokLen[slot];
    const mark = this.nextCandidateStamp();
    for (let i = start; i < end; i++) {
      const tid = this.pool[i];
      if (this.useMark[tid] !== mark) {
        this.useMark[tid] = mark;
        this.useCount[tid] = 1;
        fn(this.firstKey[tid]);
      } else fn(this.keyOf(tid, ++this.useCount[tid], true));
    }
  }

  /** The posting key of the occurrence-th occurrence of a token, -1 when unknown and not `create`. */
  private keyOf(tid: number, occurrence: number, create: boolean): number {
    if (occurrence === 1) return this.firstKey[tid];
    const k = occurrence * REPEAT_KEY + tid;
    let key = this.repeatKey.get(k);
    if (key === undefined) {
      if (!create) return -1;
      key = this.newKey();
      this.repeatKey.set(k, key);
    }
    return key;
  }

  private growSlots(n: number): void {
    this.ids = grow(this.ids, n);
    this.updated = grow(this.updated, n);
    this.tokStart = grow(this.tokStart, n);
    this.tokLen = grow(this.tokLen, n);
    this.alive = grow(this.alive, n);
    this.hashes = grow(this.hashes, n);
    this.sameHash = grow(this.sameHash, n);
    this.seen = grow(this.seen, n);
  }

  private link(slot: number, h: number): void {
    const b = h & (this.buckets.length - 1);
    this.sameHash[slot] = this.buckets[b];
    this.buckets[b] = slot;
  }

  private rehash(size: number): void {
    this.buckets = new Int32Array(size).fill(-1);
    for (let s = 0; s < this.slotCount; s++) if (this.alive[s]) this.link(s, this.hashes[s]);
  }

  private nextStamp(): number {
    if (this.stamp >= STAMP_LIMIT) {
      this.stamp = 0;
      this.seen.fill(0);
      this.queryMark.fill(0);
    }
    return ++this.stamp;
  }

  private nextCandidateStamp(): number {
    if (this.candidateStamp >= STAMP_LIMIT) {
      this.candidateStamp = 0;
      this.useMark.fill(0);
    }
    return ++this.candidateStamp;
  }

  /** Postings of [from, to), each key's slots ordered by (content length, slot). */
  private buildSegment(from: number, to: number): Segment {
    const { tokLen, alive } = this;
    // Slots in (length, slot) order, by counting sort on length.
    let maxLen = 0;
    for (let s = from; s < to; s++) if (alive[s] && tokLen[s] > maxLen) maxLen = tokLen[s];
    const byLen = new Int32Array(maxLen + 2);
    let total = 0;
    for (let s = from; s < to; s++) {
      if (!alive[s] || tokLen[s] === 0) continue;
      byLen[tokLen[s] + 1]++;
      total += tokLen[s];
    }
    for (let l = 1; l < byLen.length; l++) byLen[l] += byLen[l - 1];
    const order = new Int32Array(byLen[maxLen + 1]);
    for (let s = from; s < to; s++) if (alive[s] && tokLen[s] > 0) order[byLen[tokLen[s]]++] = s;
    // Keys of every token in that order, counted per key; then each key's postings filled in order.
    const keysInOrder = new Int32Array(total);
    const count = new Int32Array(this.keyCount + 1);
    let p = 0;
    for (let i = 0; i < order.length; i++) {
      this.forEachKey(order[i], (key) => {
        keysInOrder[p++] = key;
        count[key + 1]++;
      });
    }
    let present = 0;
    for (let k = 1; k <= this.keyCount; k++) {
      if (count[k] > 0) present++;
      count[k] += count[k - 1];
    }
    const keys = new Int32Array(present);
    const starts = new Int32Array(present + 1);
    let j = 0;
    for (let k = 0; k < this.keyCount; k++) {
      if (count[k + 1] === count[k]) continue;
      keys[j] = k;
      starts[j++] = count[k];
    }
    starts[present] = total;
    const slots = new Int32Array(total);
    p = 0;
    for (let i = 0; i < order.length; i++) {
      const s = order[i];
      for (let n = tokLen[s]; n > 0; n--) slots[count[keysInOrder[p++]]++] = s;
    }
    return { from, to, keys, starts, slots };
  }

  /** Renumbers the live slots densely and rebuilds every structure from their token ids. */
  private compact(): void {
    const live = this.slotCount - this.dead;
    const cap = Math.max(1024, live * 2);
    const old = {
      ids: this.ids,
      updated: this.updated,
      sources: this.sources,
      alive: this.alive,
      hashes: this.hashes,
      tokStart: this.tokStart,
      tokLen: this.tokLen,
      pool: this.pool,
    };
    this.ids = new Float64Array(cap);
    this.updated = new Float64Array(cap);
    this.tokStart = new Int32Array(cap);
    this.tokLen = new Int32Array(cap);
    this.alive = new Uint8Array(cap);
    this.hashes = new Int32Array(cap);
    this.sameHash = new Int32Array(cap);
    this.seen = new Int32Array(cap);
    this.sources = [];
    this.contentless = [];
    const pool = new Int32Array(Math.max(8192, this.poolLen));
    let poolLen = 0;
    let t = 0;
    for (let s = 0; s < this.slotCount; s++) {
      if (!old.alive[s]) continue;
      this.ids[t] = old.ids[s];
      this.updated[t] = old.updated[s];
      this.sources[t] = old.sources[s];
      this.alive[t] = 1;
      this.hashes[t] = old.hashes[s];
      const len = old.tokLen[s];
      pool.set(old.pool.subarray(old.tokStart[s], old.tokStart[s] + len), poolLen);
      this.tokStart[t] = poolLen;
      this.tokLen[t] = len;
      poolLen += len;
      if (len === 0) this.contentless.push(t);
      this.slotOf.set(old.ids[s], t);
      t++;
    }
    this.pool = pool;
    this.poolLen = poolLen;
    this.slotCount = t;
    this.dead = 0;
    this.frequency.fill(0);
    for (let s = 0; s < t; s++) this.forEachKey(s, (key) => this.frequency[key]++);
    this.rehash(this.buckets.length);
    this.segments = t > 0 ? [this.buildSegment(0, t)] : [];
    this.indexed = t;
  }

  /** Prefix filter over the rarest query tokens, then count filter, banded distance, full score. */
  private searchFuzzy(ctx: FuzzyQuery): void {
    const { q, qIds, stamp } = ctx;
    const L = qIds.length;
    // Query tokens as ids (-1: absent from the memory, so in no entry) with multiplicities, and the
    // posting key of every numbered occurrence.
    const keys: number[] = [];
    for (let i = 0; i < L; i++) {
      const tid = this.vocab.get(q.content[i]) ?? -1;
      qIds[i] = tid;
      if (tid < 0) {
        keys.push(-1);
        continue;
      }
      if (this.queryMark[tid] !== stamp) {
        this.queryMark[tid] = stamp;
        this.queryCount[tid] = 0;
      }
      keys.push(this.keyOf(tid, ++this.queryCount[tid], false));
    }
    const freq = keys.map((key) => (key < 0 ? 0 : this.frequency[key]));
    const order = keys.map((_, i) => i).sort((a, b) => freq[a] - freq[b]);
    // Every match shares at least ⌈T·L/100⌉ numbered tokens with the query, hence one of its
    // L − ⌈T·L/100⌉ + 1 rarest; T rises as the heap fills, shortening that prefix as we go.
    for (let p = 0; p < L; p++) {
      if (ctx.floor > 99 || p > L - ceilDiv(ctx.floor * L, 100)) break;
      const key = keys[order[p]];
      if (key >= 0) for (const seg of this.segments) this.scanPostings(ctx, seg, key);
    }
    for (let s = this.indexed; s < this.slotCount; s++) {
      if (this.seen[s] === stamp) continue;
      this.seen[s] = stamp;
      this.consider(ctx, s);
    }
  }

  private scanPostings(ctx: FuzzyQuery, seg: Segment, key: number): void {
    const at = indexOf(seg.keys, key);
    if (at < 0) return;
    const { slots } = seg;
    const { tokLen, seen } = this;
    const { stamp } = ctx;
    const L = ctx.qIds.length;
    // The length window ⌈T·L/100⌉ ≤ Lc ≤ ⌊100·L/T⌋ is a sub-range: postings are sorted by length.
    const minLen = ceilDiv(ctx.floor * L, 100);
    const maxLen = Math.floor((100 * L) / ctx.floor);
    let a = seg.starts[at];
    let b = seg.starts[at + 1];
    const end = b;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (tokLen[slots[mid]] < minLen) a = mid + 1;
      else b = mid;
    }
    const lo = a;
    b = end;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (tokLen[slots[mid]] <= maxLen) a = mid + 1;
      else b = mid;
    }
    for (let i = lo; i < a; i++) {
      const s = slots[i];
      if (seen[s] === stamp) continue;
      seen[s] = stamp;
      this.consider(ctx, s);
    }
  }

  private consider(ctx: FuzzyQuery, s: number): void {
    if (!this.alive[s]) return;
    const { floor, qIds, stamp } = ctx;
    if (floor > 99) return;
    const L = qIds.length;
    const len = this.tokLen[s];
    const max = Math.max(len, L);
    // Count filter: the multiset overlap must reach ⌈T·max/100⌉ before any edit distance is computed.
    const need = ceilDiv(floor * max, 100);
    if (need > len || need > L) return;
    const { pool, queryMark, queryCount, useMark, useCount } = this;
    const start = this.tokStart[s];
    const mark = this.nextCandidateStamp();
    let overlap = 0;
    for (let i = 0; i < len; i++) {
      const t = pool[start + i];
      if (queryMark[t] === stamp) {
        if (useMark[t] !== mark) {
          useMark[t] = mark;
          useCount[t] = 0;
        }
        if (useCount[t] < queryCount[t]) {
          useCount[t]++;
          if (++overlap >= need) break;
        }
      }
      if (overlap + len - 1 - i < need) return;
    }
    if (overlap < need) return;
    const k = maxDistance(max, floor);
    const d = boundedDistance(qIds, 0, L, pool, start, len, k);
    if (d > k) return;
    const id = this.ids[s];
    const updatedAt = this.updated[s];
    if (!mayBeat(ctx.top, Math.min(99, flooredBase(max, d)), updatedAt, id)) return;
    const r = scorePrepared(ctx.q, prepareText(this.sources[s]));
    if (r.score < ctx.threshold) return;
    ctx.top.offer(ranked(id, updatedAt, r.score, r.penalties));
    ctx.floor = workingThreshold(ctx.top, ctx.threshold);
  }

  /** A query without words or numbers can only match entries without any (character-level base). */
  private searchContentless(q: PreparedText, threshold: number, top: TopN, stamp: number): void {
    for (const s of this.contentless) {
      if (!this.alive[s] || this.seen[s] === stamp) continue;
      const floor = workingThreshold(top, threshold);
      if (floor > 99) return;
      if (!mayBeat(top, 99, this.updated[s], this.ids[s])) continue;
      const r = scoreAtLeast(q, prepareText(this.sources[s]), floor);
      if (r && r.score >= threshold) top.offer(ranked(this.ids[s], this.updated[s], r.score, r.penalties));
    }
  }
}

/** The state of one fuzzy query. */
interface FuzzyQuery {
  q: PreparedText;
  /** The query's content tokens as token ids. */
  qIds: Int32Array;
  threshold: number;
  top: TopN;
  stamp: number;
  /** The working threshold: the score a candidate needs to enter the top n, rising as it fills. */
  floor: number;
}

/** The lowest score a candidate may have and still enter the top n: the n-th best once there are n. */
function workingThreshold(top: TopN, threshold: number): number {
  return top.full ? Math.max(threshold, top.worst!.score) : threshold;
}

/** Whether a candidate scoring at most `best` could rank before the current n-th match. */
function mayBeat(top: TopN, best: number, updatedAt: number, id: number): boolean {
  const w = top.worst;
  if (!top.full || !w) return true;
  if (best !== w.score) return best > w.score;
  // Equal scores: penalties are never negative, so a worst match without any wins on recency and id alone.
  return w.points > 0 || updatedAt > w.updatedAt || (updatedAt === w.updatedAt && id < w.id);
}

function ceilDiv(a: number, b: number): number {
  return Math.floor((a + b - 1) / b);
}

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

/** FNV-1a over UTF-16 code units: the exact path's hash of an NFC source. */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h | 0;
}

function grow<T extends Int32Array | Float64Array | Uint8Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
