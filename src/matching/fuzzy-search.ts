// The fuzzy search of a memory index for a query with words or numbers: prefix filters over the rarest
// query tokens or adjacent pairs, count filter, banded distance, full score (docs/MATCHING-FILTERS.md).
import { bloomOverlap, overlapBelow, popcount, shapePenalty, weightBelow } from './candidate-bounds.ts';
import { LengthShares } from './length-shares.ts';
import { boundedDistance } from './levenshtein.ts';
import {
  groupIn,
  LEN_CAP,
  type PostingsBlock,
  pairHash,
  pairListLength,
  pairPostings,
  tokenPostings,
} from './postings-block.ts';
import { mayBeat, ranked, ranksBeforeWorst, type TopN, workingThreshold } from './ranking.ts';
import {
  flooredBase,
  maxDistance,
  PENALTY_CAP,
  type PreparedText,
  prepareNfc,
  prepareShape,
  punctuationAndTagPoints,
  type ScoreResult,
  scoreWithin,
} from './score.ts';
import {
  ALIVE,
  bloomBit,
  foldedBloom,
  M_BLOOM_HI,
  M_BLOOM_LO,
  M_FLAGS,
  M_HASH,
  M_LEN,
  M_SEEN,
  M_START,
  META,
} from './slot-layout.ts';
import { SmallCounts } from './small-counts.ts';
import type { TokenStore } from './token-store.ts';
import type { Vocabulary } from './vocabulary.ts';

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
  /** The query's Bloom bits folded to 32 (foldedBloom), as beside the postings. */
  bloom32: number;
  /** Scores of the candidate texts seen so far, by the texts' hash (M_HASH). */
  scored: Map<number, ScoredText>;
}

interface ScoredText {
  text: string;
  result: ScoreResult;
  points: number;
}

/** The fuzzy searches of one MemoryIndex: its store's filters, and their scratch kept from query to query. */
export class FuzzySearch {
  private readonly vocabulary: Vocabulary;
  /**
   * Which prefix filter candidates come from where the pair bound holds: the cheaper by posting lengths
   * ('auto'), or always one of them (tests force each, to check both are lossless on their own).
   */
  filter: 'auto' | 'pairs' | 'tokens' = 'auto';
  /** The query's token ids and multiplicities, and a candidate's use of them (searchFuzzy, consider). */
  private readonly queryTokens = new SmallCounts();
  // Per-query scratch (a search runs to its end before the next starts): in a CPU profile of warm
  // unrelated queries, allocating one Int32Array(32) a query took a tenth of the filters' own time.
  private readonly bitWeight = new Int32Array(64);
  private readonly weight32 = new Int32Array(32);
  /**
   * weight32 as bit masks: levels[j] holds the bits of weight above j, so that the weight of a set of
   * bits is the sum of popcounts of it within each level — without a loop over its bits. levelCount is
   * the number of levels, -1 when a weight exceeds LEVELS (a query repeating a token): overlapBelow then.
   */
  private readonly levels = new Int32Array(LEVELS);
  private levelCount = 0;
  /** Query positions (or pairs) by frequency: frequency · 2^16 + position, sorted as numbers. */
  private byFreq = new Float64Array(64);
  /** The query's distinct adjacent pairs (queryPairs): hash and frequency, and their order, rarest first. */
  private pairHashes = new Int32Array(64);
  private pairFreqs = new Float64Array(64);
  private pairOrder = new Int32Array(64);
  private tokenOrder = new Int32Array(64);
  private readonly seenPairs = new Set<number | string>();
  /** The share of a posting list in a length window, to choose between the prefix filters. */
  private readonly lengthShares: LengthShares;

  constructor(private readonly store: TokenStore) {
    this.vocabulary = store.vocabulary;
    this.lengthShares = new LengthShares(store);
  }

  /**
   * Offers to `top` the matches of a query with words or numbers (q.content not empty) scoring at least
   * `threshold`; slots marked with `stamp` (the exact path's) were offered already.
   */
  search(q: PreparedText, threshold: number, top: TopN, stamp: number): void {
    this.searchFuzzy({
      q,
      threshold,
      top,
      stamp,
      floor: workingThreshold(top, threshold),
      qIds: new Int32Array(q.content.length),
      bloomLo: 0,
      bloomHi: 0,
      bloom32: 0,
      bitWeight: this.bitWeight.fill(0),
      scored: new Map(),
    });
  }

