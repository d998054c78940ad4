// In-process fuzzy-match index of one memory's sources: entries in, exact hash, then the fuzzy or wordless search (docs/MATCHING.md §3).
import { FuzzySearch } from './fuzzy-search.ts';
import { groupIn } from './postings-block.ts';
import { checkSearch, type Match, mayBeat, ranked, type SearchOptions, TopN } from './ranking.ts';
import { prepareText } from './score.ts';
import { M_SEEN, META } from './slot-layout.ts';
import { restoreStore, type StoreParts, storeParts, storePartsInSlices } from './store-parts.ts';
import { TokenStore } from './token-store.ts';
import {
  NUM,
  PH,
  SPAN_NUMBER,
  SPAN_PLACEHOLDER,
  SPAN_PUNCT,
  SPAN_TAG,
  SPAN_WORD,
  type SpanSink,
  scanSpans,
  wordReal,
} from './tokenize.ts';
import { TokenIds, type Vocabulary } from './vocabulary.ts';
import { WordlessSearch } from './wordless-search.ts';

/** One memory's entries by source (stored in NFC), searched for matches scoring at least a threshold. */
export class MemoryIndex {
  private readonly store: TokenStore;
  /** The store's vocabulary (TokenStore.vocabulary). */
  private readonly vocabulary: Vocabulary;
  /** The searches of queries with words or numbers, and of queries without. */
  private readonly fuzzy: FuzzySearch;
  private readonly wordless: WordlessSearch;
  private readonly tokens = new TokenIds();
  private text = '';
  private readonly collect: SpanSink = (kind, start, end, flags) => {
    let tid: number;
    if (kind === SPAN_PUNCT) this.tokens.punct++;
    else if (kind === SPAN_TAG) this.tokens.tags++;
    if (kind === SPAN_NUMBER) tid = this.vocabulary.intern(NUM);
    else if (kind === SPAN_PLACEHOLDER) tid = this.vocabulary.intern(PH);
    else if (kind !== SPAN_WORD) return;
    else if (flags === 0) tid = this.vocabulary.internAsciiLower(this.text, start, end);
    else tid = this.vocabulary.intern(wordReal(this.text, start, end, flags).toLowerCase());
    this.tokens.push(tid);
  };

  constructor(store?: TokenStore) {
    this.store = store ?? new TokenStore({ groups: true });
    this.vocabulary = this.store.vocabulary;
    this.fuzzy = new FuzzySearch(this.store);
    this.wordless = new WordlessSearch(this.store);
  }

  /**
   * Which prefix filter candidates come from where the pair bound holds: the cheaper by posting lengths
   * ('auto'), or always one of them (tests force each, to check both are lossless on their own).
   */
  get filter(): FuzzySearch['filter'] {
    return this.fuzzy.filter;
  }

  set filter(mode: FuzzySearch['filter']) {
    this.fuzzy.filter = mode;
  }

  /** The index's state for the saved index file (index-file.ts). */
  toParts(): StoreParts {
    return storeParts(this.store);
  }

  /** The same in slices (storePartsInSlices): the index must not change until it returns. */
  toPartsInSlices(): Generator<void, StoreParts> {
    return storePartsInSlices(this.store);
  }

  static fromParts(parts: StoreParts): MemoryIndex {
    return new MemoryIndex(restoreStore(parts));
  }

  get size(): number {
    return this.store.size;
  }

  has(id: number): boolean {
    return this.store.has(id);
  }

  /** Adds an entry, or replaces the entry with this id. */
  add(id: number, source: string, updatedAt: number): void {
    const nfc = source.normalize('NFC');
    this.text = nfc;
    this.tokens.clear();
    scanSpans(nfc, this.collect);
    this.store.add(id, nfc, updatedAt, this.tokens);
  }

  /** Removes the entry with this id; false when there is none. */
  remove(id: number): boolean {
    return this.store.remove(id);
  }

  /** Room for n entries in all, before a bulk load (TokenStore.reserve). */
  reserve(n: number): void {
    this.store.reserve(n);
  }

  /**
   * Brings the postings up to date (indexes recent additions, compacts removals). Searches do it when
   * due; calling it after a bulk load takes that work out of the first query.
   */
  refresh(): void {
    for (const _ of this.refreshInSlices());
  }

  /**
   * refresh() in slices of a few milliseconds, yielding between them (TokenStore.refreshInSlices): what a
   * caller that must keep the event loop turning drives after a bulk load.
   */
  *refreshInSlices(): Generator<void, void> {
    yield* this.store.refreshInSlices();
    // The sorted wordless entries too: built on demand, it took 50 ms out of the first wordless query
    // against ten million entries.
    if (this.store.empty.length > 0) this.wordless.index();
  }

  search(query: string, opts: SearchOptions): Match[] {
    const threshold = checkSearch(query, opts);
    const { store } = this;
    store.refresh();
    const q = prepareText(query);
    const top = new TopN(opts.n);
    const stamp = store.nextStamp();
    for (const s of store.exactSlots(q.nfc)) {
      store.meta[s * META + M_SEEN] = stamp;
      // Memories repeat short sources thousands of times (one per target): only the newest n are kept.
      // Copies in a block come as a group in rank order, taken until one does not enter the top n.
      const seg = store.blockOf(s);
      const group = groupIn(seg, s);
      if (group < 0) {
        if (mayBeat(top, 100, store.updated[s], store.ids[s]))
          top.offer(ranked(store.ids[s], store.updated[s], 100, []));
        continue;
      }
      const { members } = seg!;
      for (let i = group + 1, end = group + 1 + members[group]; i < end; i++) {
        const c = members[i];
        if (!store.isAlive(c)) continue;
        if (!mayBeat(top, 100, store.updated[c], store.ids[c])) break;
        top.offer(ranked(store.ids[c], store.updated[c], 100, []));
      }
    }
    // A fuzzy match scores at most 99.
    if (threshold < 100 && !(top.full && top.worst!.score === 100)) {
      if (q.content.length === 0) this.wordless.search(q, threshold, top, stamp);
      else this.fuzzy.search(q, threshold, top, stamp);
    }
    return top.sorted();
  }
}
