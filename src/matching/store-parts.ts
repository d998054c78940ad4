// A store's part of the saved index file (index-file.ts): its state as named numbers, strings and typed
// arrays, and the store made again from them. Change INDEX_FORMAT with any change here.
import { keyDirectory, LEN_CAP } from './postings-block.ts';
import { ALIVE, M_FLAGS, M_LEN, M_SEEN, META } from './slot-layout.ts';
import { TextPool } from './text-pool.ts';
import { TokenStore } from './token-store.ts';
import { copied, withRoom } from './typed-arrays.ts';

/** What storeParts() gives and restoreStore() takes. */
export interface StoreParts {
  numbers: {
    slotCount: number;
    dead: number;
    poolLen: number;
    keyCount: number;
    indexed: number;
    pairMask: number;
    tokenCount: number;
    blockCount: number;
    /** 1 when the store groups copies (TokenStore.groups). */
    groups: number;
  };
  strings: { tokens: string[] };
  arrays: Record<string, Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>;
}

/** The text pool's arrays under their names in StoreParts.arrays. */
function textArrays(texts: TextPool): StoreParts['arrays'] {
  const { bytes, starts, wide } = texts.toParts();
  return { textBytes: bytes, textStarts: starts, textWide: wide };
}

/**
 * The store's state as numbers, strings and typed arrays, for the saved index file; restoreStore() takes
 * it back. A snapshot: the arrays that change in place (slots, pool, counts, hash tables) are copied, so
 * that the store can go on taking entries and queries while the file is written; the postings blocks,
 * never changed once built, and the texts, only ever appended to, are shared.
 */
