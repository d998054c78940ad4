// The terms of one language as a trie over token ids, found in a text leftmost-longest.
//
// Why a trie walked from each token rather than Aho–Corasick: a term is a few tokens long and most tokens of
// a text begin no term, so the walk from a token ends after one or two hash probes; leftmost-longest without
// overlaps falls out of it directly, with no failure links to build or keep up to date when a term is added.
//
// Layout, for 100,000 terms in a few megabytes and no object per node: token keys are interned to ids (one
// Map); the trie's edges are one open-addressing hash table in typed arrays keyed by (node, token id); the
// terms ending at a node are a linked list of entries in typed arrays. Adding a term is incremental; removing
// one unlinks its entry and leaves its nodes (harmless: they lead to no term), so a long-lived index that
// loses many terms is rebuilt — `garbage` says how many entries were removed since it was built.
import { type TermToken, type TermTokenizer, termTokenizer } from './term-tokens.ts';

/** A term as the index takes it: its id (an integer), its text and whether its case must match. */
export interface IndexedTerm {
  termId: number;
  text: string;
  caseSensitive?: boolean;
}

/** Where terms were found: the ids of the terms of that span, and its offsets in the text as given. */
export interface TermMatch {
  termIds: number[];
  start: number;
  end: number;
}

export interface FindOptions {
  /**
   * Every occurrence of every term, overlaps included (term QA looks for one term inside another); default
   * false: leftmost-longest, no overlaps (what the editor highlights).
   */
  overlapping?: boolean;
}

const NO_NODE = -1;
const ROOT = 0;

/** Whether two spellings of one token have the same case letter by letter (over the shorter one). */
function sameCase(expected: string, actual: string): boolean {
  const n = Math.min(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const a = expected[i];
    const b = actual[i];
    if ((a !== a.toLowerCase()) !== (b !== b.toLowerCase())) return false;
    if ((a !== a.toUpperCase()) !== (b !== b.toUpperCase())) return false;
  }
  return true;
}

export class TermIndex {
  readonly lang: string;
  private readonly tokenizer: TermTokenizer;
  private readonly vocabulary = new Map<string, number>();
  // Edges: slot → (parent node, token id) → child node.
  private edgeParent: Int32Array;
  private edgeToken: Int32Array;
  private edgeChild: Int32Array;
  private edgeCount = 0;
  private nodeCount = 1;
  /** nodeFirst[node]: the node's first entry + 1, 0 for none. */
  private nodeFirst = new Int32Array(1024);
  private entryTerm = new Float64Array(1024);
  /** The next entry of the same node + 1, 0 for none. */
  private entryNext = new Int32Array(1024);
  private entryCount = 0;
  private termCount = 0;
  private removed = 0;
  /** The tokens as written of case-sensitive entries (few): entry → surfaces. */
  private readonly caseForms = new Map<number, string[]>();

  constructor(lang: string) {
    this.lang = lang;
    this.tokenizer = termTokenizer(lang);
    this.edgeParent = new Int32Array(1024).fill(NO_NODE);
    this.edgeToken = new Int32Array(1024);
    this.edgeChild = new Int32Array(1024);
  }

  /** How many terms the index holds. */
  get size(): number {
    return this.termCount;
  }

  /** Entries removed since the index was built (their nodes stay: rebuild when this grows large). */
  get garbage(): number {
    return this.removed;
  }

  /**
   * Adds a term; false when it cannot be recognized (no word in it, or a placeholder) or is there already.
   */
  add(term: IndexedTerm): boolean {
    const tokens = this.tokenizer.tokens(term.text);
    if (!indexable(tokens)) return false;
    let node = ROOT;
    for (const token of tokens) node = this.childOrNew(node, this.intern(token.key));
    for (let e = this.nodeFirst[node] - 1; e >= 0; e = this.entryNext[e] - 1) {
      if (this.entryTerm[e] === term.termId) return false;
    }
    const entry = this.entryCount++;
    if (entry >= this.entryTerm.length) {
      this.entryTerm = grow(this.entryTerm);
      this.entryNext = grow(this.entryNext);
    }
    this.entryTerm[entry] = term.termId;
    this.entryNext[entry] = this.nodeFirst[node];
    this.nodeFirst[node] = entry + 1;
    if (term.caseSensitive) {
      this.caseForms.set(
        entry,
        tokens.map((t) => t.surface),
      );
    }
    this.termCount++;
    return true;
  }

  /** Removes a term added with this text and id; false when it is not there. */
  remove(term: IndexedTerm): boolean {
    const tokens = this.tokenizer.tokens(term.text);
    if (!indexable(tokens)) return false;
    let node = ROOT;
    for (const token of tokens) {
      const id = this.vocabulary.get(token.key);
      node = id === undefined ? NO_NODE : this.child(node, id);
      if (node === NO_NODE) return false;
    }
    let previous = -1;
    for (let e = this.nodeFirst[node] - 1; e >= 0; previous = e, e = this.entryNext[e] - 1) {
      if (this.entryTerm[e] !== term.termId) continue;
      if (previous < 0) this.nodeFirst[node] = this.entryNext[e];
      else this.entryNext[previous] = this.entryNext[e];
      this.caseForms.delete(e);
      this.termCount--;
      this.removed++;
      return true;
    }
    return false;
  }

