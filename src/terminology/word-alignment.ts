// Word alignments learned from a memory's own pairs: IBM Model 1 (Brown et al. 1993) trained by EM in both
// directions, symmetrised per sentence, and the translations of a word or a short phrase read off the
// sentences that hold it. What a translator gets from GET /v2/lexicon for a word in no termbase, and what
// proposes term candidates.
//
// Why Model 1 and not more: a memory is a few thousand to a few million short, literal UI sentences. Model 1
// is convex (EM finds its one optimum from a uniform start), needs no word order model, and five iterations
// over a million pairs take seconds in typed arrays. Its weakness — it aligns a frequent function word with
// everything — is answered by training both directions with fast_align's pull towards the diagonal and
// keeping the links both agree on (then a link of one direction between words both left unaligned).
//
// Memory layout: every distinct (source word, target word) pair that co-occurs in a sentence has one slot
// in an open-addressing table (two Int32Arrays of keys, a Float64Array per direction); each sentence keeps
// its matrix of slot numbers, so an EM iteration does no hashing. Id 0 on each side is NULL.
import { scanTokens } from '../matching/tokenize.ts';

export interface AlignmentOptions {
  /** EM iterations per direction (5: later ones change the top translations of almost no word). */
  iterations?: number;
  /** Longer sentences are left out of training: their alignments are noise and their matrices large. */
  maxTokens?: number;
}

/** A sentence's word tokens: lower-cased forms (what is aligned) and where each is in the text. */
export interface Tokens {
  norms: string[];
  starts: number[];
  ends: number[];
}

/** The words and numbers of a text, lower-cased (tags, placeholders and punctuation are not aligned). */
export function wordTokens(text: string): Tokens {
  const out: Tokens = { norms: [], starts: [], ends: [] };
  scanTokens(text, (type, norm, real, start, end) => {
    if (type !== 'word' && type !== 'number') return;
    out.norms.push(type === 'number' ? real : norm);
    out.starts.push(start);
    out.ends.push(end);
  });
  return out;
}

/** fast_align's (Dyer et al. 2013) pull towards the diagonal, and the share of words left to NULL. */
const DIAGONAL_TENSION = 4;
const NULL_SHARE = 0.08;

/**
 * The prior of linking position j (1-based; 0 is NULL) of a sentence of `m` positions (NULL included) to
 * position i of the other side's `n` (NULL included): fast_align's exp(-λ·|i/n − j/m|), unnormalised — the
 * E-step divides by the sum anyway, and the Viterbi links compare within one word.
 */
function prior(i: number, j: number, n: number, m: number): number {
  if (i === 0) return NULL_SHARE;
  // Sentences come in few shapes: each shape's table is computed once (Math.exp per cell per iteration
  // more than doubled the training time).
  const key = n * 4096 + m;
  let table = priors.get(key);
  if (!table) {
    table = new Float64Array(n * m);
    for (let a = 1; a < n; a++) {
      for (let b = 1; b < m; b++) {
        table[a * m + b] =
          (1 - NULL_SHARE) * Math.exp(-DIAGONAL_TENSION * Math.abs(a / (n - 1) - b / (m - 1)));
      }
    }
    priors.set(key, table);
  }
  return table[i * m + j];
}
const priors = new Map<number, Float64Array>();

class Vocabulary {
  readonly ids = new Map<string, number>();
  readonly words: string[] = ['\u0000NULL'];
  id(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.words.push(word);
      this.ids.set(word, id);
    }
    return id;
  }
}

