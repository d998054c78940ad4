/**
 * Distinct non-negative numbers, a few at a time, each with a count: an open-addressing table of at least
 * twice as many places as numbers, small enough to stay in the L1 cache. The match index keeps a query's
 * token ids in one (with their multiplicities, and in `useMark`/`useCount` how many of each the candidate
 * at hand has matched), where marks in arrays by token id over the whole vocabulary cost a cache miss for
 * each query token and each token of each candidate; the store finds an entry's distinct pair buckets
 * with another, where marks by bucket took 64 MB at ten million entries and a miss a pair.
 */
export class SmallCounts {
  private values = new Int32Array(64).fill(-1);
  /** By place: how many times its number was added. */
  count = new Int32Array(64);
  /** By place, for the caller: a stamp, and a count that belongs to it. */
  useMark = new Int32Array(64);
  useCount = new Int32Array(64);
  private shift = 26;

  /** Empties the table, with room for n numbers. */
  clear(n: number): void {
    let bits = 4;
    while (1 << bits < 2 * n) bits++;
    const size = 1 << bits;
    if (size > this.values.length) {
      this.values = new Int32Array(size);
      this.count = new Int32Array(size);
      this.useMark = new Int32Array(size);
      this.useCount = new Int32Array(size);
    }
    this.values.fill(-1, 0, size);
    this.count.fill(0, 0, size);
    this.useMark.fill(0, 0, size);
    this.shift = 32 - bits;
  }

  /** The place of a number (≥ 0), taken with a count of 0 when new. */
  add(v: number): number {
    const at = this.probe(v);
    this.values[at] = v;
    return at;
  }

  /** The place of a number, -1 when it is not in the table. */
  placeOf(v: number): number {
    const at = this.probe(v);
    return this.values[at] === v ? at : -1;
  }

  /** The place holding v, or else the free place where it would go (the table is never full). */
  private probe(v: number): number {
    const { values } = this;
    const mask = (1 << (32 - this.shift)) - 1;
    let at = Math.imul(v, 0x9e3779b1) >>> this.shift;
    while (values[at] !== v && values[at] >= 0) at = (at + 1) & mask;
    return at;
  }
}
