// Concordance over one side of a memory: entries holding all the query's words, the query's exact text first.

import { tokenPostings } from './postings-block.ts';
import { MAX_QUERY_LENGTH } from './ranking.ts';
import { M_START, META } from './slot-layout.ts';
import { TokenStore } from './token-store.ts';
import {
  SPAN_NUMBER,
  SPAN_PLACEHOLDER,
  SPAN_WORD,
  type SpanSink,
  scanSpans,
  scanTokens,
  wordReal,
} from './tokenize.ts';
import { TokenIds } from './vocabulary.ts';

export interface ConcordanceHit {
  id: number;
  /** UTF-16 [start, end) ranges in the entry's text to highlight. */
  offsets: [number, number][];
}

interface Found {
  slot: number;
  len: number;
  id: number;
}

/**
 * An entry is found when it holds every word of the query, case-insensitively, as whole words (numbers by
 * their digits, placeholders by their key; in Chinese, Japanese, Thai… each character is a word, so any
 * substring is found). Entries
 * holding the query's text itself (case-insensitively, any whitespace for whitespace) come first, then
 * those with fewer other words, then by id. Offsets point at the text's occurrences, else at the words.
 */
export class ConcordanceIndex {
  private readonly store = new TokenStore();
  private readonly vocabulary = this.store.vocabulary;
  private readonly tokens = new TokenIds();
  private text = '';
  /** Whether the text being added is in NFC already (terms are compared in NFC). */
  private nfc = true;
  private readonly collect: SpanSink = (kind, start, end, flags, norm) => {
    const { vocabulary, text } = this;
    if (kind === SPAN_PLACEHOLDER) {
      this.tokens.push(vocabulary.intern(this.nfc ? norm : norm.normalize('NFC')));
      return;
    }
    if (kind !== SPAN_WORD && kind !== SPAN_NUMBER) return;
    // An ASCII word's term is its lower case, looked up in place; digits are their own lower case.
    this.tokens.push(
      flags === 0
        ? vocabulary.internAsciiLower(text, start, end)
        : vocabulary.intern(termOf(wordReal(text, start, end, flags), this.nfc)),
    );
  };

  get size(): number {
    return this.store.size;
  }

  has(id: number): boolean {
    return this.store.has(id);
  }

  /** Adds an entry's text (tagged text, kept as is so that offsets point into it), or replaces it. */
  add(id: number, text: string): void {
    this.text = text;
    this.nfc = text.normalize('NFC') === text;
    this.tokens.clear();
    scanSpans(text, this.collect);
    this.store.add(id, text, 0, this.tokens);
  }

  remove(id: number): boolean {
    return this.store.remove(id);
  }

  /** Room for n entries in all, before a bulk load (TokenStore.reserve). */
  reserve(n: number): void {
    this.store.reserve(n);
  }

  /** See MemoryIndex.refresh. */
  refresh(): void {
    this.store.refresh();
  }

  /** See MemoryIndex.refreshInSlices. */
  refreshInSlices(): Generator<void, void> {
    return this.store.refreshInSlices();
  }

  search(query: string, n: number): ConcordanceHit[] {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
    if (query.length > MAX_QUERY_LENGTH)
      throw new RangeError(`query is ${query.length} characters long; the limit is ${MAX_QUERY_LENGTH}`);
    const text = query.normalize('NFC').trim();
    if (!text) return [];
    const { store } = this;
    store.refresh();
    const terms: string[] = [];
    forEachTerm(text, (term) => terms.push(term));
    const distinct = [...new Set(terms)];
    const pattern = substringPattern(text);
    const found =
      distinct.length === 0 ? this.searchText(pattern, n) : this.searchWords(distinct, pattern, n);
    return found.map(({ slot, id }) => {
      const entry = store.text(slot);
      const at = occurrences(entry, pattern);
      return { id, offsets: at.length > 0 ? at : wordOffsets(entry, new Set(distinct)) };
    });
  }

