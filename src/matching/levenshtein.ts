// Unit-cost edit distance over token sequences: the plain one with its alignment, and a banded one with early exit.

// Scratch matrices are reused between calls, but one larger than this (cells) is not kept afterwards.
const KEEP_CELLS = 1 << 20;
let matrix: Int32Array = new Int32Array(1024);

/** A scratch array of at least `cells` cells: `kept` when large enough, else a new one. */
function scratch(kept: Int32Array, cells: number): Int32Array {
  if (cells <= kept.length) return kept;
  return new Int32Array(cells <= KEEP_CELLS ? Math.min(cells * 2, KEEP_CELLS) : cells);
}

export interface Alignment {
  distance: number;
  /** Pairs of indexes (i in a, j in b) of equal tokens the alignment keeps, flattened: i0, j0, i1, j1, … */
  matches: number[];
}

/**
 * Levenshtein distance with the alignment read back from the full matrix. The backtrace is fixed so that
 * the same pair always yields the same alignment: from the end, take a diagonal step when it keeps an equal
 * pair, else a substitution, else a deletion from `a`, else an insertion.
 */
export function align<T>(a: ArrayLike<T>, b: ArrayLike<T>): Alignment {
  const n = a.length;
  const m = b.length;
  const w = m + 1;
  const d = scratch(matrix, (n + 1) * w);
  if (d.length <= KEEP_CELLS) matrix = d;
  for (let j = 0; j <= m; j++) d[j] = j;
  for (let i = 1; i <= n; i++) {
    const row = i * w;
    const ai = a[i - 1];
    d[row] = i;
    for (let j = 1; j <= m; j++) {
      const sub = d[row - w + j - 1] + (ai === b[j - 1] ? 0 : 1);
      const del = d[row - w + j] + 1;
      const ins = d[row + j - 1] + 1;
      d[row + j] = sub < del ? Math.min(sub, ins) : Math.min(del, ins);
    }
  }
  const matches: number[] = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const here = d[i * w + j];
    const diag = d[(i - 1) * w + j - 1];
    if (a[i - 1] === b[j - 1] && here === diag) {
      // Pushed as (j, i) so that reversing the list yields (i, j) pairs in order.
      matches.push(j - 1, i - 1);
      i--;
      j--;
    } else if (here === diag + 1) {
      i--;
      j--;
    } else if (here === d[(i - 1) * w + j] + 1) i--;
    else j--;
  }
  return { distance: d[n * w + m], matches: matches.reverse() };
}

let band: Int32Array = new Int32Array(1024);

/**
 * align(a, b) when their distance is known to be at most k, from the band |i − j| ≤ k only: every path of
 * cost ≤ k stays in it, so the band holds the exact value of every cell the backtrace visits, and any
 * neighbour outside it (or capped at k + 1) is one the full backtrace would not take either.
 */
export function alignWithin<T>(a: ArrayLike<T>, b: ArrayLike<T>, k: number): Alignment {
  const n = a.length;
  const m = b.length;
  const w = 2 * k + 1;
  const over = k + 1;
  const d = scratch(band, (n + 1) * w);
  if (d.length <= KEEP_CELLS) band = d;
  for (let j = 0; j <= Math.min(m, k); j++) d[j + k] = j;
  for (let i = 1; i <= n; i++) {
    const ai = a[i - 1];
    const row = i * w - i + k;
    for (let j = Math.max(0, i - k), hi = Math.min(m, i + k); j <= hi; j++) {
      let v: number;
      if (j === 0) v = Math.min(i, over);
      else {
        v = cell(d, w, k, i - 1, j - 1) + (ai === b[j - 1] ? 0 : 1);
        v = Math.min(v, cell(d, w, k, i - 1, j) + 1, cell(d, w, k, i, j - 1) + 1, over);
      }
      d[row + j] = v;
    }
  }
  const matches: number[] = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const here = cell(d, w, k, i, j);
    const diag = cell(d, w, k, i - 1, j - 1);
    if (a[i - 1] === b[j - 1] && here === diag) {
      matches.push(j - 1, i - 1);
      i--;
      j--;
    } else if (here === diag + 1) {
      i--;
      j--;
    } else if (here === cell(d, w, k, i - 1, j) + 1) i--;
    else j--;
  }
  return { distance: cell(d, w, k, n, m), matches: matches.reverse() };
}

/** A banded matrix cell; k + 1 outside the band. */
function cell(d: Int32Array, w: number, k: number, i: number, j: number): number {
  return j - i > k || i - j > k || j < 0 ? k + 1 : d[i * w - i + k + j];
}

let rowA = new Int32Array(256);
let rowB = new Int32Array(256);

/**
 * Levenshtein distance between a[aOff, aOff+aLen) and b[bOff, bOff+bLen) when it is at most k, else k + 1.
 * Only the diagonal band |i − j| ≤ k is computed, and the scan stops as soon as no path can end within k.
 */
export function boundedDistance<T>(
  a: ArrayLike<T>,
  aOff: number,
  aLen: number,
  b: ArrayLike<T>,
  bOff: number,
  bLen: number,
  k: number,
): number {
  const over = k + 1;
  const gap = aLen - bLen;
  if (gap > k || -gap > k) return over;
  if (aLen === 0 || bLen === 0) return aLen + bLen;
  if (bLen + 2 > rowA.length) {
    rowA = new Int32Array(bLen * 2 + 2);
    rowB = new Int32Array(bLen * 2 + 2);
  }
  let prev = rowA;
  let cur = rowB;
  const first = Math.min(bLen, k);
  for (let j = 0; j <= first; j++) prev[j] = j;
  if (first < bLen) prev[first + 1] = over;
  for (let i = 1; i <= aLen; i++) {
    const lo = Math.max(i - k, 1);
    const hi = Math.min(i + k, bLen);
    const left = aLen - i;
    // Best possible final distance through this row: a cell's value plus the length difference still left.
    let best = over;
    if (lo === 1) {
      // Column 0 (i deletions) is inside the band while i ≤ k.
      cur[0] = Math.min(i, over);
      best = cur[0] + Math.abs(left - bLen);
    } else cur[lo - 1] = over; // left of the band: unreachable within k
    const ai = a[aOff + i - 1];
    for (let j = lo; j <= hi; j++) {
      let v = prev[j - 1] + (ai === b[bOff + j - 1] ? 0 : 1);
      const del = prev[j] + 1;
      if (del < v) v = del;
      const ins = cur[j - 1] + 1;
      if (ins < v) v = ins;
      if (v > over) v = over;
      cur[j] = v;
      const rest = left - (bLen - j);
      const reach = v + (rest < 0 ? -rest : rest);
      if (reach < best) best = reach;
    }
    if (hi < bLen) cur[hi + 1] = over;
    if (best > k) return over;
    const t = prev;
    prev = cur;
    cur = t;
  }
  const dist = prev[bLen];
  return Math.min(dist, over);
}