/** Open addressing over (source id, target id): a slot per pair seen together in a sentence. */
class PairTable {
  keyE: Int32Array;
  keyF: Int32Array;
  size = 0;
  private mask: number;
  constructor(capacity: number) {
    let cap = 1024;
    while (cap < capacity * 2) cap *= 2;
    this.keyE = new Int32Array(cap).fill(-1);
    this.keyF = new Int32Array(cap);
    this.mask = cap - 1;
  }
  private hash(e: number, f: number): number {
    return (Math.imul(e, 0x9e3779b1) ^ Math.imul(f, 0x85ebca77)) & this.mask;
  }
  /** The slot of (e, f), added when absent. */
  slot(e: number, f: number): number {
    if (this.size * 2 >= this.keyE.length) this.grow();
    let i = this.hash(e, f);
    for (;;) {
      const k = this.keyE[i];
      if (k === -1) {
        this.keyE[i] = e;
        this.keyF[i] = f;
        this.size++;
        return i;
      }
      if (k === e && this.keyF[i] === f) return i;
      i = (i + 1) & this.mask;
    }
  }
  /** The slot of (e, f), or -1. */
  find(e: number, f: number): number {
    let i = this.hash(e, f);
    for (;;) {
      const k = this.keyE[i];
      if (k === -1) return -1;
      if (k === e && this.keyF[i] === f) return i;
      i = (i + 1) & this.mask;
    }
  }
  private grow(): void {
    const { keyE, keyF } = this;
    this.keyE = new Int32Array(keyE.length * 2).fill(-1);
    this.keyF = new Int32Array(keyE.length * 2);
    this.mask = this.keyE.length - 1;
    this.size = 0;
    for (let i = 0; i < keyE.length; i++) if (keyE[i] !== -1) this.slot(keyE[i], keyF[i]);
  }
}

export interface TrainingFigures {
  pairs: number;
  /** Pairs left out for their length. */
  skipped: number;
  sourceWords: number;
  targetWords: number;
  /** Distinct co-occurring word pairs: the model's parameters per direction. */
  parameters: number;
  ms: number;
}

/**
 * A trained aligner over a set of sentence pairs. Built once (train), then asked for the translations of
 * source words and phrases; retraining as the memory grows builds a new one (in a worker thread:
 * alignment-worker.ts).
 */
export class WordAligner {
  private readonly src = new Vocabulary();
  private readonly tgt = new Vocabulary();
  /** Sentence i's source ids are srcIds[srcAt[i] .. srcAt[i+1]), likewise the target's. */
  private srcIds = new Int32Array(0);
  private tgtIds = new Int32Array(0);
  private srcAt = new Int32Array(1);
  private tgtAt = new Int32Array(1);
  /** The texts and their tokens' offsets, to answer with what the memory wrote (its case, its hyphens). */
  private sources: string[] = [];
  private targets: string[] = [];
  private srcStarts = new Int32Array(0);
  private srcEnds = new Int32Array(0);
  private tgtStarts = new Int32Array(0);
  private tgtEnds = new Int32Array(0);
  private table = new PairTable(1024);
  /** t(f | e), source to target, and t(e | f), target to source, by slot. */
  private tEF = new Float64Array(0);
  private tFE = new Float64Array(0);
  /** Per source word, the sentences holding it (for phrase look-ups), built after training. */
  private postings: Int32Array[] = [];
  /** Per source token (indexes like srcIds), the target position in its sentence it is linked to, or -1. */
  private linkOf = new Int16Array(0);
  /** Per target word, how many sentences hold it. */
  private targetFrequency = new Int32Array(0);
  figures: TrainingFigures | undefined;

