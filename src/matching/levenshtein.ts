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

let frontA = new Int32Array(64);
let frontB = new Int32Array(64);
// Marks a diagonal no path has reached yet; low enough that +1 keeps it below any real row.
const UNREACHED = -(2 ** 30);

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