  /** Prefix filter over the rarest query tokens, then count filter, banded distance, full score. */
  private searchFuzzy(ctx: FuzzyQuery): void {
    const { store, vocabulary } = this;
    const { q, qIds, stamp, bitWeight } = ctx;
    const L = qIds.length;
    // Query tokens as ids with their multiplicities and Bloom bits, and the posting key of every
    // numbered occurrence.
    const keys: number[] = [];
    const { queryTokens } = this;
    queryTokens.clear(L);
    for (let i = 0; i < L; i++) {
      const tid = vocabulary.tokenId(q.content[i]);
      qIds[i] = tid;
      if (tid < 0) {
        keys.push(-1);
        continue;
      }
      const occurrence = ++queryTokens.count[queryTokens.add(tid)];
      keys.push(occurrence === 1 ? vocabulary.foundKey : vocabulary.keyOf(tid, occurrence));
      const bit = bloomBit(tid);
      bitWeight[bit]++;
      if (bit < 32) ctx.bloomLo |= 1 << bit;
      else ctx.bloomHi |= 1 << (bit - 32);
    }
    // Query positions by the frequency of their key, rarest first (ties by position): sorted as numbers
    // frequency · 2^16 + position (exact in a double; positions < MAX_QUERY_LENGTH < 2^16).
    const freq = keys.map((key) => (key < 0 ? 0 : vocabulary.frequency[key]));
    if (this.tokenOrder.length < L) this.tokenOrder = new Int32Array(2 * L);
    const order = this.rarestFirst(freq, L, this.tokenOrder);
    const { meta } = store;
    const f0 = ctx.floor;
    if (f0 > 99) return;
    const minLen0 = ceilDiv(f0 * L, 100);
    // The pair bound (proof also in docs/MATCHING-FILTERS.md §3). Let P be the query's distinct adjacent
    // pairs, m = |P|, and k = maxDistance(max(L, Lc), T): a match has d ≤ k. Take an optimal alignment;
    // call the pair at query position i intact when both its tokens are kept (aligned to equal tokens)
    // and no insertion sits between them — then they are aligned to adjacent tokens of the candidate,
    // which therefore holds that pair. A substitution or deletion of a query token breaks at most the
    // two positions around it, an insertion the one it sits in: at most 2d ≤ 2k positions are broken.
    // A distinct pair is missing from the candidate only if all of its positions are broken, so at most
    // 2k pairs of P are missing and at least m − 2k present: if m ≥ 2k + 1, every match holds one, and
    // one whose rarest held pair is the p-th lacks p of them, so p ≤ 2k. k grows with Lc, so the bound
    // holds on a lower part of the length window, minLen0..split; the token filter serves split + 1.. .
    // The split is fixed here from the working threshold at the start: it only rises, k only falls, so
    // the bound stays true below the split for the rest of the query.
    let split = minLen0 - 1;
    // When the token filter reads nothing (its tokens are in no entry), pairs cannot be cheaper.
    let tokenCost = 0;
    for (let p = 0; p <= L - minLen0; p++) tokenCost += freq[order[p]];
    const m = tokenCost > 0 || this.filter === 'pairs' ? this.queryPairs(qIds, q.content) : 0;
    const { pairHashes, pairFreqs, pairOrder } = this;
    if (m > 0) {
      let upper = Math.floor((100 * L) / f0);
      while (upper >= minLen0 && m < 2 * maxDistance(Math.max(L, upper), f0) + 1) upper--;
      if (upper >= minLen0) {
        // Choose the cheaper over minLen0..upper (the token filter serves the lengths above either way),
        // by the postings each reads there: a key's frequency times the share of postings held by entries
        // of the lengths it is read for (LengthShares) — the p-th pair only where 2k ≥ p, the p-th token
        // only up to ⌊100·(L − p)/T⌋ — as the loops below read them.
        const { lengthShares } = this;
        lengthShares.update();
        let pairCost = 0;
        for (let p = 0; p < m; p++) {
          let lower = minLen0;
          while (lower <= upper && 2 * maxDistance(Math.max(L, lower), f0) < p) lower++;
          if (lower > upper) break;
          pairCost += pairFreqs[pairOrder[p]] * lengthShares.postingShare(lower, upper);
        }
        let tokenShareCost = 0;
        for (let p = 0; p < L; p++) {
          const hi = Math.min(upper, Math.floor((100 * (L - p)) / f0));
          if (hi < minLen0) break;
          tokenShareCost += freq[order[p]] * lengthShares.postingShare(minLen0, hi);
        }
        const mode = this.filter;
        if (mode === 'pairs' || (mode === 'auto' && pairCost < tokenShareCost)) split = upper;
      }
    }
    // Both filters check the count bound on the folded Bloom filters beside the postings (offerPostings).
    ctx.bloom32 = foldedBloom(ctx.bloomLo, ctx.bloomHi);
    const { weight32, levels } = this;
    levels.fill(0);
    let heaviest = 0;
    for (let b = 0; b < 32; b++) {
      const w = bitWeight[b] + bitWeight[b + 32];
      weight32[b] = w;
      heaviest = Math.max(heaviest, w);
      for (let j = 0; j < w && j < LEVELS; j++) levels[j] |= 1 << b;
    }
    this.levelCount = heaviest <= LEVELS ? heaviest : -1;
    // Pairs: a candidate whose rarest shared pair is the p-th rarest of the query lacks p of its
    // distinct pairs, and a match loses at most 2k (k = maxDistance(max(L, Lc), T)): the p-th pair's
    // postings need only be read for lengths where 2k ≥ p.
    if (split >= minLen0) {
      for (let p = 0; p < m; p++) {
        const f = ctx.floor;
        if (f > 99) return;
        const upper = Math.min(split, Math.floor((100 * L) / f));
        if (2 * maxDistance(Math.max(L, upper), f) < p) break;
        let lower = ceilDiv(f * L, 100);
        while (lower <= upper && 2 * maxDistance(Math.max(L, lower), f) < p) lower++;
        const pair = pairOrder[p];
        if (pairFreqs[pair] === 0) continue;
        const hash = pairHashes[pair];
        for (const seg of store.blocks) {
          const range = pairPostings(seg, hash, lower, upper, meta);
          if (range) this.offerPostings(ctx, seg, seg.pairSlots, seg.pairBlooms, seg.pairLens, range);
        }
      }
    }
    // Tokens: every match shares at least ⌈T·max(L, Lc)/100⌉ numbered tokens with the query. A candidate
    // whose rarest shared token is the p-th rarest of the query shares at most L − p, so the p-th posting
    // list need only be read for lengths Lc ≥ ⌈T·L/100⌉ where ⌈T·max(L, Lc)/100⌉ ≤ L − p, i.e. Lc ≤
    // ⌊100·(L − p)/T⌋; for p > L − ⌈T·L/100⌉ for none (the prefix filter). T rises as the heap fills.
    for (let p = 0; p < L; p++) {
      const f = ctx.floor;
      const minLen = Math.max(ceilDiv(f * L, 100), split + 1);
      const maxLen = Math.floor((100 * (L - p)) / f);
      if (f > 99 || maxLen < minLen) break;
      const key = keys[order[p]];
      if (key < 0) continue;
      for (const seg of store.blocks) {
        const range = tokenPostings(seg, key, minLen, maxLen, meta);
        if (range) this.offerPostings(ctx, seg, seg.slots, seg.blooms, seg.lens, range);
      }
    }
    for (let s = store.slotCount - 1; s >= store.indexed; s--) {
      if (meta[s * META + M_SEEN] === stamp) continue;
      meta[s * META + M_SEEN] = stamp;
      this.consider(ctx, s, null);
    }
  }

