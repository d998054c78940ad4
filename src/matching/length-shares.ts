// The share of a posting list held by the entries of a window of lengths, estimated from the store's live
// entries by length: what the fuzzy search weighs its two prefix filters' postings by.
import { LEN_CAP } from './postings-block.ts';
import type { TokenStore } from './token-store.ts';

/**
 * Postings by the token count of their entry, cumulative: cumulative[l] counts those of entries of fewer
 * than l tokens (the store's live entries by length, each weighing its length — an entry of l tokens is
 * in about l lists), as of the store's lengthsVersion `version`.
 */
export class LengthShares {
  private readonly cumulative = new Float64Array(LEN_CAP + 2);
  private version = -1;

  constructor(private readonly store: TokenStore) {}

  /** Brings the counts up to date with the store's entries. */
  update(): void {
    const { store, cumulative } = this;
    if (this.version === store.lengthsVersion) return;
    for (let l = 0; l <= LEN_CAP; l++) cumulative[l + 1] = cumulative[l] + store.lengthCounts[l] * l;
    this.version = store.lengthsVersion;
  }

  /** The estimated share of a key's postings whose entries have lo..hi tokens (lo ≤ hi), 0–1. */
  postingShare(lo: number, hi: number): number {
    const { cumulative } = this;
    const total = cumulative[LEN_CAP + 1];
    if (total === 0) return 1;
    return (cumulative[Math.min(hi, LEN_CAP) + 1] - cumulative[Math.min(lo, LEN_CAP)]) / total;
  }
}