  /** Trains on the pairs; `yieldEvery` lets a caller pace the work (a worker does not need to). */
  train(
    pairs: readonly { source: string; target: string }[],
    options: AlignmentOptions = {},
  ): TrainingFigures {
    const started = performance.now();
    const iterations = options.iterations ?? 5;
    const maxTokens = options.maxTokens ?? 60;
    const srcIds: number[] = [];
    const tgtIds: number[] = [];
    const srcAt = [0];
    const tgtAt = [0];
    const sStarts: number[] = [];
    const sEnds: number[] = [];
    const tStarts: number[] = [];
    const tEnds: number[] = [];
    let skipped = 0;
    for (const p of pairs) {
      const s = wordTokens(p.source);
      const t = wordTokens(p.target);
      if (s.norms.length === 0 || t.norms.length === 0) continue;
      if (s.norms.length > maxTokens || t.norms.length > maxTokens) {
        skipped++;
        continue;
      }
      for (let a = 0; a < s.norms.length; a++) {
        srcIds.push(this.src.id(s.norms[a]));
        sStarts.push(s.starts[a]);
        sEnds.push(s.ends[a]);
      }
      for (let j = 0; j < t.norms.length; j++) {
        tgtIds.push(this.tgt.id(t.norms[j]));
        tStarts.push(t.starts[j]);
        tEnds.push(t.ends[j]);
      }
      srcAt.push(srcIds.length);
      tgtAt.push(tgtIds.length);
      this.sources.push(p.source);
      this.targets.push(p.target);
    }
    this.srcIds = Int32Array.from(srcIds);
    this.tgtIds = Int32Array.from(tgtIds);
    this.srcAt = Int32Array.from(srcAt);
    this.tgtAt = Int32Array.from(tgtAt);
    this.srcStarts = Int32Array.from(sStarts);
    this.srcEnds = Int32Array.from(sEnds);
    this.tgtStarts = Int32Array.from(tStarts);
    this.tgtEnds = Int32Array.from(tEnds);
    const n = this.sources.length;

    // Each sentence's (|e|+1) × (|f|+1) matrix of slots, row 0 and column 0 being NULL.
    let cells = 0;
    for (let i = 0; i < n; i++) {
      cells += (this.srcAt[i + 1] - this.srcAt[i] + 1) * (this.tgtAt[i + 1] - this.tgtAt[i] + 1);
    }
    const slots = new Int32Array(cells);
    // Sized for a fraction of the cells (most pairs repeat: 0.9 M distinct in 4.3 M cells on en-de); it grows.
    this.table = new PairTable(Math.min(cells / 4, 1 << 22));
    // Two passes: every pair in first (the table may grow, which moves slots), then each cell's slot.
    for (const pass of [0, 1]) {
      let c = 0;
      for (let i = 0; i < n; i++) {
        for (let a = this.srcAt[i] - 1; a < this.srcAt[i + 1]; a++) {
          const e = a < this.srcAt[i] ? 0 : this.srcIds[a];
          for (let b = this.tgtAt[i] - 1; b < this.tgtAt[i + 1]; b++) {
            const f = b < this.tgtAt[i] ? 0 : this.tgtIds[b];
            if (pass === 0) this.table.slot(e, f);
            else slots[c++] = this.table.find(e, f);
          }
        }
      }
    }
    let c = 0;
    const size = this.table.keyE.length;
    this.tEF = new Float64Array(size).fill(1);
    this.tFE = new Float64Array(size).fill(1);
    const count = new Float64Array(size);
    const totalE = new Float64Array(this.src.words.length);
    const totalF = new Float64Array(this.tgt.words.length);
    const { keyE, keyF } = this.table;

    for (let it = 0; it < iterations; it++) {
      // Source → target: each target word (NULL's column excluded) is explained by a source word or NULL.
      count.fill(0);
      totalE.fill(0);
      c = 0;
      for (let i = 0; i < n; i++) {
        const rows = this.srcAt[i + 1] - this.srcAt[i] + 1;
        const cols = this.tgtAt[i + 1] - this.tgtAt[i] + 1;
        for (let b = 1; b < cols; b++) {
          let z = 0;
          for (let a = 0; a < rows; a++) z += this.tEF[slots[c + a * cols + b]] * prior(a, b, rows, cols);
          for (let a = 0; a < rows; a++) {
            const s = slots[c + a * cols + b];
            const p = (this.tEF[s] * prior(a, b, rows, cols)) / z;
            count[s] += p;
            totalE[keyE[s]] += p;
          }
        }
        c += rows * cols;
      }
      for (let s = 0; s < size; s++) if (keyE[s] !== -1) this.tEF[s] = count[s] / totalE[keyE[s]] || 0;

      // Target → source: each source word (NULL's row excluded) is explained by a target word or NULL.
      count.fill(0);
      totalF.fill(0);
      c = 0;
      for (let i = 0; i < n; i++) {
        const rows = this.srcAt[i + 1] - this.srcAt[i] + 1;
        const cols = this.tgtAt[i + 1] - this.tgtAt[i] + 1;
        for (let a = 1; a < rows; a++) {
          let z = 0;
          const row = c + a * cols;
          for (let b = 0; b < cols; b++) z += this.tFE[slots[row + b]] * prior(b, a, cols, rows);
          for (let b = 0; b < cols; b++) {
            const s = slots[row + b];
            const p = (this.tFE[s] * prior(b, a, cols, rows)) / z;
            count[s] += p;
            totalF[keyF[s]] += p;
          }
        }
        c += rows * cols;
      }
      for (let s = 0; s < size; s++) if (keyE[s] !== -1) this.tFE[s] = count[s] / totalF[keyF[s]] || 0;
    }

    // Which sentences hold each source word, for phrase look-ups.
    const lists: number[][] = this.src.words.map(() => []);
    for (let i = 0; i < n; i++) {
      for (let a = this.srcAt[i]; a < this.srcAt[i + 1]; a++) {
        const list = lists[this.srcIds[a]];
        if (list[list.length - 1] !== i) list.push(i);
      }
    }
    this.postings = lists.map((l) => Int32Array.from(l));
    // The links of every sentence, once: a look-up then reads them instead of aligning 150 sentences.
    this.linkOf = new Int16Array(this.srcIds.length);
    for (let i = 0; i < n; i++) this.linkOf.set(this.computeLinks(i), this.srcAt[i]);
    // The model's tables are needed for the links only: a trained aligner keeps the links.
    const parameters = this.table.size;
    this.table = new PairTable(0);
    this.tEF = new Float64Array(0);
    this.tFE = new Float64Array(0);
    this.targetFrequency = new Int32Array(this.tgt.words.length);
    const last = new Int32Array(this.tgt.words.length).fill(-1);
    for (let i = 0; i < n; i++) {
      for (let b = this.tgtAt[i]; b < this.tgtAt[i + 1]; b++) {
        const f = this.tgtIds[b];
        if (last[f] !== i) {
          last[f] = i;
          this.targetFrequency[f]++;
        }
      }
    }
    this.figures = {
      pairs: n,
      skipped,
      sourceWords: this.src.words.length - 1,
      targetWords: this.tgt.words.length - 1,
      parameters,
      ms: performance.now() - started,
    };
    return this.figures;
  }

