// The layout of a slot's small fields in TokenStore.meta, and the Bloom filter of its token ids.

// A slot's small fields side by side in `meta` (META ints per slot), so that looking at a candidate costs
// one cache line rather than one per field.
export const META = 8;
/** Where the slot's token ids start in `pool`, and how many there are. */
export const M_START = 0;
export const M_LEN = 1;
/**
 * Flags: ALIVE while the entry is live (cleared once removed: a tombstone until compaction), and above it
 * the entry's punctuation and tag tokens, counted up to SHAPE_CAP each (shapeFlags): enough for a bound
 * on the score's penalties before the text is read (fuzzy-search.ts consider).
 */
export const M_FLAGS = 2;
/** The mark of the last query that looked at the slot. */
export const M_SEEN = 3;
/** 64-bit Bloom filter of the slot's token ids (bloomBit): a token whose bit is unset is absent. */
export const M_BLOOM_LO = 4;
export const M_BLOOM_HI = 5;
/** The hash of the slot's text (the exact path's; equal texts have equal hashes). */
export const M_HASH = 6;
/** Next slot with the same exact-text bucket, -1 at the end. */
export const M_NEXT = 7;

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

/** The Bloom bit (0–63) of a token id. */
export function bloomBit(tid: number): number {
  return Math.imul(tid, 0x9e3779b1) >>> 26;
}

/** A slot's 64-bit Bloom filter folded to 32 bits: bits b and b + 32 both become bit b. */
export function foldedBloom(lo: number, hi: number): number {
  return lo | hi;
}
