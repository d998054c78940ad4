// Queries without words or numbers: the store's wordless entries, sorted by length, scored by characters.
import { mayBeat, ranked, type TopN, workingThreshold } from './ranking.ts';
import { codePoints, maxDistance, type PreparedText, prepareText, scoreAtLeast } from './score.ts';
import { M_SEEN, META } from './slot-layout.ts';
import type { TokenStore } from './token-store.ts';

/** A search of the wordless entries of a store (TokenStore.empty), with their sorted list kept between queries. */
export class WordlessSearch {
  private sorted: WordlessIndex | undefined;

  constructor(private readonly store: TokenStore) {}

  /**
   * Offers to `top` the matches of a query without words or numbers (q.content empty): only entries
   * without any can match it (character-level base). Slots marked with `stamp` were offered already.
   */
  search(q: PreparedText, threshold: number, top: TopN, stamp: number): void {
    const { store } = this;
    const w = this.index();
    const qChars = codePoints(q.nfc);
    const qLen = qChars.length;
    let qBloom = 0;
    for (const c of qChars) qBloom |= 1 << charBit(c);
    const visit = (s: number, len: number, bloom: number) => {
      if (!store.isAlive(s) || store.meta[s * META + M_SEEN] === stamp) return;
      const floor = workingThreshold(top, threshold);
      if (floor > 99) return;
      // Length filter: the character distance is at least the difference in length; signature filter:
      // every query character whose bit the entry lacks is absent from it, one edit each.
      const k = maxDistance(Math.max(len, qLen), floor);
      if (Math.abs(len - qLen) > k) return;
      if (~bloom & qBloom) {
        let missing = 0;
        for (const c of qChars) if (!(bloom & (1 << charBit(c)))) missing++;
        if (missing > k) return;
      }
      if (!mayBeat(top, 99, store.updated[s], store.ids[s])) return;
      const r = scoreAtLeast(q, prepareText(store.text(s)), floor);
      if (r && r.score >= threshold) top.offer(ranked(store.ids[s], store.updated[s], r.score, r.penalties));
    };
    // Sorted part: only the lengths that can reach the threshold, qLen − k(qLen) .. ⌊100·qLen/T⌋.
    const floor = workingThreshold(top, threshold);
    const lo = lowerBound(w.lens, w.count, qLen - maxDistance(qLen, floor));
    const hi = lowerBound(w.lens, w.count, Math.floor((100 * qLen) / floor) + 1);
    for (let i = lo; i < hi; i++) visit(w.slots[i], w.lens[i], w.blooms[i]);
    // Wordless entries added since the sort.
    for (let i = w.taken; i < store.empty.length; i++) {
      const s = store.empty[i];
      if (store.isAlive(s)) {
        const chars = codePoints(store.text(s));
        visit(s, chars.length, charBloom(chars));
      }
    }
  }

  /**
   * The wordless entries sorted by length in code points, with a 32-bit signature of their characters;
   * re-sorted when the store renumbered its slots or a few hundred more were added.
   */
  index(): WordlessIndex {
    const { store } = this;
    let w = this.sorted;
    if (!w || w.of !== store.empty || store.empty.length - w.taken > WORDLESS_TAIL) {
      const live = store.empty.filter((s) => store.isAlive(s));
      const lens = live.map((s) => codePointLength(store.text(s)));
      const order = live.map((_, i) => i).sort((a, b) => lens[a] - lens[b]);
      w = {
        of: store.empty,
        taken: store.empty.length,
        count: live.length,
        slots: Int32Array.from(order, (i) => live[i]),
        lens: Int32Array.from(order, (i) => lens[i]),
        blooms: Int32Array.from(order, (i) => charBloom(codePoints(store.text(live[i])))),
      };
      this.sorted = w;
    }
    return w;
  }
}

interface WordlessIndex {
  /** The store's list of wordless slots this was built from (a new list after compaction). */
  of: number[];
  /** How many of that list are sorted in; the rest is scanned. */
  taken: number;
  count: number;
  slots: Int32Array;
  lens: Int32Array;
  blooms: Int32Array;
}

/** Wordless entries added since the sort that make it sort again. */
const WORDLESS_TAIL = 256;

function charBit(c: number): number {
  return Math.imul(c, 0x9e3779b1) >>> 27;
}

function charBloom(chars: number[]): number {
  let b = 0;
  for (const c of chars) b |= 1 << charBit(c);
  return b;
}

/** The first index below `count` whose value is at least `x` (values ascending). */
function lowerBound(a: Int32Array, count: number, x: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** codePoints(s).length, without the array. */
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
