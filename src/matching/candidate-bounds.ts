// Bounds on a candidate before its tokens or text are read: from its Bloom filter (how many query tokens
// it can share) and from its shape flags (the punctuation and tag penalties it must take).
import { PENALTY_CAP, type PreparedText } from './score.ts';
import { punctOf, SHAPE_CAP, tagsOf } from './slot-layout.ts';

/**
 * Whether the folded Bloom bits in `common` (a candidate's within the query's) stand for fewer than
 * `need` of the query's tokens, each counted with its multiplicity (weight32): then it shares fewer.
 */
export function overlapBelow(common: number, weight32: Int32Array, need: number): boolean {
  let sum = 0;
  for (let x = common; x !== 0; x &= x - 1)
    if ((sum += weight32[31 - Math.clz32(x & -x)]) >= need) return false;
  return true;
}

/**
 * A lower bound of the punctuation and tag penalties of a candidate with these flags (stored counts,
 * capped at SHAPE_CAP: a capped count stands for at least that many) against the query.
 */
export function shapePenalty(q: PreparedText, flags: number): number {
  return (
    countPenalty(q.punct.length, punctOf(flags), PENALTY_CAP.punctuation) +
    countPenalty(q.tags.length, tagsOf(flags), PENALTY_CAP.tags)
  );
}

/** min(|a − b|, cap) where b is known only as at least SHAPE_CAP when stored as SHAPE_CAP. */
function countPenalty(a: number, b: number, cap: number): number {
  const diff = b < SHAPE_CAP ? Math.abs(a - b) : Math.max(0, b - a);
  return Math.min(diff, cap);
}

/** overlapBelow by the levels of the weights (FuzzySearch.levels): a popcount per level, no branches per bit. */
export function weightBelow(common: number, levels: Int32Array, count: number, need: number): boolean {
  let sum = 0;
  for (let j = 0; j < count; j++) sum += popcount(common & levels[j]);
  return sum < need;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * An upper bound of a candidate's overlap with the query: the query tokens whose Bloom bits the candidate
 * has (lo, hi: the candidate's bits within the query's), each counted with its multiplicity.
 */
export function bloomOverlap(lo: number, hi: number, bitWeight: Int32Array): number {
  let sum = 0;
  for (let x = lo; x !== 0; x &= x - 1) sum += bitWeight[31 - Math.clz32(x & -x)];
  for (let x = hi; x !== 0; x &= x - 1) sum += bitWeight[63 - Math.clz32(x & -x)];
  return sum;
}