  /**
   * Candidates from the postings of the rarest query word, taken shortest first, so that the search can
   * stop once n entries holding the exact text are found: nothing longer can rank before them.
   */
  private searchWords(terms: string[], pattern: RegExp, n: number): Found[] {
    const { store, vocabulary } = this;
    const tids = terms.map((t) => vocabulary.tokenId(t));
    if (tids.some((t) => t < 0)) return [];
    const stamp = store.nextStamp();
    for (const t of tids) vocabulary.queryMark[t] = stamp;
    const keys = tids.map((t) => vocabulary.keyOf(t, 1));
    const rarest = keys.reduce((a, b) => (vocabulary.frequency[b] < vocabulary.frequency[a] ? b : a));
    // Shortest-first streams: each block's postings of the rarest word, and the unindexed tail.
    const streams: { slots: Int32Array; at: number; end: number }[] = [];
    for (const seg of store.blocks) {
      const range = tokenPostings(seg, rarest, terms.length, Number.MAX_SAFE_INTEGER, store.meta);
      if (range) streams.push({ slots: seg.slots, at: range[0], end: range[1] });
    }
    const tail: number[] = [];
    for (let s = store.indexed; s < store.slotCount; s++) if (store.isAlive(s)) tail.push(s);
    tail.sort((a, b) => store.lengthOf(a) - store.lengthOf(b));
    streams.push({ slots: Int32Array.from(tail), at: 0, end: tail.length });

    const withText: Found[] = [];
    const withWords: Found[] = [];
    for (;;) {
      let len = Number.MAX_SAFE_INTEGER;
      for (const st of streams) if (st.at < st.end) len = Math.min(len, store.lengthOf(st.slots[st.at]));
      if (len === Number.MAX_SAFE_INTEGER || withText.length >= n) break;
      const wordsClosed = withWords.length >= n;
      for (const st of streams) {
        for (; st.at < st.end && store.lengthOf(st.slots[st.at]) === len; st.at++) {
          const s = st.slots[st.at];
          if (!store.isAlive(s) || !this.holdsAll(s, tids.length, stamp)) continue;
          const f = { slot: s, len, id: store.ids[s] };
          if (occurrences(store.text(s), pattern, true).length > 0) withText.push(f);
          else if (!wordsClosed) withWords.push(f);
        }
      }
    }
    return [...withText.sort(byLengthThenId), ...withWords.sort(byLengthThenId)].slice(0, n);
  }

  private holdsAll(s: number, distinct: number, stamp: number): boolean {
    const { store, vocabulary } = this;
    const mark = store.nextCandidateStamp();
    const start = store.meta[s * META + M_START];
    let held = 0;
    for (let i = start, end = start + store.lengthOf(s); i < end; i++) {
      const t = store.pool[i];
      if (vocabulary.queryMark[t] === stamp && vocabulary.useMarks[2 * t] !== mark) {
        vocabulary.useMarks[2 * t] = mark;
        if (++held === distinct) return true;
      }
    }
    return false;
  }

  /** A query without words (only punctuation or tags): every entry is a candidate, shortest first. */
  private searchText(pattern: RegExp, n: number): Found[] {
    const { store } = this;
    // Live slots by token count (counting sort), each length's slots then taken by id.
    let maxLen = 0;
    for (let s = 0; s < store.slotCount; s++)
      if (store.isAlive(s)) maxLen = Math.max(maxLen, store.lengthOf(s));
    const starts = new Int32Array(maxLen + 2);
    for (let s = 0; s < store.slotCount; s++) if (store.isAlive(s)) starts[store.lengthOf(s) + 1]++;
    for (let l = 1; l < starts.length; l++) starts[l] += starts[l - 1];
    const byLen = new Int32Array(starts[maxLen + 1]);
    const fill = starts.slice();
    for (let s = 0; s < store.slotCount; s++) if (store.isAlive(s)) byLen[fill[store.lengthOf(s)]++] = s;
    const found: Found[] = [];
    for (let len = 0; len <= maxLen && found.length < n; len++) {
      const bucket = Array.from(byLen.subarray(starts[len], starts[len + 1])).sort(
        (a, b) => store.ids[a] - store.ids[b],
      );
      for (const s of bucket) {
        if (found.length >= n) break;
        if (occurrences(store.text(s), pattern, true).length > 0)
          found.push({ slot: s, len, id: store.ids[s] });
      }
    }
    return found;
  }
}

