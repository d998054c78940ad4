/**
 * A query's distinct token ids with their multiplicities, and how many of each one candidate has used
 * (the exact count filter), in an open-addressing table of at least twice as many places as tokens. It
 * is small enough to stay in the L1 cache for the whole query, where marks in arrays by token id (the
 * store's whole vocabulary) cost a cache miss for each query token and for each token of each candidate.
 */
export class QueryTokens {
  private ids = new Int32Array(64).fill(-1);
  /** By place: the token's number in the query. */
  count = new Int32Array(64);
  /** By place: the candidate stamp (TokenStore.nextCandidateStamp) useCount belongs to. */
  useMark = new Int32Array(64);
  /** By place: the query's occurrences of the token the candidate matched so far. */
  useCount = new Int32Array(64);
  private shift = 26;

  /** Empties the table, with room for n tokens. */
  clear(n: number): void {
    let bits = 6;
    while (1 << bits < 2 * n) bits++;
    const size = 1 << bits;
    if (size > this.ids.length) {
      this.ids = new Int32Array(size);
      this.count = new Int32Array(size);
      this.useMark = new Int32Array(size);
      this.useCount = new Int32Array(size);
    }
    this.ids.fill(-1, 0, size);
    this.useMark.fill(0, 0, size);
    this.shift = 32 - bits;
  }

  /** The place of a token id, added with a count of 0 when new. */
  add(tid: number): number {
    const { ids } = this;
    const mask = (1 << (32 - this.shift)) - 1;
    for (let at = Math.imul(tid, 0x9e3779b1) >>> this.shift; ; at = (at + 1) & mask) {
      const id = ids[at];
      if (id === tid) return at;
      if (id < 0) {
        ids[at] = tid;
        this.count[at] = 0;
        return at;
      }
    }
  }

  /** The place of a token id, -1 when the query does not have it. */
  placeOf(tid: number): number {
    const { ids } = this;
    const mask = (1 << (32 - this.shift)) - 1;
    for (let at = Math.imul(tid, 0x9e3779b1) >>> this.shift; ; at = (at + 1) & mask) {
      const id = ids[at];
      if (id === tid) return at;
      if (id < 0) return -1;
    }
  }
}