export function storeParts(store: TokenStore): StoreParts {
  const steps = storePartsInSlices(store);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * storeParts() with a yield after each slice of the copies (some 10 ms each): at ten million entries they
 * are a gigabyte, over a second in one piece. The store must not change until it returns (the index
 * cache holds its catch-ups back meanwhile); searches may run between the slices.
 */
export function* storePartsInSlices(store: TokenStore): Generator<void, StoreParts> {
  const { vocabulary } = store;
  return {
    numbers: {
      slotCount: store.slotCount,
      dead: store.dead,
      poolLen: store.poolLen,
      keyCount: vocabulary.keyCount,
      indexed: store.indexed,
      pairMask: store.pairMask,
      tokenCount: vocabulary.tokens.length,
      blockCount: store.blocks.length,
      groups: store.groups ? 1 : 0,
    },
    strings: { tokens: vocabulary.tokens.slice() },
    arrays: {
      ...textArrays(store.texts),
      ids: yield* copied(store.ids, store.slotCount),
      updated: yield* copied(store.updated, store.slotCount),
      meta: yield* copied(store.meta, store.slotCount * META),
      pool: yield* copied(store.pool, store.poolLen),
      table: vocabulary.table.slice(),
      firstKey: vocabulary.firstKey.slice(0, vocabulary.tokens.length),
      repeatKeys: Float64Array.from(vocabulary.repeatKey.keys()),
      repeatValues: Int32Array.from(vocabulary.repeatKey.values()),
      frequency: vocabulary.frequency.slice(0, vocabulary.keyCount),
      buckets: yield* copied(store.buckets, store.buckets.length),
      empty: Int32Array.from(store.empty),
      blockRanges: Int32Array.from(store.blocks.flatMap((b) => [b.from, b.to, b.pairMask])),
      ...Object.fromEntries(
        store.blocks.flatMap((b, i) => [
          [`b${i}keys`, b.keys],
          [`b${i}starts`, b.starts],
          [`b${i}slots`, b.slots],
          [`b${i}blooms`, b.blooms],
          [`b${i}lens`, b.lens],
          [`b${i}groupAt`, b.groupAt],
          [`b${i}members`, b.members],
          [`b${i}pairIndex`, b.pairIndex],
          [`b${i}pairStarts`, b.pairStarts],
          [`b${i}pairSlots`, b.pairSlots],
          [`b${i}pairBlooms`, b.pairBlooms],
          [`b${i}pairLens`, b.pairLens],
        ]),
      ),
    },
  };
}

/** A store from storeParts() of another (its arrays are taken over, not copied). */
export function restoreStore(parts: StoreParts): TokenStore {
  const { numbers: n, strings, arrays: a } = parts;
  const int = (name: string) => a[name] as Int32Array<ArrayBuffer>;
  const bytes = (name: string) => a[name] as Uint8Array<ArrayBuffer>;
  const store = new TokenStore({ groups: n.groups === 1 });
  const { vocabulary } = store;
  const room = Math.max(1024, n.slotCount);
  store.slotCount = n.slotCount;
  store.dead = n.dead;
  store.ids = withRoom(a.ids as Float64Array<ArrayBuffer>, room);
  store.updated = withRoom(a.updated as Float64Array<ArrayBuffer>, room);
  store.meta = withRoom(int('meta'), room * META);
  store.texts = TextPool.restore({
    bytes: a.textBytes as Uint8Array<ArrayBuffer>,
    starts: a.textStarts as Float64Array<ArrayBuffer>,
    wide: a.textWide as Uint8Array<ArrayBuffer>,
  });
  if (store.texts.count !== n.slotCount) throw new RangeError('index parts: one text per slot expected');
  store.slotOf.reserve(n.slotCount - n.dead);
  for (let s = 0; s < n.slotCount; s++)
    if (store.meta[s * META + M_FLAGS] & ALIVE) {
      store.slotOf.set(store.ids[s], s);
      store.lengthCounts[Math.min(store.meta[s * META + M_LEN], LEN_CAP)]++;
    }
  store.lengthsVersion++;
  store.pool = withRoom(int('pool'), Math.max(8192, n.poolLen));
  store.poolLen = n.poolLen;
  for (const token of strings.tokens) vocabulary.tokens.push(token);
  const tokenRoom = Math.max(1024, n.tokenCount);
  vocabulary.table = int('table');
  vocabulary.firstKey = withRoom(int('firstKey'), tokenRoom);
  vocabulary.queryMark = new Int32Array(tokenRoom);
  vocabulary.useMarks = new Int32Array(2 * tokenRoom);
  const rk = a.repeatKeys as Float64Array<ArrayBuffer>;
  const rv = int('repeatValues');
  for (let i = 0; i < rk.length; i++) vocabulary.repeatKey.set(rk[i], rv[i]);
  vocabulary.keyCount = n.keyCount;
  vocabulary.frequency = withRoom(int('frequency'), Math.max(1024, n.keyCount));
  store.pairMask = n.pairMask;
  store.buckets = int('buckets');
  store.empty = Array.from(int('empty'));
  const ranges = int('blockRanges');
  for (let i = 0; i < n.blockCount; i++) {
    const pairIndex = int(`b${i}pairIndex`);
    const dir = keyDirectory(pairIndex, ranges[3 * i + 2]);
    store.blocks.push({
      from: ranges[3 * i],
      to: ranges[3 * i + 1],
      // In PostingsBlock's order, as buildBlock writes them (one hidden class for built and loaded blocks).
      keys: int(`b${i}keys`),
      starts: int(`b${i}starts`),
      slots: int(`b${i}slots`),
      blooms: int(`b${i}blooms`),
      lens: bytes(`b${i}lens`),
      groupAt: int(`b${i}groupAt`),
      members: int(`b${i}members`),
      pairMask: ranges[3 * i + 2],
      pairIndex,
      pairDir: dir.at,
      pairDirShift: dir.shift,
      pairStarts: int(`b${i}pairStarts`),
      pairSlots: int(`b${i}pairSlots`),
      pairBlooms: int(`b${i}pairBlooms`),
      pairLens: bytes(`b${i}pairLens`),
    });
  }
  store.indexed = n.indexed;
  // No marks of earlier queries: stamps start again.
  for (let m = M_SEEN; m < n.slotCount * META; m += META) store.meta[m] = 0;
  return store;
}
