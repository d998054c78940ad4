// Entry id → slot for a TokenStore: an open-addressing table over typed arrays.

/**
 * Entry id → slot: open addressing over typed arrays (linear probing, deletion by backward shift), a
 * fraction of a Map's memory and time for millions of entries.
 */
export class IdTable {
  private keys = new Float64Array(2048);
  private vals = new Int32Array(2048).fill(-1);
  size = 0;

  /** The slot of an id, -1 when absent. */
  get(id: number): number {
    const mask = this.vals.length - 1;
    for (let at = hashId(id) & mask; ; at = (at + 1) & mask) {
      const v = this.vals[at];
      if (v < 0 || this.keys[at] === id) return v;
    }
  }

  /** Room for n ids without growing. */
  reserve(n: number): void {
    let size = this.vals.length;
    while (n * 2 > size) size *= 2;
    if (size > this.vals.length) this.resize(size);
  }

  set(id: number, slot: number): void {
    if ((this.size + 1) * 2 > this.vals.length) this.resize(this.vals.length * 2);
    const mask = this.vals.length - 1;
    let at = hashId(id) & mask;
    while (this.vals[at] >= 0 && this.keys[at] !== id) at = (at + 1) & mask;
    if (this.vals[at] < 0) this.size++;
    this.keys[at] = id;
    this.vals[at] = slot;
  }

  delete(id: number): void {
    const mask = this.vals.length - 1;
    let at = hashId(id) & mask;
    for (;;) {
      if (this.vals[at] < 0) return;
      if (this.keys[at] === id) break;
      at = (at + 1) & mask;
    }
    this.size--;
    // Backward shift: move up every later entry of the run that may sit at `at`.
    let hole = at;
    for (let j = (hole + 1) & mask; this.vals[j] >= 0; j = (j + 1) & mask) {
      const home = hashId(this.keys[j]) & mask;
      // Whether home lies cyclically in (hole, j]: if not, the entry may move to the hole.
      if (hole <= j ? home > hole && home <= j : home > hole || home <= j) continue;
      this.keys[hole] = this.keys[j];
      this.vals[hole] = this.vals[j];
      hole = j;
    }
    this.vals[hole] = -1;
  }

  private resize(n: number): void {
    const { keys, vals } = this;
    this.keys = new Float64Array(n);
    this.vals = new Int32Array(n).fill(-1);
    this.size = 0;
    for (let i = 0; i < vals.length; i++) if (vals[i] >= 0) this.set(keys[i], vals[i]);
  }
}

const idWords = new Int32Array(2);
const idDouble = new Float64Array(idWords.buffer);

function hashId(id: number): number {
  // (+0 for -0, which equals 0 as a key.)
  idDouble[0] = id + 0;
  const h = Math.imul(idWords[0] ^ Math.imul(idWords[1], 0x85ebca6b), 0x9e3779b1);
  return h ^ (h >>> 15);
}