  /**
   * Offers the candidates of a range of postings (token or pair: slots, with each slot's folded Bloom
   * filter and capped length beside it) not seen yet. First the count filter on the folded Bloom filter:
   * a bound from above on the tokens the candidate shares, against ⌈T·max(L, Lc)/100⌉ at the posting's
   * own length (capped: a lower bound still; T the working threshold, which only rises). Candidates it
   * rejects cost no read of their slot (a cache miss each): docs/MATCHING-FILTERS.md §5 has the counts.
   */
  private offerPostings(
    ctx: FuzzyQuery,
    seg: PostingsBlock,
    slots: Int32Array,
    blooms: Int32Array,
    lens: Uint8Array,
    range: [number, number],
  ): void {
    const { meta } = this.store;
    const { stamp, bloom32 } = ctx;
    const { weight32, levels, levelCount } = this;
    const L = ctx.qIds.length;
    // Postings are sorted by length: the bounds change only from one run of a length to the next.
    let runLen = -1;
    let need = 0;
    let spare = 0;
    for (let i = range[0]; i < range[1]; i++) {
      if (lens[i] !== runLen) {
        runLen = lens[i];
        need = ceilDiv(ctx.floor * Math.max(L, runLen), 100);
        // The candidate tokens that may be left unshared; a capped length says only "at least".
        spare = runLen < LEN_CAP ? runLen - need : LEN_CAP;
      }
      const bloom = blooms[i];
      const common = bloom & bloom32;
      if (
        levelCount >= 0 ? weightBelow(common, levels, levelCount, need) : overlapBelow(common, weight32, need)
      )
        continue;
      // Each bit of the candidate outside the query's stands for a token of the candidate in no query
      // token: at least that many of its tokens are unshared (see consider).
      if (popcount(bloom & ~bloom32) > spare) continue;
      const m = slots[i] * META;
      if (meta[m + M_SEEN] === stamp) continue;
      meta[m + M_SEEN] = stamp;
      this.consider(ctx, slots[i], seg);
    }
  }

