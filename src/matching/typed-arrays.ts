// Growing and copying the typed arrays the stores are made of.

/** Elements copied between two yields of copied(): 8 or 16 MB. */
const COPY_SLICE = 2 ** 21;

/** A copy of the first n elements of `a`, COPY_SLICE at a time, with a yield after each. */
export function* copied<T extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(
  a: T,
  n: number,
): Generator<void, T> {
  const b = new (a.constructor as new (n: number) => T)(n);
  for (let at = 0; at < n; at += COPY_SLICE) {
    b.set(a.subarray(at, Math.min(n, at + COPY_SLICE)) as T, at);
    yield;
  }
  return b;
}

/** `a` itself when it has at least n elements, else a copy with room for n. */
export function withRoom<T extends Int32Array | Float64Array>(a: T, n: number): T {
  return a.length >= n ? a : grow(a, n);
}

/** A copy of `a` with room for n elements (n ≥ its length). */
export function grow<T extends Int32Array | Float64Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