  /** t(f | e) and t(e | f) of two words during training; 0 when they never met. */
  private probabilities(e: number, f: number): [number, number] {
    const s = this.table.find(e, f);
    return s < 0 ? [0, 0] : [this.tEF[s], this.tFE[s]];
  }

  /**
   * Sentence i's links, the target position (relative to the sentence) of each source word or -1: the links both
   * directions agree on, then a one-direction link between two words both still unaligned (the "final"
   * step of Moses' symmetrisation).
   */
  private computeLinks(i: number): Int16Array {
    const s0 = this.srcAt[i];
    const t0 = this.tgtAt[i];
    const ns = this.srcAt[i + 1] - s0;
    const nt = this.tgtAt[i + 1] - t0;
    // Best source (or NULL, -1) for each target word, by t(f|e); best target for each source word, by t(e|f).
    const bestSrc = new Int32Array(nt).fill(-1);
    const bestTgt = new Int32Array(ns).fill(-1);
    for (let b = 0; b < nt; b++) {
      const f = this.tgtIds[t0 + b];
      let best = this.probabilities(0, f)[0] * prior(0, b + 1, ns + 1, nt + 1);
      for (let a = 0; a < ns; a++) {
        const p = this.probabilities(this.srcIds[s0 + a], f)[0] * prior(a + 1, b + 1, ns + 1, nt + 1);
        if (p > best) {
          best = p;
          bestSrc[b] = a;
        }
      }
    }
    for (let a = 0; a < ns; a++) {
      const e = this.srcIds[s0 + a];
      let best = this.probabilities(e, 0)[1] * prior(0, a + 1, nt + 1, ns + 1);
      for (let b = 0; b < nt; b++) {
        const p = this.probabilities(e, this.tgtIds[t0 + b])[1] * prior(b + 1, a + 1, nt + 1, ns + 1);
        if (p > best) {
          best = p;
          bestTgt[a] = b;
        }
      }
    }
    // At most one link per word: an agreed link, or (the "final" step) a one-direction link between two
    // words both still unaligned.
    const out = new Int16Array(ns).fill(-1);
    const tgtAligned = new Uint8Array(nt);
    for (let a = 0; a < ns; a++) {
      const b = bestTgt[a];
      if (b >= 0 && bestSrc[b] === a) {
        out[a] = b;
        tgtAligned[b] = 1;
      }
    }
    // Growing into neighbouring one-direction links (grow-diag) was measured and left out: on the en-de
    // memory it took a neighbouring word into the span ("Fehler beim" for "error") more often than it found
    // a missing one, 49.5 % → 47.4 % top-1.
    const final = (a: number, b: number) => {
      if (out[a] < 0 && !tgtAligned[b]) {
        out[a] = b;
        tgtAligned[b] = 1;
      }
    };
    for (let b = 0; b < nt; b++) if (bestSrc[b] >= 0) final(bestSrc[b], b);
    for (let a = 0; a < ns; a++) if (bestTgt[a] >= 0) final(a, bestTgt[a]);
    return out;
  }

