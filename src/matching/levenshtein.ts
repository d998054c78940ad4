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

let frontA = new Int32Array(64);
let frontB = new Int32Array(64);
// Marks a diagonal no path has reached yet; low enough that +1 keeps it below any real row.
const UNREACHED = -(2 ** 30);

// The furthest-reaching rows of alignWithin, one row of diagonals per number of edits; kept between calls.
// Room for distances up to about 180 from the start (256 KB): growing it first in a served query recompiled
// alignWithin there (the server's warm-up aligns at smaller distances).
let fronts: Int32Array = new Int32Array(1 << 16);

/**
 * align(a, b) when their distance is known to be at most k, by diagonal transition (as boundedDistance)
 * with every front kept: fronts[e][δ] is the furthest row i of diagonal δ (j = i + δ) whose cell costs at
 * most e, and since costs never fall along a diagonal, D(i, j) ≤ e exactly when |j − i| ≤ e and
 * fronts[e][j − i] ≥ i. The fronts cost about d² cells plus the slides along equal tokens, where a band
 * |i − j| ≤ k costs n·(2k + 1): for a candidate of 115 tokens at distance 30 (a long query's), some 1,100
 * cells against 7,000. The backtrace is align's, step for step: every cell it visits lies on a path of cost
 * d, so costs at most d, and each of its comparisons is a test "at most here − 1" that the fronts answer
 * exactly; a neighbour costing more than d is never equal to here − 1.
 */
export function alignWithin<T>(a: ArrayLike<T>, b: ArrayLike<T>, k: number): Alignment {
  const n = a.length;
  const m = b.length;
  const target = m - n;
  // Diagonal δ of front e is at e · size + mid + δ; δ ± 1 stays within the row.
  const size = 2 * k + 3;
  const mid = k + 1;
  const f = scratch(fronts, (k + 1) * size);
  if (f.length <= KEEP_CELLS) fronts = f;
  let distance = -1;
  for (let e = 0; e <= k && distance < 0; e++) {
    const row = e * size + mid;
    f.fill(UNREACHED, row - mid, row - mid + size);
    for (let d = Math.max(-e, -n), hi = Math.min(e, m); d <= hi; d++) {
      let i = 0;
      if (e > 0) {
        const p = row - size + d;
        // Substitution (same diagonal), deletion of a[i] (from d + 1), insertion of b[j] (from d − 1).
        i = Math.min(Math.max(f[p] + 1, f[p + 1] + 1, f[p - 1]), n, m - d);
        if (i < 0 || i + d < 0) continue;
      }
      while (i < n && i + d < m && a[i] === b[i + d]) i++;
      f[row + d] = i;
      if (d === target && i === n) distance = e;
    }
  }
  if (distance < 0) throw new RangeError(`alignWithin: the distance exceeds ${k}`);
  const matches: number[] = [];
  let i = n;
  let j = m;
  let here = distance;
  while (i > 0 && j > 0) {
    // Equal tokens: the diagonal costs the same (D(i − 1, j − 1) ≤ D(i, j) ≤ D(i − 1, j − 1) then).
    if (a[i - 1] === b[j - 1]) {
      matches.push(j - 1, i - 1);
      i--;
      j--;
      continue;
    }
    if (atMost(f, size, mid, here - 1, i - 1, j - 1)) {
      i--;
      j--;
    } else if (atMost(f, size, mid, here - 1, i - 1, j)) i--;
    else j--;
    here--;
  }
  return { distance, matches: matches.reverse() };
}

/** D(i, j) ≤ e by alignWithin's fronts (e at most the distance they were computed to). */
function atMost(f: Int32Array, size: number, mid: number, e: number, i: number, j: number): boolean {
  return e >= 0 && j - i <= e && i - j <= e && f[e * size + mid + j - i] >= i;
}

/**
 * Levenshtein distance between a[aOff, aOff+aLen) and b[bOff, bOff+bLen) when it is at most k, else k + 1,
 * by diagonal transition (Ukkonen, Landau–Vishkin): for e = 0, 1, … the furthest row each diagonal
 * reaches with e edits, sliding along equal tokens for free. It costs about k² plus the slides instead of
 * the band's n·k, and stops at the first e that reaches the end — or after e = k.
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
  const target = bLen - aLen;
  if (target > k || -target > k) return over;
  // Diagonal d (j = i + d) is at index d + k + 1; d ± 1 stays within [0, 2k + 2].
  const size = 2 * k + 3;
  if (size > frontA.length) {
    frontA = new Int32Array(size * 2);
    frontB = new Int32Array(size * 2);
  }
  let prev = frontA;
  let cur = frontB;
  prev.fill(UNREACHED, 0, size);
  cur.fill(UNREACHED, 0, size);
  const mid = k + 1;
  for (let e = 0; e <= k; e++) {
    const lo = Math.max(-e, -aLen);
    const hi = Math.min(e, bLen);
    for (let d = lo; d <= hi; d++) {
      let i: number;
      if (e === 0) i = 0;
      else {
        // Substitution (same diagonal), deletion of a[i] (from d + 1), insertion of b[j] (from d − 1).
        i = Math.max(prev[mid + d] + 1, prev[mid + d + 1] + 1, prev[mid + d - 1]);
        i = Math.min(i, aLen, bLen - d);
        if (i < 0 || i + d < 0) {
          cur[mid + d] = UNREACHED;
          continue;
        }
      }
      while (i < aLen && i + d < bLen && a[aOff + i] === b[bOff + i + d]) i++;
      cur[mid + d] = i;
      if (d === target && i === aLen) return e;
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  return over;
}
