// The entries' source texts, out of the JS heap: one byte pool for all of them, decoded on demand. Millions
// of strings would be millions of heap objects, every one of them marked by every major GC.

// A pool of 2^32 bytes is the most a Buffer holds (buffer.constants.MAX_LENGTH on Node 20).
const MAX_BYTES = 2 ** 32;
const MIN_BYTES = 8192;
const MIN_TEXTS = 1024;

/** What TextPool.toParts() gives and TextPool.restore() takes. */
export interface TextPoolParts {
  bytes: Uint8Array<ArrayBuffer>;
  /** count + 1 offsets into bytes. */
  starts: Float64Array<ArrayBuffer>;
  wide: Uint8Array<ArrayBuffer>;
}

/**
 * Texts by number (0, 1, 2, … in the order pushed), their code units back to back in one Buffer: one byte
 * each for a text whose units all fit in one (Latin-1, as V8 itself stores such strings), else two
 * (UTF-16LE, lone surrogates included). Append-only: bytes once written never change, so a view of them
 * is a snapshot.
 */
export class TextPool {
  count = 0;
  private bytes: Buffer = Buffer.alloc(MIN_BYTES);
  private byteLen = 0;
  /** Text i is bytes[starts[i] .. starts[i + 1]) (doubles: the pool may pass 2^31 bytes). */
  private starts = new Float64Array(MIN_TEXTS + 1);
  /** 1 where text i is stored as UTF-16LE. */
  private wide = new Uint8Array(MIN_TEXTS);

  /** Bytes held, slack included. */
  get byteLength(): number {
    return this.bytes.byteLength + this.starts.byteLength + this.wide.byteLength;
  }

  push(text: string): void {
    const n = text.length;
    let wide = 0;
    for (let i = 0; i < n; i++)
      if (text.charCodeAt(i) > 0xff) {
        wide = 1;
        break;
      }
    const at = this.reserve(n << wide);
    const { bytes } = this;
    if (wide)
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        bytes[at + 2 * i] = c & 0xff;
        bytes[at + 2 * i + 1] = c >>> 8;
      }
    else for (let i = 0; i < n; i++) bytes[at + i] = text.charCodeAt(i);
    this.wide[this.count] = wide;
    this.end(at + (n << wide));
  }

  /** Appends text i of another pool, bytes as they are (compaction). */
  copyFrom(other: TextPool, i: number): void {
    const from = other.starts[i];
    const to = other.starts[i + 1];
    const at = this.reserve(to - from);
    other.bytes.copy(this.bytes, at, from, to);
    this.wide[this.count] = other.wide[i];
    this.end(at + to - from);
  }

  text(i: number): string {
    return this.bytes.toString(this.wide[i] ? 'utf16le' : 'latin1', this.starts[i], this.starts[i + 1]);
  }

  /** Whether text i is `text`, compared code unit by code unit in the pool. */
  equals(i: number, text: string): boolean {
    const from = this.starts[i];
    const { bytes } = this;
    if (this.wide[i]) {
      if (this.starts[i + 1] - from !== 2 * text.length) return false;
      for (let k = 0; k < text.length; k++)
        if (text.charCodeAt(k) !== (bytes[from + 2 * k] | (bytes[from + 2 * k + 1] << 8))) return false;
      return true;
    }
    if (this.starts[i + 1] - from !== text.length) return false;
    for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) !== bytes[from + k]) return false;
    return true;
  }

  /** Whether texts i and j are the same, compared byte by byte in the pool. */
  same(i: number, j: number): boolean {
    const { starts, bytes } = this;
    if (this.wide[i] !== this.wide[j] || starts[i + 1] - starts[i] !== starts[j + 1] - starts[j])
      return false;
    return bytes.compare(bytes, starts[j], starts[j + 1], starts[i], starts[i + 1]) === 0;
  }

  /**
   * Gives back the slack of growth by doubling, keeping an eighth for the next texts: copied in slices of
   * COPY_SLICE bytes with a yield after each (hundreds of megabytes at ten million texts). Texts added
   * meanwhile make it drop its copy (the next trim tries again): the pool only ever grows at its end.
   */
  *trim(): Generator<void, void> {
    const fit = (used: number, min: number) => Math.max(min, used + (used >> 3));
    const { bytes, byteLen, starts, wide, count } = this;
    if (bytes.length > 1.5 * byteLen + MIN_BYTES) {
      const copy = Buffer.alloc(fit(byteLen, MIN_BYTES));
      for (let at = 0; at < byteLen; at += COPY_SLICE) {
        bytes.copy(copy, at, at, Math.min(byteLen, at + COPY_SLICE));
        yield;
      }
      if (this.bytes === bytes && this.byteLen === byteLen) this.bytes = copy;
    }
    if (wide.length > 1.5 * count + MIN_TEXTS) {
      const n = fit(count, MIN_TEXTS);
      const startsCopy = starts.slice(0, n + 1);
      yield;
      const wideCopy = wide.slice(0, n);
      if (this.starts === starts && this.wide === wide && this.count === count) {
        this.starts = startsCopy;
        this.wide = wideCopy;
      }
    }
  }

  /** Views of the texts so far, not copies: nothing written is ever changed, growth makes new arrays. */
  toParts(): TextPoolParts {
    return {
      bytes: new Uint8Array(this.bytes.buffer as ArrayBuffer, this.bytes.byteOffset, this.byteLen),
      starts: this.starts.subarray(0, this.count + 1),
      wide: this.wide.subarray(0, this.count),
    };
  }

  /** A pool from toParts() of another, its arrays taken over (the bytes viewed as a Buffer, not copied). */
  static restore(parts: TextPoolParts): TextPool {
    const count = parts.wide.length;
    if (parts.starts.length !== count + 1 || parts.starts[count] !== parts.bytes.length)
      throw new RangeError('text pool: offsets do not match the texts');
    const pool = new TextPool();
    pool.count = count;
    pool.byteLen = parts.bytes.length;
    pool.bytes = Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, parts.bytes.length);
    pool.starts = parts.starts;
    pool.wide = parts.wide;
    return pool;
  }

  /** Where the next text's `n` bytes go, with room made for them and for its offsets. */
  private reserve(n: number): number {
    const at = this.byteLen;
    if (at + n > this.bytes.length) {
      if (at + n > MAX_BYTES)
        throw new RangeError(`the texts of one index may hold at most ${MAX_BYTES} bytes`);
      this.bytes = copyBytes(this.bytes, at, Math.min(MAX_BYTES, Math.max(MIN_BYTES, (at + n) * 2)));
    }
    if (this.count === this.wide.length) {
      const n2 = Math.max(MIN_TEXTS, this.count * 2);
      const starts = new Float64Array(n2 + 1);
      starts.set(this.starts.subarray(0, this.count + 1));
      this.starts = starts;
      const wide = new Uint8Array(n2);
      wide.set(this.wide.subarray(0, this.count));
      this.wide = wide;
    }
    return at;
  }

  private end(to: number): void {
    this.byteLen = to;
    this.starts[++this.count] = to;
  }
}

/** Bytes copied between two yields of trim(). */
const COPY_SLICE = 16 * 2 ** 20;

/** The first `used` bytes of `bytes` in a new Buffer of `size`. */
function copyBytes(bytes: Buffer, used: number, size: number): Buffer {
  const b = Buffer.alloc(size);
  bytes.copy(b, 0, 0, used);
  return b;
}