  /** The sentences (at most `limit`) whose source holds the words in a row, with where they start. */
  private occurrences(words: number[], limit: number): { sentence: number; at: number }[] {
    let rarest = this.postings[words[0]];
    for (const w of words) if (this.postings[w].length < rarest.length) rarest = this.postings[w];
    const out: { sentence: number; at: number }[] = [];
    for (const i of rarest) {
      const s0 = this.srcAt[i];
      const end = this.srcAt[i + 1] - words.length;
      for (let a = s0; a <= end; a++) {
        let k = 0;
        while (k < words.length && this.srcIds[a + k] === words[k]) k++;
        if (k === words.length) {
          out.push({ sentence: i, at: a - s0 });
          break;
        }
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * The translations of a source word or phrase as the memory renders it: in each sentence holding it (up to
   * `sample`), the target span its words are linked to, kept when no word inside the span is linked to a
   * source word outside the phrase (a consistent phrase pair). Then, as a terminologist would read the list:
   * - forms that differ only by inflection (the same stems, `stem` per word) are one translation, named by
   *   its shortest form seen often enough (an adjective's base form "alt", not "alte" or "alten");
   * - a span that holds another candidate and more words ("Fehler beim") lends half its count to the
   *   shorter one ("Fehler"): the grown links take in a neighbour now and then, never consistently;
   * - the source left as it is (a command name, a copy) counts half: a lexicon is asked for a translation;
   * - a candidate holding a word in many more sentences than the source has is discounted by that ratio:
   *   the word is a function word ("der", "beim") the links took in.
   * Best first; `share` is the translation's count over the sentences looked at.
   */
  translations(
    phrase: string,
    options: { n?: number; sample?: number; stem?: (word: string) => string } = {},
  ): PhraseTranslation[] {
    const tokens = wordTokens(phrase).norms;
    if (tokens.length === 0) return [];
    const ids: number[] = [];
    for (const t of tokens) {
      const id = this.src.ids.get(t);
      if (id === undefined) return [];
      ids.push(id);
    }
    const stem = options.stem ?? ((w: string) => w);
    const found = this.occurrences(ids, options.sample ?? 150);
    let sourceFrequency = Number.MAX_SAFE_INTEGER;
    for (const id of ids) sourceFrequency = Math.min(sourceFrequency, this.postings[id].length);

    interface Candidate {
      words: string[];
      /** The sentences holding the candidate's commonest word. */
      frequency: number;
      forms: Map<string, number>;
      count: number;
      /** The count, each sentence weighed by the square of the share of the phrase's words linked. */
      weight: number;
      examples: number[];
    }
    const byStems = new Map<string, Candidate>();
    for (const { sentence, at } of found) {
      const span = this.linkedSpan(sentence, at, ids.length);
      if (!span) continue;
      const covered = span[2] / ids.length;
      const t0 = this.tgtAt[sentence];
      const form = this.targets[sentence].slice(this.tgtStarts[t0 + span[0]], this.tgtEnds[t0 + span[1]]);
      const words: string[] = [];
      let frequency = 0;
      for (let b = span[0]; b <= span[1]; b++) {
        const f = this.tgtIds[t0 + b];
        words.push(stem(this.tgt.words[f]));
        frequency = Math.max(frequency, this.targetFrequency[f]);
      }
      const key = words.join(' ');
      let c = byStems.get(key);
      if (!c) {
        c = { words, frequency, forms: new Map(), count: 0, weight: 0, examples: [] };
        byStems.set(key, c);
      }
      c.count++;
      c.weight += covered * covered;
      c.forms.set(form, (c.forms.get(form) ?? 0) + 1);
      if (c.examples.length < 3) c.examples.push(sentence);
    }
    const candidates = [...byStems.values()];
    const source = tokens.map(stem).join(' ');
    const scored = candidates.map((c) => {
      let score = c.weight;
      // Only a candidate of as many words as the phrase borrows from the longer ones holding it: for "invalid
      // input", "ungültige" is the span of a sentence whose "input" was not linked, not a shorter rendering.
      for (const longer of candidates) {
        if (c.words.length < tokens.length) break;
        if (longer.words.length > c.words.length && holdsInOrder(longer.words, c.words)) {
          score += longer.weight / 2;
        } else if (longer !== c && compounds(longer.words, c.words)) {
          score += longer.weight / 2;
        }
      }
      if (c.words.join(' ') === source) score /= 2;
      // A word far more frequent than the source ("der", "beim") is a function word the links took in.
      score *= Math.min(1, (2 * sourceFrequency) / c.frequency);
      return { c, score };
    });
    const seen = found.length;
    return scored
      .sort((a, b) => b.score - a.score || a.c.words.length - b.c.words.length)
      .slice(0, options.n ?? 5)
      .map(({ c }) => ({
        target: nameOf(c.forms, c.count),
        count: c.count,
        share: c.count / seen,
        examples: c.examples.map((i) => ({ source: this.sources[i], target: this.targets[i] })),
      }));
  }

  /**
   * The target positions [first, last] a source phrase of sentence i is linked to, when consistent, and how
   * many of the phrase's words are linked.
   */
  private linkedSpan(i: number, at: number, length: number): [number, number, number] | null {
    const s0 = this.srcAt[i];
    const ns = this.srcAt[i + 1] - s0;
    let lo = Number.MAX_SAFE_INTEGER;
    let hi = -1;
    let linked = 0;
    for (let a = at; a < at + length; a++) {
      const b = this.linkOf[s0 + a];
      if (b < 0) continue;
      linked++;
      lo = Math.min(lo, b);
      hi = Math.max(hi, b);
    }
    if (hi < 0) return null;
    for (let a = 0; a < ns; a++) {
      if (a >= at && a < at + length) continue;
      const b = this.linkOf[s0 + a];
      if (b >= lo && b <= hi) return null;
    }
    return [lo, hi, linked];
  }

  /**
   * Term candidates: the memory's frequent source phrases (one to `maxWords` words, in at least `minCount`
   * sentences) that it translates one way in at least half of the sentences holding them — what a
   * terminologist would put in a termbase. A phrase may not begin or end with a function word ("the", "to",
   * "of": the language's list, else the memory's 40 most frequent words). `exclude` holds phrases already in
   * the termbase, as wordTokens' forms joined by spaces. Most frequent first, a phrase's count weighed by
   * √(its words).
   */
  candidates(
    options: {
      maxWords?: number;
      minCount?: number;
      limit?: number;
      stem?: (word: string) => string;
      exclude?: ReadonlySet<string>;
      /** The source language's function words (stopwords.ts). */
      stopwords?: ReadonlySet<string>;
    } = {},
  ): TermCandidate[] {
    const maxWords = options.maxWords ?? 3;
    const minCount = options.minCount ?? 5;
    const limit = options.limit ?? 50;
    const n = this.sources.length;
    // The function words: the language's list, or for a language without one the 40 words in most
    // sentences; and what is no word of a term (a single letter, a number).
    const common = new Set<number>([0]);
    if (!options.stopwords || options.stopwords.size === 0) {
      const byFrequency = this.postings.map((p, id) => [id, p.length]).sort((a, b) => b[1] - a[1]);
      for (const [id] of byFrequency.slice(0, 41)) common.add(id);
    }
    for (let id = 1; id < this.src.words.length; id++) {
      const w = this.src.words[id];
      if (options.stopwords?.has(w) || !/\p{L}.*\p{L}/u.test(w)) common.add(id);
    }
    const counts = new Map<string, number>();
    const inSentence = new Set<string>();
    for (let i = 0; i < n; i++) {
      inSentence.clear();
      const s0 = this.srcAt[i];
      const s1 = this.srcAt[i + 1];
      for (let a = s0; a < s1; a++) {
        if (common.has(this.srcIds[a])) continue;
        let key = '';
        for (let k = 0; k < maxWords && a + k < s1; k++) {
          const id = this.srcIds[a + k];
          key = k === 0 ? String(id) : `${key},${id}`;
          if (common.has(id) || inSentence.has(key)) continue;
          inSentence.add(key);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
    }
    // A phrase of several words is more often a term than a single word as frequent: ranked by count × √words.
    const weight = ([key, c]: [string, number]) => c * Math.sqrt(key.split(',').length);
    const frequent = [...counts].filter(([, c]) => c >= minCount).sort((a, b) => weight(b) - weight(a));
    const out: TermCandidate[] = [];
    for (const [key] of frequent) {
      if (out.length >= limit) break;
      const ids = key.split(',').map(Number);
      const phrase = ids.map((id) => this.src.words[id]).join(' ');
      if (options.exclude?.has(phrase)) continue;
      const [best] = this.translations(phrase, { n: 1, stem: options.stem });
      if (!best || best.count < minCount || best.share < 0.5) continue;
      out.push({ source: this.surfaceOf(ids), target: best.target, count: best.count, share: best.share });
    }
    return out;
  }

  /** A source phrase as the memory writes it most often (its case, its hyphens). */
  private surfaceOf(ids: number[]): string {
    const forms = new Map<string, number>();
    for (const { sentence, at } of this.occurrences(ids, 50)) {
      const a = this.srcAt[sentence] + at;
      const form = this.sources[sentence].slice(this.srcStarts[a], this.srcEnds[a + ids.length - 1]);
      forms.set(form, (forms.get(form) ?? 0) + 1);
    }
    return [...forms].sort((a, b) => b[1] - a[1])[0][0];
  }

  /** How many training sentences hold a source word or phrase (up to `limit`). */
  frequency(phrase: string, limit = 1000): number {
    const ids: number[] = [];
    for (const t of wordTokens(phrase).norms) {
      const id = this.src.ids.get(t);
      if (id === undefined) return 0;
      ids.push(id);
    }
    return ids.length === 0 ? 0 : this.occurrences(ids, limit).length;
  }
}

/** Whether `words` holds `part` as consecutive words. */
function holdsInOrder(words: string[], part: string[]): boolean {
  for (let i = 0; i + part.length <= words.length; i++) {
    let k = 0;
    while (k < part.length && words[i + k] === part[k]) k++;
    if (k === part.length) return true;
  }
  return false;
}

/**
 * Whether a one-word candidate is a compound of another ("Schriftgröße", "Zugriffsmethode" hold "Schrift",
 * "Methode"): languages that write compounds as one word render "font size" in one word, and the phrase "font"
 * is then linked to the compound.
 */
function compounds(longer: string[], part: string[]): boolean {
  if (longer.length !== 1 || part.length !== 1) return false;
  const [w] = longer;
  const [p] = part;
  return p.length >= 4 && w.length > p.length && (w.startsWith(p) || w.endsWith(p));
}

/** A translation's name: its shortest form written in at least a fifth of its sentences, else its commonest. */
function nameOf(forms: Map<string, number>, count: number): string {
  const often = [...forms].filter(([, n]) => n * 5 >= count);
  const pool = often.length > 0 ? often : [...forms];
  return pool.sort((a, b) => a[0].length - b[0].length || b[1] - a[1])[0][0];
}

export interface TermCandidate {
  /** The source phrase as the memory writes it most often. */
  source: string;
  /** Its translation as the memory writes it most often. */
  target: string;
  /** Sentences rendering it so. */
  count: number;
  /** That count over the sentences holding the phrase that were looked at. */
  share: number;
}

export interface PhraseTranslation {
  /** The target words as the memory writes them most often. */
  target: string;
  /** Sentences in which the phrase was rendered so. */
  count: number;
  /** That count over the sentences looked at. */
  share: number;
  /** Up to three of those sentence pairs. */
  examples: { source: string; target: string }[];
}