/** Where the entry's words that are query terms are. */
function wordOffsets(entry: string, terms: Set<string>): [number, number][] {
  const offsets: [number, number][] = [];
  forEachTerm(entry, (term, start, end) => {
    if (terms.has(term)) offsets.push([start, end]);
  });
  return offsets;
}

/**
 * The concordance term of every word, number and placeholder of a text, with its offsets: a placeholder's
 * term is its key (docs/MATCHING.md §1), case kept, so that `%s` finds `%s` and not `%S`.
 */
function forEachTerm(text: string, fn: (term: string, start: number, end: number) => void): void {
  const nfc = text.normalize('NFC') === text;
  scanSpans(text, (kind, start, end, flags, norm) => {
    if (kind === SPAN_WORD || kind === SPAN_NUMBER)
      fn(termOf(wordReal(text, start, end, flags), nfc), start, end);
    else if (kind === SPAN_PLACEHOLDER) fn(nfc ? norm : norm.normalize('NFC'), start, end);
  });
}

/** A word's concordance term: lower case, NFC (numbers are their digits, already NFKC-normalized). */
function termOf(real: string, nfc: boolean): string {
  const lower = real.toLowerCase();
  return nfc ? lower : lower.normalize('NFC');
}

function byLengthThenId(a: Found, b: Found): number {
  return a.len - b.len || a.id - b.id;
}

/** The query's text as a case-insensitive pattern in which any run of whitespace matches any other. */
function substringPattern(text: string): RegExp {
  // Only the characters special outside a character class: under the u flag an escape such as \- or \/
  // that means nothing there is a syntax error.
  const escaped = text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(escaped, 'giu');
}

/**
 * Ranges where the pattern occurs in the text on token boundaries (so never inside a word or inside
 * markup); `first`: stop at the first.
 */
function occurrences(text: string, pattern: RegExp, first = false): [number, number][] {
  pattern.lastIndex = 0;
  let m = pattern.exec(text);
  if (!m) return [];
  // Without tags or placeholders in the text, an occurrence between whitespace (or the ends) is on
  // token boundaries (its first and last characters are not whitespace: the query is trimmed); any
  // other needs the tokens.
  const plain = !/[<{%$]/.test(text);
  let starts: number[] | null = null;
  let ends: number[] = [];
  const found: [number, number][] = [];
  for (; m; m = pattern.exec(text)) {
    const end = m.index + m[0].length;
    let onBoundaries = plain && spaceOrEdge(text, m.index - 1) && spaceOrEdge(text, end);
    if (!onBoundaries) {
      if (!starts) [starts, ends] = tokenBounds(text);
      onBoundaries = starts.includes(m.index) && ends.includes(end);
    }
    if (onBoundaries) {
      found.push([m.index, end]);
      if (first) break;
    } else pattern.lastIndex = m.index + 1; // an occurrence may start inside this one
  }
  return found;
}

function spaceOrEdge(text: string, i: number): boolean {
  return i < 0 || i >= text.length || /\s/.test(text[i]);
}

function tokenBounds(text: string): [number[], number[]] {
  const starts: number[] = [];
  const ends: number[] = [];
  scanTokens(text, (_type, _norm, _real, start, end) => {
    starts.push(start);
    ends.push(end);
  });
  return [starts, ends];
}
