// In-process fuzzy-match index of one memory's sources: exact hash, length and prefix filters, banded verification (MATCHING.md §3).
import { boundedDistance } from './levenshtein.ts';
import { checkSearch, type Match, ranked, type SearchOptions, TopN } from './ranking.ts';
import {
  flooredBase,
  maxDistance,
  type PreparedText,
  prepareText,
  scoreAtLeast,
  scoreWithin,
} from './score.ts';
import {
  bloomBit,
  M_ALIVE,
  M_BLOOM_HI,
  M_BLOOM_LO,
  M_LEN,
  M_SEEN,
  M_START,
  META,
  TokenIds,
  TokenStore,
} from './token-store.ts';
import { NUM, SPAN_NUMBER, SPAN_WORD, type SpanSink, scanSpans, wordReal } from './tokenize.ts';

/** The state of one fuzzy query. */
interface FuzzyQuery {
  q: PreparedText;
  /** The query's content tokens as token ids (-1: in no entry). */
  qIds: Int32Array;
  threshold: number;
  top: TopN;
  stamp: number;
  /** The working threshold: the score a candidate needs to enter the top n, rising as it fills. */
  floor: number;
  /** The Bloom bits of the query's tokens, and per bit the multiplicity of the tokens it stands for. */
  bloomLo: number;
  bloomHi: number;
  bitWeight: Int32Array;
}

/** One memory's entries by source (stored in NFC), searched for matches scoring at least a threshold. */
export class MemoryIndex {
  private readonly store = new TokenStore();
  private readonly tokens = new TokenIds();
  private text = '';
  private readonly collect: SpanSink = (kind, start, end, flags) => {
    let tid: number;
    if (kind === SPAN_NUMBER) tid = this.store.intern(NUM);
    else if (kind !== SPAN_WORD) return;
    else if (flags === 0) tid = this.store.internAsciiLower(this.text, start, end);
    else tid = this.store.intern(wordReal(this.text, start, end, flags).toLowerCase());
    this.tokens.push(tid);
  };

  get size(): number {
    return this.store.size;
  }

  has(id: number): boolean {
    return this.store.has(id);
  }

  /** Adds an entry, or replaces the entry with this id. */
  add(id: number, source: string, updatedAt: number): void {
    const nfc = source.normalize('NFC');
    this.text = nfc;
    this.tokens.count = 0;
    scanSpans(nfc, this.collect);
    this.store.add(id, nfc, updatedAt, this.tokens);
  }

  /** Removes the entry with this id; false when there is none. */
  remove(id: number): boolean {
    return this.store.remove(id);
  }

  /**
   * Brings the postings up to date (indexes recent additions, compacts removals). Searches do it when
   * due; calling it after a bulk load takes that work out of the first query.
   */
  refresh(): void {
    this.store.refresh();
  }

  search(query: string, opts: SearchOptions): Match[] {
    const threshold = checkSearch(query, opts);
    const { store } = this;
    store.refresh();
    const q = prepareText(query);
    const top = new TopN(opts.n);
    const stamp = store.nextStamp();
    for (const s of store.exactSlots(q.nfc)) {
      store.meta[s * META + M_SEEN] = stamp;
      top.offer(ranked(store.ids[s], store.updated[s], 100, []));
    }
    // A fuzzy match scores at most 99.
    if (threshold < 100 && !(top.full && top.worst!.score === 100)) {
      const ctx: FuzzyQuery = {
        q,
        threshold,
        top,
        stamp,
        floor: workingThreshold(top, threshold),
        qIds: new Int32Array(q.content.length),
        bloomLo: 0,
        bloomHi: 0,
        bitWeight: new Int32Array(64),
      };
      if (q.content.length === 0) this.searchContentless(ctx);
      else this.searchFuzzy(ctx);
    }
    return top.sorted();
  }

