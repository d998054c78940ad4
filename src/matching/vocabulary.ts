// A store's vocabulary: token → token id, (token id, occurrence) → posting key, and each key's frequency.
import { grow } from './typed-arrays.ts';

/** The token ids of the entry being added, in a buffer reused from entry to entry. */
export class TokenIds {
  ids = new Int32Array(256);
  count = 0;
  /** The entry's punctuation and tag tokens (the match index counts them; the concordance leaves 0). */
  punct = 0;
  tags = 0;

  clear(): void {
    this.count = 0;
    this.punct = 0;
    this.tags = 0;
  }

  push(tid: number): void {
    if (this.count === this.ids.length) this.ids = grow(this.ids, this.count * 2);
    this.ids[this.count++] = tid;
  }
}

/**
 * Token → token id in an open-addressing table (so that an ASCII word can be looked up from the text it
 * is in, without building its string); (token id, occurrence) → posting key. The table holds each
 * token's id, hash and first posting key side by side (TABLE_STRIDE ints a place, id -1 when free): a
 * probe compares hashes on the line it reads, and a search finds the key there, where arrays by token id
 * cost a cache miss each. The store, its postings builder and store-parts.ts read the fields directly.
 */
export class Vocabulary {
  /** The token of each token id. */
  readonly tokens: string[] = [];
  table = new Int32Array(4096 * TABLE_STRIDE).fill(-1);
  firstKey = new Int32Array(1024);
  readonly repeatKey = new Map<number, number>();
  /** By posting key: the entries holding it (counted as they are added, and again at compaction). */
  frequency = new Int32Array(1024);
  keyCount = 0;
  /**
   * Per token id scratch, grown with the vocabulary, for the concordance search: its words, marked with
   * the search's stamp (TokenStore.nextStamp). The match index keeps a query's tokens in a SmallCounts of
   * its own.
   */
  queryMark = new Int32Array(1024);
  /**
   * Per token id scratch for one entry or candidate at a time, side by side (one cache line for both):
   * useMarks[2·tid] its stamp (TokenStore.nextCandidateStamp), useMarks[2·tid + 1] the token's
   * occurrences so far.
   */
  useMarks = new Int32Array(2048);

  /**
   * The token id of a token, -1 when no entry ever had it; `foundKey` is then its first occurrence's
   * posting key (keyOf(tid, 1)), read from the same place of the table.
   */
  tokenId(token: string): number {
    const h = hashString(token);
    const { table } = this;
    const mask = table.length / TABLE_STRIDE - 1;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const o = at * TABLE_STRIDE;
      const tid = table[o];
      if (tid < 0 || (table[o + 1] === h && this.tokens[tid] === token)) {
        this.foundKey = tid < 0 ? -1 : table[o + 2];
        return tid;
      }
    }
  }

  /** The first occurrence's posting key of the token tokenId found last. */
  foundKey = -1;

  /** The token id of a token, added to the vocabulary when new. */
  intern(token: string): number {
    const h = hashString(token);
    const { table } = this;
    const mask = table.length / TABLE_STRIDE - 1;
    let at = h & mask;
    for (let tid = table[at * TABLE_STRIDE]; tid >= 0; tid = table[(at = (at + 1) & mask) * TABLE_STRIDE])
      if (table[at * TABLE_STRIDE + 1] === h && this.tokens[tid] === token) return tid;
    return this.newToken(token, h, at);
  }

  /** intern(text.slice(start, end).toLowerCase()) for ASCII text, without building the string first. */
  internAsciiLower(text: string, start: number, end: number): number {
    let h = FNV_BASIS;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
    }
    h |= 0;
    const { table } = this;
    const mask = table.length / TABLE_STRIDE - 1;
    let at = h & mask;
    for (let tid = table[at * TABLE_STRIDE]; tid >= 0; tid = table[(at = (at + 1) & mask) * TABLE_STRIDE])
      if (table[at * TABLE_STRIDE + 1] === h && equalsAsciiLower(this.tokens[tid], text, start, end))
        return tid;
    return this.newToken(text.slice(start, end).toLowerCase(), h, at);
  }

  /** The posting key of the occurrence-th occurrence of a token in an entry, -1 when no entry has it. */
  keyOf(tid: number, occurrence: number): number {
    if (occurrence === 1) return this.firstKey[tid];
    return this.repeatKey.get(occurrence * REPEAT_KEY + tid) ?? -1;
  }

  /** The posting key of a token's occurrence-th (≥ 2) occurrence, created when new. */
  repeatKeyOf(tid: number, occurrence: number): number {
    const k = occurrence * REPEAT_KEY + tid;
    let key = this.repeatKey.get(k);
    if (key === undefined) {
      key = this.newKey();
      this.repeatKey.set(k, key);
    }
    return key;
  }

  private newToken(token: string, h: number, at: number): number {
    const tid = this.tokens.length;
    this.tokens.push(token);
    if (tid === this.firstKey.length) {
      const n = tid * 2;
      this.firstKey = grow(this.firstKey, n);
      this.queryMark = grow(this.queryMark, n);
      this.useMarks = grow(this.useMarks, 2 * n);
    }
    // A token's first key never changes: the table's copy stays true.
    const key = this.newKey();
    this.firstKey[tid] = key;
    this.table[at * TABLE_STRIDE] = tid;
    this.table[at * TABLE_STRIDE + 1] = h;
    this.table[at * TABLE_STRIDE + 2] = key;
    // Keep the table at most half full.
    if (this.tokens.length * 2 * TABLE_STRIDE > this.table.length) {
      const old = this.table;
      const table = new Int32Array(old.length * 2).fill(-1);
      const mask = table.length / TABLE_STRIDE - 1;
      for (let o = 0; o < old.length; o += TABLE_STRIDE) {
        if (old[o] < 0) continue;
        let a = old[o + 1] & mask;
        while (table[a * TABLE_STRIDE] >= 0) a = (a + 1) & mask;
        table.set(old.subarray(o, o + TABLE_STRIDE), a * TABLE_STRIDE);
      }
      this.table = table;
    }
    return tid;
  }

  private newKey(): number {
    const key = this.keyCount++;
    if (key === this.frequency.length) this.frequency = grow(this.frequency, key * 2);
    return key;
  }
}

// The posting key of the k-th occurrence (k ≥ 2) of token t in an entry is looked up by k·2^32 + t.
const REPEAT_KEY = 2 ** 32;

/**
 * Ints a place of the vocabulary's table: the token id (-1 for a free place), its hash, its first posting
 * key, and one unused, so that a place never straddles two cache lines.
 */
const TABLE_STRIDE = 4;

const FNV_BASIS = 0x811c9dc5;
const FNV_PRIME = 16777619;

/** FNV-1a over UTF-16 code units: the hash of texts (exact path) and of tokens (vocabulary). */
export function hashString(s: string): number {
  let h = FNV_BASIS;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

function equalsAsciiLower(token: string, text: string, start: number, end: number): boolean {
  if (token.length !== end - start) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (token.charCodeAt(i - start) !== (c >= 65 && c <= 90 ? c + 32 : c)) return false;
  }
  return true;
}