  /**
   * Writes into `order` the positions of `count` numbers (frequencies), smallest first, ties by
   * position: sorted as numbers frequency · 2^16 + position (exact in a double while frequencies are
   * below 2^37; positions < MAX_QUERY_LENGTH < 2^16), without a comparator.
   */
  private rarestFirst(freq: ArrayLike<number>, count: number, order: Int32Array): Int32Array {
    if (this.byFreq.length < count) this.byFreq = new Float64Array(2 * count);
    const sorted = this.byFreq.subarray(0, count);
    for (let i = 0; i < count; i++) sorted[i] = freq[i] * POSITION + i;
    sorted.sort();
    for (let i = 0; i < count; i++) order[i] = sorted[i] % POSITION;
    return order;
  }

  /**
   * The query's distinct adjacent pairs of content tokens: their number m; pairHashes and pairFreqs hold
   * their hash and the postings of their bucket in the blocks (0 for a pair with a token no entry has: no
   * entry holds that pair; the tail is read whole either way), pairOrder their positions there, rarest
   * first. Looking the lists up here also brings them into the cache for the pair filter.
   */
  private queryPairs(qIds: Int32Array, content: string[]): number {
    const { store, seenPairs: seen } = this;
    if (this.pairHashes.length < qIds.length) {
      this.pairHashes = new Int32Array(2 * qIds.length);
      this.pairFreqs = new Float64Array(2 * qIds.length);
      this.pairOrder = new Int32Array(2 * qIds.length);
    }
    const { pairHashes, pairFreqs } = this;
    seen.clear();
    let m = 0;
    for (let i = 1; i < qIds.length; i++) {
      const a = qIds[i - 1];
      const b = qIds[i];
      const known = a >= 0 && b >= 0;
      // Distinct by value: tokens by id (as one exact number while ids are below 2^26), unknown tokens
      // by their text.
      const key = known
        ? a < ID_LIMIT && b < ID_LIMIT
          ? a * ID_LIMIT + b
          : `${a} ${b}`
        : `${content[i - 1]}\u0000${content[i]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const hash = known ? pairHash(a, b) : 0;
      pairHashes[m] = hash;
      let freq = 0;
      if (known) for (const seg of store.blocks) freq += pairListLength(seg, hash);
      pairFreqs[m++] = freq;
    }
    this.rarestFirst(pairFreqs, m, this.pairOrder);
    return m;
  }

  /**
   * A candidate slot; from the postings of `seg`, it may head a group of copies (PostingsBlock.groupAt),
   * which are then offered best first until one does not enter the top n. The head's text and tokens
   * stand for them all, even once the head itself is removed.
   */
  private consider(ctx: FuzzyQuery, s: number, seg: PostingsBlock | null): void {
    const { store } = this;
    const { meta } = store;
    const m = s * META;
    const group = groupIn(seg, s);
    const flags = meta[m + M_FLAGS];
    if (group < 0 && !(flags & ALIVE)) return;
    const { floor, qIds } = ctx;
    if (floor > 99) return;
    const L = qIds.length;
    const len = meta[m + M_LEN];
    const max = Math.max(len, L);
    // Count filter: the multiset overlap must reach ⌈T·max/100⌉ before any edit distance is computed;
    // first against the Bloom filters (no false negatives: a bound from above), then exactly.
    const need = ceilDiv(floor * max, 100);
    if (need > len || need > L) return;
    const lo = meta[m + M_BLOOM_LO];
    const hi = meta[m + M_BLOOM_HI];
    if (bloomOverlap(lo & ctx.bloomLo, hi & ctx.bloomHi, ctx.bitWeight) < need) return;
    // And from below on what it does not share: a bit of the candidate's filter that no query token sets
    // comes from a token of the candidate that is no query token, one per bit at least, so it shares at
    // most len minus those bits. This rejects the near-length candidates that the first bound passes on
    // a collision (two query tokens on one bit, credited to a candidate holding either).
    if (popcount(lo & ~ctx.bloomLo) + popcount(hi & ~ctx.bloomHi) > len - need) return;
    const { pool } = store;
    const { queryTokens } = this;
    const { count, useMark, useCount } = queryTokens;
    const start = meta[m + M_START];
    const mark = store.nextCandidateStamp();
    let overlap = 0;
    for (let i = 0; i < len; i++) {
      const t = pool[start + i];
      const at = queryTokens.placeOf(t);
      if (at >= 0) {
        if (useMark[at] !== mark) {
          useMark[at] = mark;
          useCount[at] = 0;
        }
        if (useCount[at] < count[at]) {
          useCount[at]++;
          if (++overlap >= need) break;
        }
      }
      if (overlap + len - 1 - i < need) return;
    }
    if (overlap < need) return;
    // The best-ranked of the group (alive or not): no member ranks before it.
    const best = group < 0 ? s : seg!.members[group + 1];
    const id = store.ids[best];
    const updatedAt = store.updated[best];
    // Memories repeat sources (one per target, near-identical variants): the score of a text is
    // computed once per query, and its copies found by their hash and compared without decoding.
    const hash = meta[m + M_HASH];
    let scored = ctx.scored.get(hash);
    if (scored === undefined || !store.textEquals(s, scored.text)) {
      const k = maxDistance(max, floor);
      const d = boundedDistance(qIds, 0, L, pool, start, len, k);
      if (d > k) return;
      // The punctuation and tag penalties are at least the difference in those tokens' numbers (an
      // edit distance is at least the difference in lengths), each up to its cap: a bound from the
      // flags that spares decoding and tokenizing the text of a near miss (a query without placeholders
      // against the many entries of the same words with %s and a colon).
      const best = Math.min(99, flooredBase(max, d) - shapePenalty(ctx.q, flags));
      if (best < ctx.threshold || !mayBeat(ctx.top, best, updatedAt, id)) return;
      // Indexed sources are stored in NFC (MemoryIndex.add).
      const text = store.text(s);
      // The punctuation and tag penalties exactly, before the alignment the other penalties need, when
      // they could drop the candidate: a long query's near misses (77–79 by the bound above, 73–74 scored)
      // miss by their punctuation, and their alignment was half of such a query's time. Read from the
      // text's punctuation and tags alone: a near miss dropped here is never tokenized whole.
      const worst = Math.min(99, flooredBase(max, d) - PENALTY_CAP.punctuation - PENALTY_CAP.tags);
      if (worst < ctx.threshold || !mayBeat(ctx.top, worst, updatedAt, id)) {
        const shaped = Math.min(99, flooredBase(max, d) - punctuationAndTagPoints(ctx.q, prepareShape(text)));
        if (shaped < ctx.threshold || !mayBeat(ctx.top, shaped, updatedAt, id)) return;
      }
      const c = prepareNfc(text);
      const result = scoreWithin(ctx.q, c, d);
      let points = 0;
      for (const p of result.penalties) points += p.points;
      const fresh = { text, result, points };
      // A text of another with the same hash keeps its place: this one is scored again when met.
      if (scored === undefined) ctx.scored.set(hash, fresh);
      scored = fresh;
    }
    const { result, points } = scored;
    if (result.score < ctx.threshold) return;
    if (group < 0) {
      if (!ranksBeforeWorst(ctx.top, result.score, points, updatedAt, id)) return;
      ctx.top.offer(ranked(id, updatedAt, result.score, result.penalties));
    } else {
      const { members } = seg!;
      for (let i = group + 1, end = group + 1 + members[group]; i < end; i++) {
        const c = members[i];
        // Members are in no postings and no hash chain, and the head is marked on the way in: one seen
        // otherwise would have come from the exact path (which takes whole groups; kept as a guard).
        if (!(meta[c * META + M_FLAGS] & ALIVE) || (c !== s && meta[c * META + M_SEEN] === ctx.stamp))
          continue;
        const cId = store.ids[c];
        const cUpdated = store.updated[c];
        if (!ranksBeforeWorst(ctx.top, result.score, points, cUpdated, cId)) break;
        ctx.top.offer(ranked(cId, cUpdated, result.score, result.penalties));
      }
    }
    ctx.floor = workingThreshold(ctx.top, ctx.threshold);
  }
}

/** Weights of folded Bloom bits handled by popcounts per level (weightBelow); heavier ones by a loop. */
const LEVELS = 4;
const ID_LIMIT = 2 ** 26;
const POSITION = 2 ** 16;

function ceilDiv(a: number, b: number): number {
  return Math.floor((a + b - 1) / b);
}