  /** The terms of a text (tagged text welcome): leftmost-longest without overlaps unless asked otherwise. */
  find(text: string, options: FindOptions = {}): TermMatch[] {
    const tokens = this.tokenizer.tokens(text);
    const n = tokens.length;
    const ids = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const t = tokens[i];
      ids[i] = t.kind === 'barrier' ? -1 : (this.vocabulary.get(t.key) ?? -1);
    }
    const matches: TermMatch[] = [];
    const ends: number[] = [];
    const nodes: number[] = [];
    let i = 0;
    while (i < n) {
      if (ids[i] < 0 || !tokens[i].anchor) {
        i++;
        continue;
      }
      ends.length = 0;
      nodes.length = 0;
      let node = ROOT;
      for (let j = i; j < n && ids[j] >= 0; j++) {
        node = this.child(node, ids[j]);
        if (node === NO_NODE) break;
        if (this.nodeFirst[node] !== 0) {
          ends.push(j);
          nodes.push(node);
        }
      }
      let next = i + 1;
      for (let k = ends.length - 1; k >= 0; k--) {
        const termIds = this.accepted(nodes[k], tokens, i);
        if (termIds.length === 0) continue;
        matches.push({ termIds, start: tokens[i].start, end: tokens[ends[k]].end });
        if (!options.overlapping) {
          next = ends[k] + 1;
          break;
        }
      }
      i = next;
    }
    if (options.overlapping) matches.sort((a, b) => a.start - b.start || b.end - a.end);
    return matches;
  }

  /** Bytes held by the index's arrays, and an estimate for its vocabulary and case-sensitive forms. */
  memoryBytes(): number {
    let strings = 0;
    for (const key of this.vocabulary.keys()) strings += 40 + 2 * key.length;
    for (const forms of this.caseForms.values()) for (const f of forms) strings += 40 + 2 * f.length;
    return (
      this.edgeParent.byteLength +
      this.edgeToken.byteLength +
      this.edgeChild.byteLength +
      this.nodeFirst.byteLength +
      this.entryTerm.byteLength +
      this.entryNext.byteLength +
      strings
    );
  }

  /** The ids of the terms ending at a node that the text's tokens from `from` satisfy (case rules). */
  private accepted(node: number, tokens: readonly TermToken[], from: number): number[] {
    const out: number[] = [];
    for (let e = this.nodeFirst[node] - 1; e >= 0; e = this.entryNext[e] - 1) {
      const forms = this.caseForms.get(e);
      if (forms && !forms.every((form, k) => sameCase(form, tokens[from + k].surface))) continue;
      const id = this.entryTerm[e];
      if (!out.includes(id)) out.push(id);
    }
    return out.reverse();
  }

  private intern(key: string): number {
    let id = this.vocabulary.get(key);
    if (id === undefined) this.vocabulary.set(key, (id = this.vocabulary.size));
    return id;
  }

  private slotOf(node: number, token: number): number {
    const mask = this.edgeParent.length - 1;
    let slot = (Math.imul(node, 0x9e3779b1) ^ Math.imul(token, 0x85ebca6b)) & mask;
    while (this.edgeParent[slot] !== NO_NODE) {
      if (this.edgeParent[slot] === node && this.edgeToken[slot] === token) return slot;
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private child(node: number, token: number): number {
    const slot = this.slotOf(node, token);
    return this.edgeParent[slot] === NO_NODE ? NO_NODE : this.edgeChild[slot];
  }

  private childOrNew(node: number, token: number): number {
    let slot = this.slotOf(node, token);
    if (this.edgeParent[slot] !== NO_NODE) return this.edgeChild[slot];
    if ((this.edgeCount + 1) * 2 > this.edgeParent.length) {
      this.rehash();
      slot = this.slotOf(node, token);
    }
    const child = this.nodeCount++;
    if (child >= this.nodeFirst.length) this.nodeFirst = grow(this.nodeFirst);
    this.edgeParent[slot] = node;
    this.edgeToken[slot] = token;
    this.edgeChild[slot] = child;
    this.edgeCount++;
    return child;
  }

  /** Doubles the edge table (kept at most half full, so that probes stay short). */
  private rehash(): void {
    const parents = this.edgeParent;
    const tokens = this.edgeToken;
    const children = this.edgeChild;
    const size = parents.length * 2;
    this.edgeParent = new Int32Array(size).fill(NO_NODE);
    this.edgeToken = new Int32Array(size);
    this.edgeChild = new Int32Array(size);
    for (let s = 0; s < parents.length; s++) {
      if (parents[s] === NO_NODE) continue;
      const slot = this.slotOf(parents[s], tokens[s]);
      this.edgeParent[slot] = parents[s];
      this.edgeToken[slot] = tokens[s];
      this.edgeChild[slot] = children[s];
    }
  }
}

/** A term can be recognized when it has a word and no placeholder, and begins where a match may begin. */
function indexable(tokens: readonly TermToken[]): boolean {
  return (
    tokens.length > 0 &&
    tokens[0].anchor &&
    tokens.some((t) => t.kind === 'word') &&
    tokens.every((t) => t.kind !== 'barrier')
  );
}

function grow<T extends Int32Array | Float64Array>(array: T): T {
  const bigger = new (array.constructor as new (n: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** An index of the given terms, all of one language. */
export function buildTermIndex(lang: string, terms: Iterable<IndexedTerm>): TermIndex {
  const index = new TermIndex(lang);
  for (const term of terms) index.add(term);
  return index;
}
