// Long work in short slices: what keeps a job or an export from holding the event loop. The embedded store
// answers synchronously, and a streamed export runs its reads and its XML writing in one chain of promises,
// so without these a request (even /healthz) would wait until the work ended. At the lowest layer, beside
// errors.ts: the store, the match index file (matching/index-file.ts) and the modules all pace with it.

/**
 * How long work may hold the event loop before it gives requests a turn. Requests then wait at most about
 * this long behind any task, import or export.
 */
export const HOLD_MS = 10;

const STREAM_HOLD_MS = 4;

/** Resolves on the event loop's next turn, after the requests and I/O waiting for it. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Gives the event loop a turn when the current work has held it past `holdMs`. */
export class Breather {
  private since = performance.now();
  private resetScheduled = false;

  constructor(private readonly holdMs = HOLD_MS) {}

  async breathe(): Promise<void> {
    const now = performance.now();
    if (!this.resetScheduled) {
      // Fires as soon as the event loop turns: until then, everything since belongs to one long task.
      this.resetScheduled = true;
      setImmediate(() => {
        this.since = performance.now();
        this.resetScheduled = false;
      });
    }
    if (now - this.since < this.holdMs) return;
    await nextTurn();
  }
}

/**
 * The items of `source`, with a turn of the event loop whenever producing them has held it past
 * STREAM_HOLD_MS: for streamed exports, whose reading, formatting and socket writes otherwise run as one
 * long task. Shorter than HOLD_MS: an export keeps the thread busy for seconds, and a request served
 * beside it waits one slice at each of its turns of the event loop.
 */
export async function* paced<T>(source: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  const breather = new Breather(STREAM_HOLD_MS);
  for await (const item of source) {
    await breather.breathe();
    yield item;
  }
}

/**
 * Page sizes for reading a large table page by page, sized by time: the next page is as large as the last
 * page's speed allows within TARGET_MS. A fixed size is either slow (small pages on a fast table) or holds
 * the event loop for a long statement (rows read through a large write-ahead log after a bulk update took
 * 25 µs each, 5,000 of them 125 ms).
 */
export class PageSizer {
  private static readonly TARGET_MS = 5;
  size: number;

  constructor(
    initial: number,
    private readonly min = 50,
    private readonly max = 5000,
  ) {
    this.size = initial;
  }

  /** Records how long the last page of `rows` rows took; sets the next page's size. */
  took(ms: number, rows: number): void {
    if (rows < this.size) return;
    const perRow = Math.max(ms, 0.01) / rows;
    const next = Math.floor(PageSizer.TARGET_MS / perRow);
    // Grow at most fourfold a page: one fast page (cached rows) says little about the next.
    this.size = Math.max(this.min, Math.min(this.max, next, this.size * 4));
  }
}