  /** Prefix filter over the rarest query tokens, then count filter, banded distance, full score. */
  private searchFuzzy(ctx: FuzzyQuery): void {
    const { store } = this;
    const { q, qIds, stamp, bitWeight } = ctx;
    const L = qIds.length;
    // Query tokens as ids with their multiplicities and Bloom bits, and the posting key of every
    // numbered occurrence.
    const keys: number[] = [];
    for (let i = 0; i < L; i++) {
      const tid = store.tokenId(q.content[i]);
      qIds[i] = tid;
      if (tid < 0) {
        keys.push(-1);
        continue;
      }
      if (store.queryMark[tid] !== stamp) {
        store.queryMark[tid] = stamp;
        store.queryCount[tid] = 0;
      }
      keys.push(store.keyOf(tid, ++store.queryCount[tid]));
      const bit = bloomBit(tid);
      bitWeight[bit]++;
      if (bit < 32) ctx.bloomLo |= 1 << bit;
      else ctx.bloomHi |= 1 << (bit - 32);
    }
    const freq = keys.map((key) => (key < 0 ? 0 : store.frequency[key]));
    const order = keys.map((_, i) => i).sort((a, b) => freq[a] - freq[b]);
    // Every match shares at least ⌈T·max(L, Lc)/100⌉ numbered tokens with the query. A candidate whose
    // rarest shared token is the p-th rarest of the query shares at most L − p, so the p-th posting list
    // need only be read for lengths Lc ≥ ⌈T·L/100⌉ where ⌈T·max(L, Lc)/100⌉ ≤ L − p, i.e. Lc ≤
    // ⌊100·(L − p)/T⌋; for p > L − ⌈T·L/100⌉ for none (the prefix filter). T rises as the heap fills.
    const { meta } = store;
    for (let p = 0; p < L; p++) {
      const minLen = ceilDiv(ctx.floor * L, 100);
      if (ctx.floor > 99 || p > L - minLen) break;
      const key = keys[order[p]];
      if (key < 0) continue;
      for (const seg of store.blocks) {
        const range = store.postings(seg, key, minLen, Math.floor((100 * (L - p)) / ctx.floor));
        if (!range) continue;
        const { slots } = seg;
        for (let i = range[0]; i < range[1]; i++) {
          const m = slots[i] * META;
          if (meta[m + M_SEEN] === stamp) continue;
          meta[m + M_SEEN] = stamp;
          this.consider(ctx, slots[i]);
        }
      }
    }
    for (let s = store.slotCount - 1; s >= store.indexed; s--) {
      if (meta[s * META + M_SEEN] === stamp) continue;
      meta[s * META + M_SEEN] = stamp;
      this.consider(ctx, s);
    }
  }

  private consider(ctx: FuzzyQuery, s: number): void {
    const { store } = this;
    const { meta } = store;
    const m = s * META;
    if (!meta[m + M_ALIVE]) return;
    const { floor, qIds, stamp } = ctx;
    if (floor > 99) return;
    const L = qIds.length;
    const len = meta[m + M_LEN];
    const max = Math.max(len, L);
    // Count filter: the multiset overlap must reach ⌈T·max/100⌉ before any edit distance is computed;
    // first against the Bloom filters (no false negatives: a bound from above), then exactly.
    const need = ceilDiv(floor * max, 100);
    if (need > len || need > L) return;
    if (
      bloomOverlap(meta[m + M_BLOOM_LO] & ctx.bloomLo, meta[m + M_BLOOM_HI] & ctx.bloomHi, ctx.bitWeight) <
      need
    )
      return;
    const { pool, queryMark, queryCount, useMark, useCount } = store;
    const start = meta[m + M_START];
    const mark = store.nextCandidateStamp();
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
    const id = store.ids[s];
    const updatedAt = store.updated[s];
    if (!mayBeat(ctx.top, Math.min(99, flooredBase(max, d)), updatedAt, id)) return;
    const r = scoreWithin(ctx.q, prepareText(store.texts[s]), d);
    if (r.score < ctx.threshold) return;
    ctx.top.offer(ranked(id, updatedAt, r.score, r.penalties));
    ctx.floor = workingThreshold(ctx.top, ctx.threshold);
  }

  /** A query without words or numbers can only match entries without any (character-level base). */
  private searchContentless(ctx: FuzzyQuery): void {
    const { store } = this;
    const qLen = codePointLength(ctx.q.nfc);
    for (const s of store.empty) {
      if (!store.isAlive(s) || store.meta[s * META + M_SEEN] === ctx.stamp) continue;
      const floor = workingThreshold(ctx.top, ctx.threshold);
      if (floor > 99) return;
      // Length filter: the character distance is at least the difference in length.
      const len = codePointLength(store.texts[s]);
      if (Math.abs(len - qLen) > maxDistance(Math.max(len, qLen), floor)) continue;
      if (!mayBeat(ctx.top, 99, store.updated[s], store.ids[s])) continue;
      const r = scoreAtLeast(ctx.q, prepareText(store.texts[s]), floor);
      if (r && r.score >= ctx.threshold)
        ctx.top.offer(ranked(store.ids[s], store.updated[s], r.score, r.penalties));
    }
  }
}

function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const before = s.charCodeAt(i - 1);
    if (c >= 0xdc00 && c <= 0xdfff && before >= 0xd800 && before <= 0xdbff) {
      n--;
      i++;
    }
  }
  return n;
}

/**
 * An upper bound of a candidate's overlap with the query: the query tokens whose Bloom bits the candidate
 * has (lo, hi: the candidate's bits within the query's), each counted with its multiplicity.
 */
function bloomOverlap(lo: number, hi: number, bitWeight: Int32Array): number {
  let sum = 0;
  for (let x = lo; x !== 0; x &= x - 1) sum += bitWeight[31 - Math.clz32(x & -x)];
  for (let x = hi; x !== 0; x &= x - 1) sum += bitWeight[63 - Math.clz32(x & -x)];
  return sum;
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
