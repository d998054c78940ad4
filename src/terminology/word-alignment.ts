// Word alignments learned from a memory's own pairs: IBM Model 1 (Brown et al. 1993) in both directions,
// trained together by agreement (Liang, Taskar and Klein 2006), and the translations of a word or a short
// phrase read off the sentences that hold it, ranked as a phrase table would rank them. What a translator gets
// from GET /v2/lexicon for a word in no termbase, and what proposes term candidates.
//
// Why Model 1 and not more: a memory is a few thousand to a few million short, literal UI sentences. Model 1
// needs no word order model, and five iterations over a million pairs take minutes in typed arrays. Its
// weakness — it aligns a frequent function word with everything — is answered by fast_align's pull towards
// the diagonal (Dyer et al. 2013), by training the two directions by agreement (a link's expected count is
// the product of its posteriors in both, so a link only one direction believes in counts little), and by
// keeping a link when that product is high (then a one-direction link between words both left unaligned).
// An HMM alignment model would order words better, at several times the training time at a million pairs.
//
// A look-up ranks the target spans of the sentences holding the phrase by how often they render it, p(target
// | source), times the square root of p(source | target) (how many of the sentences holding the target words
// render the phrase: Koehn, Och and Marcu 2003), a one-word look-up also by the word-level model's t(f|e)·t(e|f).
// A two-word look-up also composes its words' translations side by side, in either order, where the target side
// writes them so: a label's words are often ordered as in none of the sentences ("Open file" → "Datei öffnen");
// or a few words apart, the words between taken in ("Dirección no válida"); and where its sentences render it
// by nothing, it still gets a guess composed of its words' translations, counted in no sentence. A one-word
// look-up gets the word itself where the target keeps it only inside hyphenated compounds ("XBM" of
// "XBM-Datei"), or where its sentences render it by nothing consistent. The ranking is one function of named
// features (rankScore, RANK_WEIGHTS), its weights fitted on the dev sets (bench/lexicon-fit.ts).
// On the en-de memory's UI labels (bench/README.md) each of these was chosen on a dev set drawn from the
// training side (its short entries with placeholders) and the en-es memory; the gold list is measured once a
// change is chosen (the kinds of its misses suggested some changes; bench/README.md says which).
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

/**
 * The words and numbers of a text, lower-cased (tags, placeholders and punctuation are not aligned). A UI
 * label's accelerator mark inside a word ("Unte_rtitel", "Ko&rrekturen": a translation puts it on another
 * letter than the English) is not a word break: where a text holds one `_` or `&` between two letters, the
 * two sides are one word, the mark left out of its form. (An identifier with one underscore, "ai_flags", so
 * becomes one word too, written the same on both sides; one with several stays split.)
 */
export function wordTokens(text: string): Tokens {
  const out: Tokens = { norms: [], starts: [], ends: [] };
  scanTokens(text, (type, norm, real, start, end) => {
    if (type !== 'word' && type !== 'number') return;
    out.norms.push(type === 'number' ? real : norm);
    out.starts.push(start);
    out.ends.push(end);
  });
  const marks = text.match(ACCELERATOR_IN_WORD);
  if (marks?.length === 1) {
    for (let k = 0; k + 1 < out.norms.length; k++) {
      const at = out.ends[k];
      if (out.starts[k + 1] !== at + 1 || (text[at] !== '_' && text[at] !== '&')) continue;
      out.norms.splice(k, 2, out.norms[k] + out.norms[k + 1]);
      out.ends.splice(k, 1);
      out.starts.splice(k + 1, 1);
      break;
    }
  }
  return out;
}
const ACCELERATOR_IN_WORD = /(?<=\p{L})[_&](?=\p{L})/gu;

/**
 * Text from start to end as an answer writes it: without an accelerator mark that wordTokens joined across,
 * unless the word is written with it on the other side too (an identifier, "ai_flags").
 */
function writtenForm(text: string, other: string, start: number, end: number): string {
  const form = text.slice(start, end);
  if (!/[_&]/.test(form) || text.match(ACCELERATOR_IN_WORD)?.length !== 1) return form;
  return form.replace(/\p{L}+[_&]\p{L}+/u, (word) =>
    other.includes(word) ? word : word.replace(ACCELERATOR_IN_WORD, ''),
  );
}

const identity = (w: string) => w;

/** Where in tokens[from, to) the words first stand in a row (an index of `tokens`), or -1. */
function runAt(tokens: Int32Array, from: number, to: number, words: readonly number[]): number {
  for (let a = from; a + words.length <= to; a++) {
    let k = 0;
    while (k < words.length && tokens[a + k] === words[k]) k++;
    if (k === words.length) return a;
  }
  return -1;
}

/**
 * fast_align's (Dyer et al. 2013) pull towards the diagonal, and the share of words left to NULL. A weaker pull
 * (1 or 2) ranked better on both dev sets (es 60.8 → 61.4 %, de 46.2 → 47.1 %) but not on the gold list (56.0
 * %), and in a small memory, where the prior is most of what tells a word from its neighbours, it ranked
 * "geöffnet" over "Öffnen" for "open", and answered "den Ordner" for "folder"
 * (the unit and HTTP tests): fast_align's own 4 stays.
 */
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

/** A link is kept when the product of its two directions' posteriors is above this (Liang et al. 2006). */
const LINK_POSTERIOR = 0.1;
/** How much a sentence giving a span grown by an unlinked neighbouring word counts in p(source | target). */
const GROWN_MASS = 0.3;
/**
 * A segment whose words are the looked-up phrase alone is a phrase pair whole: its target's words (at most
 * WHOLE_EXTRA more than the phrase's) are a candidate, each such segment counting WHOLE_WEIGHT linked spans
 * (chosen on the dev sets, bench/README.md).
 */
const WHOLE_EXTRA = 3;
const WHOLE_WEIGHT = 30;
/**
 * A source word in fewer than this share of the sentences is a content word (CandidateFeatures.shared); in a
 * memory of a hundred sentences or fewer none is, and no span is doubted.
 */
const CONTENT_SHARE = 0.01;
/** Translations kept per source word of the word-level model (for ranking one-word look-ups). */
const LEXICAL_KEPT = 4;
/**
 * A two-word look-up's composed translations: each word's likeliest translations of the word-level model, the
 * target sentences of a pair of them read (at most COMPOSED_SCAN), and their score's weight against the span
 * candidates' (chosen on the dev sets, bench/README.md).
 */
const COMPOSED_TRANSLATIONS = 3;
const COMPOSED_SCAN = 500;
/** The farthest apart (in target positions) a gappy composed translation's two words may be. */
const GAPPY_WINDOW = 3;
/** What may join a compound's two parts: nothing, a linking "s", a hyphen ("Master-Server"). */
const COMPOUND_LINKS = ['', 's', '-'];
/** A word's translation takes part when its t(f|e)·t(e|f) is at least this share of the word's likeliest. */
const COMPOSED_SHARE = 0.1;
/** Candidates of a look-up whose target phrase's sentences are counted (the rest take a bound). */
const COUNTED_CANDIDATES = 10;

/** What a look-up's ranking weighs of a candidate translation (rankScore). */
export interface CandidateFeatures {
  /**
   * Sentences giving it as the span the phrase's words are linked to, each weighed by the square of the share
   * of the phrase's words linked, with what the longer candidates holding it lend (half of theirs; a one-word
   * compound all of it).
   */
  linked: number;
  /** The same, of the spans grown by an unlinked neighbouring target word. */
  grown: number;
  /**
   * The part of `linked` from sentences whose span is one target word beside an unlinked content word of the
   * source: a compound rendering both ("sign language" → "Gebärdensprache" for "language").
   */
  shared: number;
  /** A one-word compound holding another candidate ("Wochennummer" for "week"). */
  compound: boolean;
  /** The source left as it is (a command name, a copy): a lexicon is asked for a translation. */
  copy: boolean;
  /** A one-word look-up: the word-level model's t(f|e)·t(e|f) of the likeliest word of the spans, + 0.01; else 1. */
  lexical: number;
  /** p(source | target), at most 1: the share of the sentences holding the target words that render the source. */
  inverse: number;
  /** A two-word look-up: its words' translations side by side (or one compound word), scored by the sentences
   * holding the source phrase that write it, times √p(source | target). */
  composed: number;
  /** The same, the two a few words apart, the words between them taken in ("kann nicht geöffnet"). */
  gappy: number;
  /** Its words less the source's. */
  extraWords: number;
  /**
   * A two-word look-up that found no rendering in the sentences holding it: a composition of its words'
   * translations that other sentences write, by how many (ranked by it, below anything else: UNSEEN_SCORE); ½
   * for its words' likeliest translations written together nowhere; 0 for every other candidate.
   */
  unseen: number;
}

/** How rankScore combines the features. */
export interface RankWeights {
  /** A grown span's sentence against a linked span's 1. */
  grown: number;
  /** Factors of a compound and a copy of the source. */
  compound: number;
  copy: number;
  /** Exponents of the lexical probability and of p(source | target). */
  lexical: number;
  inverse: number;
  /** Weights of the composed and gappy scores, added to the span candidates'. */
  composed: number;
  gappy: number;
  /** Factor per word more than the source has. */
  longer: number;
  /** Factor of a shared sentence's count (counted 1 in `linked`, it counts this instead). */
  shared: number;
}

/** The ranking's weights (bench/README.md says how each was chosen on the dev sets). */
export const RANK_WEIGHTS: Readonly<RankWeights> = {
  grown: 0.3,
  compound: 0.5,
  copy: 0.5,
  lexical: 1,
  inverse: 0.5,
  composed: 0.5,
  gappy: 0.25,
  longer: 1,
  shared: 0.25,
};

/**
 * A candidate's score: the span candidate's count (linked, and grown at its weight), times a compound's and a
 * copy's factors, the lexical probability and p(source | target) to their powers, plus the composed scores;
 * all times `longer` per word more than the source.
 */
export function rankScore(f: CandidateFeatures, w: Readonly<RankWeights>): number {
  if (f.unseen > 0) return UNSEEN_SCORE * f.unseen;
  let span = f.linked - (1 - w.shared) * f.shared + w.grown * f.grown;
  if (span > 0) {
    if (f.compound) span *= w.compound;
    if (f.copy) span *= w.copy;
    span *= f.lexical ** w.lexical * f.inverse ** w.inverse;
  }
  const score = span + w.composed * f.composed + w.gappy * f.gappy;
  return f.extraWords > 0 ? score * w.longer ** f.extraWords : score;
}

/** An unseen composition's score per sentence writing it: below any candidate of the look-up's sentences. */
const UNSEEN_SCORE = 1e-9;

/** A candidate nothing supports (what a composed or unseen one starts from). */
const NO_FEATURES: Readonly<CandidateFeatures> = {
  linked: 0,
  grown: 0,
  compound: false,
  copy: false,
  lexical: 1,
  inverse: 0,
  composed: 0,
  gappy: 0,
  extraWords: 0,
  unseen: 0,
  shared: 0,
};

/** A candidate of a look-up, before it is ranked. */
interface LookedUp {
  words: number;
  forms: Map<string, number>;
  count: number;
  examples: number[];
  features: CandidateFeatures;
}

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
  /** Per target word, the sentences holding it (for the inverse phrase probability). */
  private targetAt = new Int32Array(1);
  private targetSentences = new Int32Array(0);
  private scratchEF = new Float64Array(0);
  private scratchFE = new Float64Array(0);
  /** The most words a target sentence has. */
  private maxTargetLength = 0;
  figures: TrainingFigures | undefined;
  /** Per source word, its LEXICAL_KEPT likeliest target words by t(f|e)·t(e|f), best first, and that product. */
  private lexicalIds = new Int32Array(0);
  private lexicalP = new Float32Array(0);

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

    // Training by agreement (Liang, Taskar and Klein 2006): both directions in one pass, a link's expected
    // count in each being the product of its posteriors in the two — a link only one direction believes in
    // counts little, which is what keeps Model 1 from tying a frequent word to everything. One array of
    // counts serves both directions: a word pair's count is the same in each, and NULL's are in different
    // slots (NULL → f for source to target, e → NULL for target to source).
    const post = new Float64Array((maxTokens + 1) * (maxTokens + 1));
    for (let it = 0; it < iterations; it++) {
      count.fill(0);
      totalE.fill(0);
      totalF.fill(0);
      c = 0;
      for (let i = 0; i < n; i++) {
        const rows = this.srcAt[i + 1] - this.srcAt[i] + 1;
        const cols = this.tgtAt[i + 1] - this.tgtAt[i] + 1;
        // Source → target posteriors (each target word b ≥ 1 over the source words and NULL).
        for (let b = 1; b < cols; b++) {
          let z = 0;
          for (let a = 0; a < rows; a++) z += this.tEF[slots[c + a * cols + b]] * prior(a, b, rows, cols);
          for (let a = 0; a < rows; a++) {
            const s = slots[c + a * cols + b];
            post[a * cols + b] = (this.tEF[s] * prior(a, b, rows, cols)) / z;
          }
          // NULL explains target words on its own.
          const s0 = slots[c + b];
          count[s0] += post[b];
          totalE[0] += post[b];
        }
        for (let a = 1; a < rows; a++) {
          const row = c + a * cols;
          let z = 0;
          for (let b = 0; b < cols; b++) z += this.tFE[slots[row + b]] * prior(b, a, cols, rows);
          const sn = slots[row];
          const pn = (this.tFE[sn] * prior(0, a, cols, rows)) / z;
          count[sn] += pn;
          totalF[0] += pn;
          const e = this.srcIds[this.srcAt[i] + a - 1];
          for (let b = 1; b < cols; b++) {
            const s = slots[row + b];
            const q = ((this.tFE[s] * prior(b, a, cols, rows)) / z) * post[a * cols + b];
            count[s] += q;
            totalE[e] += q;
            totalF[keyF[s]] += q;
          }
        }
        c += rows * cols;
      }
      for (let s = 0; s < size; s++) {
        if (keyE[s] === -1) continue;
        this.tEF[s] = count[s] / totalE[keyE[s]] || 0;
        this.tFE[s] = count[s] / totalF[keyF[s]] || 0;
      }
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
    this.scratchEF = new Float64Array(0);
    this.scratchFE = new Float64Array(0);
    // Each source word's best targets by t(f|e)·t(e|f), kept after the tables go (a few per word).
    this.lexicalIds = new Int32Array(this.src.words.length * LEXICAL_KEPT).fill(-1);
    this.lexicalP = new Float32Array(this.src.words.length * LEXICAL_KEPT);
    for (let s = 0; s < size; s++) {
      const e = keyE[s];
      const f = keyF[s];
      if (e <= 0 || f <= 0) continue;
      const p = this.tEF[s] * this.tFE[s];
      const at = e * LEXICAL_KEPT;
      let k = LEXICAL_KEPT - 1;
      if (p <= this.lexicalP[at + k]) continue;
      while (k > 0 && this.lexicalP[at + k - 1] < p) {
        this.lexicalP[at + k] = this.lexicalP[at + k - 1];
        this.lexicalIds[at + k] = this.lexicalIds[at + k - 1];
        k--;
      }
      this.lexicalP[at + k] = p;
      this.lexicalIds[at + k] = f;
    }
    // The model's tables are needed for the links only: a trained aligner keeps the links.
    const parameters = this.table.size;
    this.table = new PairTable(0);
    this.tEF = new Float64Array(0);
    this.tFE = new Float64Array(0);
    // Target word f's sentences are targetSentences[targetAt[f] .. targetAt[f + 1]): one array, not one per
    // word (a million pairs' vocabulary is hundreds of thousands of words).
    const last = new Int32Array(this.tgt.words.length).fill(-1);
    this.targetAt = new Int32Array(this.tgt.words.length + 1);
    for (let i = 0; i < n; i++) {
      for (let b = this.tgtAt[i]; b < this.tgtAt[i + 1]; b++) {
        const f = this.tgtIds[b];
        if (last[f] !== i) {
          last[f] = i;
          this.targetAt[f + 1]++;
        }
      }
    }
    for (let f = 0; f < this.tgt.words.length; f++) this.targetAt[f + 1] += this.targetAt[f];
    this.targetSentences = new Int32Array(this.targetAt[this.tgt.words.length]);
    const fill = this.targetAt.slice(0, this.tgt.words.length);
    last.fill(-1);
    for (let i = 0; i < n; i++) {
      for (let b = this.tgtAt[i]; b < this.tgtAt[i + 1]; b++) {
        const f = this.tgtIds[b];
        if (last[f] !== i) {
          last[f] = i;
          this.targetSentences[fill[f]++] = i;
        }
      }
    }
    for (let i = 0; i < n; i++)
      this.maxTargetLength = Math.max(this.maxTargetLength, this.tgtAt[i + 1] - this.tgtAt[i]);
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

  /** Sentence i's target words at token indexes lo..hi (of tgtIds) as an answer writes them (writtenForm). */
  private targetForm(i: number, lo: number, hi: number): string {
    return writtenForm(this.targets[i], this.sources[i], this.tgtStarts[lo], this.tgtEnds[hi]);
  }

  /** t(f | e) and t(e | f) of two words during training; 0 when they never met. */
  private probabilities(e: number, f: number): [number, number] {
    const s = this.table.find(e, f);
    return s < 0 ? [0, 0] : [this.tEF[s], this.tFE[s]];
  }

  /**
   * Sentence i's links, the target position (relative to the sentence) of each source word or -1: each source
   * word's likeliest target when the product of the link's posteriors in the two directions is above
   * LINK_POSTERIOR (a target wanted by two source words goes to the likelier), then a one-direction Viterbi
   * link between two words both still unaligned (the "final" step of Moses' symmetrisation).
   */
  private computeLinks(i: number): Int16Array {
    const s0 = this.srcAt[i];
    const t0 = this.tgtAt[i];
    const ns = this.srcAt[i + 1] - s0;
    const nt = this.tgtAt[i + 1] - t0;
    // Each direction's link scores, t × prior, row a (source word a - 1; 0 is NULL) and column b likewise.
    // (Scratch matrices reused from sentence to sentence: a million sentences' garbage swelled the RSS.)
    if (this.scratchEF.length < (ns + 1) * (nt + 1)) {
      this.scratchEF = new Float64Array((ns + 1) * (nt + 1));
      this.scratchFE = new Float64Array((ns + 1) * (nt + 1));
    }
    const ef = this.scratchEF;
    const fe = this.scratchFE;
    for (let a = 0; a <= ns; a++) {
      const e = a === 0 ? 0 : this.srcIds[s0 + a - 1];
      for (let b = 0; b <= nt; b++) {
        if (a === 0 && b === 0) continue;
        const [pEF, pFE] = this.probabilities(e, b === 0 ? 0 : this.tgtIds[t0 + b - 1]);
        ef[a * (nt + 1) + b] = pEF * prior(a, b, ns + 1, nt + 1);
        fe[a * (nt + 1) + b] = pFE * prior(b, a, nt + 1, ns + 1);
      }
    }
    // Viterbi best source (or NULL, -1) of each target word, best target of each source word; and the
    // normalisers that make the scores posteriors.
    const bestSrc = new Int32Array(nt).fill(-1);
    const zTgt = new Float64Array(nt);
    for (let b = 1; b <= nt; b++) {
      let best = ef[b];
      let z = ef[b];
      for (let a = 1; a <= ns; a++) {
        const p = ef[a * (nt + 1) + b];
        z += p;
        if (p > best) {
          best = p;
          bestSrc[b - 1] = a - 1;
        }
      }
      zTgt[b - 1] = z || 1;
    }
    const bestTgt = new Int32Array(ns).fill(-1);
    const out = new Int16Array(ns).fill(-1);
    const linkPosterior = new Float64Array(ns);
    for (let a = 1; a <= ns; a++) {
      const row = a * (nt + 1);
      let best = fe[row];
      let z = fe[row];
      for (let b = 1; b <= nt; b++) {
        z += fe[row + b];
        if (fe[row + b] > best) {
          best = fe[row + b];
          bestTgt[a - 1] = b - 1;
        }
      }
      let q = LINK_POSTERIOR;
      for (let b = 1; b <= nt; b++) {
        const p = (fe[row + b] / (z || 1)) * (ef[row + b] / zTgt[b - 1]);
        if (p > q) {
          q = p;
          out[a - 1] = b - 1;
        }
      }
      linkPosterior[a - 1] = q;
    }
    // At most one link per target word: the likelier source word keeps it.
    const owner = new Int32Array(nt).fill(-1);
    for (let a = 0; a < ns; a++) {
      const b = out[a];
      if (b < 0) continue;
      const rival = owner[b];
      if (rival < 0) owner[b] = a;
      else if (linkPosterior[a] > linkPosterior[rival]) {
        out[rival] = -1;
        owner[b] = a;
      } else out[a] = -1;
    }
    const tgtAligned = new Uint8Array(nt);
    for (let b = 0; b < nt; b++) if (owner[b] >= 0) tgtAligned[b] = 1;
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
    // A memory holds its sentences as they were imported, file by file: the first `limit` of a frequent word's
    // would be one product's ("dead keys" for "keys" in a keyboard layout's strings). Sentences a stride apart
    // are read first, then those between, so that a sample spreads over the whole memory.
    const stride = Math.max(1, Math.ceil(rarest.length / limit));
    for (let first = 0; first < stride && out.length < limit; first++) {
      for (let r = first; r < rarest.length; r += stride) {
        const i = rarest[r];
        const a = runAt(this.srcIds, this.srcAt[i], this.srcAt[i + 1], words);
        if (a >= 0) out.push({ sentence: i, at: a - this.srcAt[i] });
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /**
   * The translations of a source word or phrase as the memory renders it: in each sentence holding it (up to
   * `sample`), the target span its words are linked to, kept when no word inside the span is linked to a
   * source word outside the phrase (a consistent phrase pair), and that span grown by an unlinked target word
   * on either side. Then, as a terminologist would read the list:
   * - forms that differ only by inflection (the same stems, `stem` per word) are one translation, named by
   *   its shortest form seen often enough (an adjective's base form "alt", not "alte" or "alten");
   * - a span that holds another candidate and more words ("Fehler beim") lends half its count to the
   *   shorter one ("Fehler"): the grown links take in a neighbour now and then, never consistently; a
   *   one-word compound ("Wochennummer") lends all of it to the word it holds ("Woche");
   * - a two-word look-up also composes its words' translations (composedPhrases);
   * - each candidate is ranked by rankScore over the features of candidateFeatures.
   * `count` is the sentences giving the translation (as the linked span or grown), `share` that count over
   * the sentences looked at.
   * Best first.
   */
  translations(
    phrase: string,
    options: { n?: number; sample?: number; stem?: (word: string) => string; weights?: RankWeights } = {},
  ): PhraseTranslation[] {
    const weights = options.weights ?? RANK_WEIGHTS;
    const found = this.lookUp(phrase, options);
    if (!found) return [];
    return found.candidates
      .map((c) => ({ c, score: rankScore(c.features, weights) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || a.c.words - b.c.words)
      .slice(0, options.n ?? 5)
      .map(({ c }) => ({
        target: nameOf(c.forms, c.count, phrase),
        count: c.count,
        share: c.count / found.seen,
        examples: c.examples.map((i) => ({ source: this.sources[i], target: this.targets[i] })),
      }));
  }

  /**
   * Every candidate translation of a look-up with the features rankScore weighs and the name translations()
   * would give it: what bench/lexicon-fit.ts fits the weights on.
   */
  candidateFeatures(
    phrase: string,
    options: { sample?: number; stem?: (word: string) => string } = {},
  ): { target: string; forms: Map<string, number>; count: number; features: CandidateFeatures }[] {
    const found = this.lookUp(phrase, options);
    if (!found) return [];
    return found.candidates.map((c) => ({
      target: nameOf(c.forms, c.count, phrase),
      forms: c.forms,
      count: c.count,
      features: c.features,
    }));
  }

  private lookUp(
    phrase: string,
    options: { sample?: number; stem?: (word: string) => string },
  ): { candidates: LookedUp[]; seen: number } | null {
    const tokens = wordTokens(phrase).norms;
    if (tokens.length === 0) return null;
    const ids: number[] = [];
    for (const t of tokens) {
      const id = this.src.ids.get(t);
      if (id === undefined) return null;
      ids.push(id);
    }
    const stem = options.stem ?? identity;
    const sample = options.sample ?? 150;
    const contentMax = CONTENT_SHARE * this.sources.length;
    const found = this.occurrences(ids, sample);
    let sourceFrequency = Number.MAX_SAFE_INTEGER;
    for (const id of ids) sourceFrequency = Math.min(sourceFrequency, this.postings[id].length);

    interface Candidate {
      words: string[];
      forms: Map<string, number>;
      /** The target word ids of each distinct span, by their key. */
      spans: Map<string, number[]>;
      /** Sentences giving the candidate, as the linked span or grown from it. */
      count: number;
      /** Those sentences, a grown span's weighed by GROWN_MASS. */
      mass: number;
      /** The count as the linked span and as a grown span, each sentence weighed by the square of the share
       * of the phrase's words linked. */
      linked: number;
      grown: number;
      /** The part of `linked` whose span may render a neighbouring unlinked word too (CandidateFeatures.shared). */
      shared: number;
      examples: number[];
    }
    const newCandidate = (words: string[]): Candidate => ({
      words,
      forms: new Map(),
      spans: new Map(),
      count: 0,
      mass: 0,
      linked: 0,
      grown: 0,
      shared: 0,
      examples: [],
    });
    const byStems = new Map<string, Candidate>();
    const stems = new Map<number, string>();
    const aligned = new Uint8Array(this.maxTargetLength);
    /** Counts target words lo..hi of a sentence as a candidate, `weight` as linked or grown. */
    const add = (
      sentence: number,
      lo: number,
      hi: number,
      weight: number,
      grown: boolean,
      shared = false,
    ) => {
      const t0 = this.tgtAt[sentence];
      const form = this.targetForm(sentence, t0 + lo, t0 + hi);
      const words: string[] = [];
      const spanIds: number[] = [];
      for (let b = lo; b <= hi; b++) {
        const f = this.tgtIds[t0 + b];
        let stemmed = stems.get(f);
        if (stemmed === undefined) stems.set(f, (stemmed = stem(this.tgt.words[f])));
        words.push(stemmed);
        spanIds.push(f);
      }
      const key = words.join(' ');
      let c = byStems.get(key);
      if (!c) {
        c = newCandidate(words);
        byStems.set(key, c);
      }
      c.spans.set(spanIds.join(','), spanIds);
      c.count++;
      c.mass += grown ? GROWN_MASS : 1;
      if (grown) c.grown += weight;
      else c.linked += weight;
      if (shared) c.shared += weight;
      c.forms.set(form, (c.forms.get(form) ?? 0) + 1);
      if (c.examples.length < 3) c.examples.push(sentence);
    };
    for (const { sentence, at } of found) {
      // A segment whose words are the phrase alone ("Skipping %s" → "%s wird übersprungen") is a phrase pair
      // whole, with the words Model 1 left unlinked (an auxiliary, a preposition): it is how the memory
      // renders the phrase as a label, beside a placeholder at most, and counts above a span of a sentence.
      const targetWords = this.tgtAt[sentence + 1] - this.tgtAt[sentence];
      const sourceWords = this.srcAt[sentence + 1] - this.srcAt[sentence];
      if (sourceWords === ids.length && targetWords > 0 && targetWords <= ids.length + WHOLE_EXTRA) {
        add(sentence, 0, targetWords - 1, WHOLE_WEIGHT, false);
        continue;
      }
      const span = this.linkedSpan(sentence, at, ids.length);
      if (!span) continue;
      const covered = span[2] / ids.length;
      const [lo, hi] = span;
      // A one-word span beside an unlinked content word of the source (not one of the memory's commonest
      // words, which are function words) may be a compound rendering both: "sign language" →
      // "Gebärdensprache", the "sign" left unlinked because a target word takes one source word.
      const s0 = this.srcAt[sentence];
      const unlinkedContent = (a: number) =>
        a >= 0 &&
        a < sourceWords &&
        this.linkOf[s0 + a] < 0 &&
        this.postings[this.srcIds[s0 + a]].length < contentMax;
      const shared = lo === hi && (unlinkedContent(at - 1) || unlinkedContent(at + ids.length));
      add(sentence, lo, hi, covered * covered, false, shared);
      // As a phrase table is extracted: an unlinked target word next to the span may belong to it ("no se
      // admite", "wird übersprungen"), so the span grown by it is a candidate too, weighed by rankScore.
      const t0 = this.tgtAt[sentence];
      const nt = this.tgtAt[sentence + 1] - t0;
      aligned.fill(0, 0, nt);
      for (let a = this.srcAt[sentence]; a < this.srcAt[sentence + 1]; a++) {
        if (this.linkOf[a] >= 0) aligned[this.linkOf[a]] = 1;
      }
      const l = lo > 0 && !aligned[lo - 1] ? lo - 1 : lo;
      const h = hi < nt - 1 && !aligned[hi + 1] ? hi + 1 : hi;
      const grown = covered * covered;
      if (l < lo) add(sentence, l, hi, grown, true);
      if (h > hi) add(sentence, lo, h, grown, true);
      if (l < lo && h > hi) add(sentence, l, h, grown, true);
    }
    const candidates = [...byStems.values()];
    const source = tokens.map(stem).join(' ');
    // The sample stands for all the sentences holding the phrase: its counts scale by that ratio.
    const scale = found.length < sample ? 1 : Math.max(1, sourceFrequency / found.length);
    // A name or format the target keeps as it is only inside hyphenated compounds ("XBM-Datei", "Zentral-Puebla"
    // for "XBM", "Puebla"; never alone in the sample): each compound renders the word and a neighbour the links
    // missed, so the word itself is a candidate, with the compounds' sentences (lent below, as any compound
    // lends to the word it holds), named as they write that part.
    if (tokens.length === 1 && !byStems.has(source)) {
      let kept: Candidate | undefined;
      for (const c of candidates) {
        const where = c.words.length === 1 ? keptAs(c.words[0], source) : null;
        if (where === null) continue;
        kept ??= newCandidate([source]);
        for (const [form, n] of c.forms) {
          const part = keptPart(form, where);
          kept.forms.set(part, (kept.forms.get(part) ?? 0) + n);
        }
        for (const [key, span] of c.spans) kept.spans.set(key, span);
        kept.count += c.count;
        kept.mass += c.mass;
        for (const e of c.examples) if (kept.examples.length < 3) kept.examples.push(e);
      }
      if (kept) candidates.push(kept);
    }
    // Only a candidate of as many words as the phrase borrows from the longer ones holding it: for "invalid
    // input", "ungültige" is the span of a sentence whose "input" was not linked, not a shorter rendering.
    // A compound holding a one-word candidate ("Wochennummer" for "week") renders a larger phrase whose other
    // word the links missed: its sentences count for the candidate, and it counts less itself (rankScore).
    // (Looked up by key: a frequent word's look-up has hundreds of candidates.)
    const byKey = new Map<string, Candidate>();
    for (const c of candidates) byKey.set(c.words.join(' '), c);
    const lentLinked = new Map<Candidate, number>();
    const lentGrown = new Map<Candidate, number>();
    const lend = (to: Candidate, from: Candidate, share: number) => {
      lentLinked.set(to, (lentLinked.get(to) ?? 0) + share * from.linked);
      lentGrown.set(to, (lentGrown.get(to) ?? 0) + share * from.grown);
    };
    const compound = new Set<Candidate>();
    for (const longer of candidates) {
      const held = new Set<Candidate>();
      for (let length = tokens.length; length < longer.words.length; length++) {
        for (let from = 0; from + length <= longer.words.length; from++) {
          const part = byKey.get(longer.words.slice(from, from + length).join(' '));
          if (part && !held.has(part)) {
            held.add(part);
            lend(part, longer, 0.5);
          }
        }
      }
    }
    if (tokens.length === 1) {
      const single = candidates.filter((c) => c.words.length === 1);
      for (const c of single) {
        for (const other of single) {
          if (other === c || !compounds(other.words, c.words)) continue;
          lend(c, other, 1);
          compound.add(other);
        }
      }
    }
    const scored: LookedUp[] = candidates.map((c) => ({
      words: c.words.length,
      forms: c.forms,
      count: c.count,
      examples: c.examples,
      features: {
        linked: c.linked + (lentLinked.get(c) ?? 0),
        grown: c.grown + (lentGrown.get(c) ?? 0),
        // Not lent: "Operatorfamilie" shared with "operator" is no reason to doubt "Familie" for "family".
        shared: c.shared,
        compound: compound.has(c),
        copy: c.words.join(' ') === source,
        // A one-word look-up also asks the word-level model: a span holding none of the word's likeliest
        // targets is the links' accident more often than a translation.
        lexical: ids.length === 1 ? this.lexicalProbability(ids[0], c.spans) + 0.01 : 1,
        inverse: 1,
        composed: 0,
        gappy: 0,
        extraWords: c.words.length - ids.length,
        unseen: 0,
      },
    }));
    // The phrase table's inverse probability p(source | target) (Koehn, Och and Marcu 2003): how many of the
    // sentences holding the target words render this source. A function word the links took in ("der",
    // "beim") is in far more sentences than the source. Counting a phrase's sentences means reading them: only
    // the candidates that could make the answer (by the default weights, before this) are counted, the others
    // take the bound of their rarest word.
    const order = scored.map((x, k) => ({ x, c: candidates[k], pre: rankScore(x.features, RANK_WEIGHTS) }));
    order.sort((a, b) => b.pre - a.pre);
    order.forEach(({ x, c }, rank) => {
      let targetFrequency = 0;
      for (const spanIds of c.spans.values()) {
        if (rank < COUNTED_CANDIDATES) targetFrequency += this.targetFrequencyOf(spanIds);
        else {
          let rarest = Number.MAX_SAFE_INTEGER;
          for (const f of spanIds) rarest = Math.min(rarest, this.targetAt[f + 1] - this.targetAt[f]);
          targetFrequency += rarest;
        }
      }
      x.features.inverse = Math.min(1, (c.mass * scale) / Math.max(1, targetFrequency));
    });
    // A two-word label is often written in the order of neither's sentences ("Open file" → "Datei öffnen",
    // where sentences say "öffnen Sie die Datei"), so the span its words are linked to is rarely it. Its words'
    // translations side by side (or a few words apart: "kann nicht geöffnet"), where the target side writes them
    // so, are candidates too: scored by the sentences holding the source phrase whose target holds the composed
    // phrase, times √p(source | target), and added to the span candidate of the same words.
    const elsewhere: Composed[] = [];
    if (ids.length === 2) {
      const byKeyScored = new Map<string, LookedUp>();
      for (let k = 0; k < candidates.length; k++) byKeyScored.set(candidates[k].words.join(' '), scored[k]);
      const foundSet = new Set<number>();
      for (const f of found) foundSet.add(f.sentence);
      for (const k of this.composedPhrases(ids, stem, foundSet)) {
        if (k.inFound === 0) {
          if (!k.gappy && k.count > 0) elsewhere.push(k);
          continue;
        }
        const score = k.inFound * scale * Math.sqrt(Math.min(1, (k.inFound * scale) / Math.max(1, k.count)));
        let x = byKeyScored.get(k.words.join(' '));
        if (!x) {
          x = {
            words: k.words.length,
            forms: k.forms,
            count: k.inFound,
            examples: k.examples,
            features: { ...NO_FEATURES, extraWords: k.words.length - ids.length },
          };
          byKeyScored.set(k.words.join(' '), x);
          scored.push(x);
        }
        if (k.gappy) x.features.gappy += score;
        else x.features.composed += score;
      }
    }
    // A two-word look-up whose sentences gave no rendering (no consistent span, the words' translations never
    // written together there) still gets a composition of its words' translations: the ones other sentences
    // write ("invalid status" → "estado inválido"), by how many, else its words' likeliest translations side
    // by side — a lexicon's guess rather than nothing, ranked below anything the look-up's sentences write.
    if (ids.length === 2 && !scored.some((x) => rankScore(x.features, RANK_WEIGHTS) > 0)) {
      for (const k of elsewhere) {
        scored.push({
          words: k.words.length,
          forms: k.forms,
          count: 0,
          examples: k.examples,
          features: { ...NO_FEATURES, extraWords: k.words.length - ids.length, unseen: k.count },
        });
      }
      const unseen = elsewhere.length === 0 ? this.unseenComposition(ids, found) : null;
      if (unseen) scored.push(unseen);
    }
    if (ids.length === 1 && !scored.some((x) => rankScore(x.features, RANK_WEIGHTS) > 0)) {
      const guess = this.keptWord(source, found, stem);
      if (guess) scored.push(guess);
    }
    return { candidates: scored, seen: found.length };
  }

  /**
   * A one-word look-up whose sentences gave no rendering (its word linked to nothing consistent: "Madrid,
   * Comunidad de" → "Madrid", "Turkmenistan New Manat" → "Turkmenistan-Manat"): the word itself where their
   * targets keep it, alone or as a hyphenated part, by how many; ranked below anything a sentence gives.
   */
  private keptWord(
    source: string,
    found: { sentence: number }[],
    stem: (word: string) => string,
  ): LookedUp | null {
    const forms = new Map<string, number>();
    const examples: number[] = [];
    let count = 0;
    for (const { sentence } of found) {
      for (let x = this.tgtAt[sentence]; x < this.tgtAt[sentence + 1]; x++) {
        const where = keptAs(stem(this.tgt.words[this.tgtIds[x]]), source);
        if (where === null) continue;
        const part = keptPart(this.targetForm(sentence, x, x), where);
        forms.set(part, (forms.get(part) ?? 0) + 1);
        if (examples.length < 3) examples.push(sentence);
        count++;
        break;
      }
    }
    if (count === 0) return null;
    return { words: 1, forms, count, examples, features: { ...NO_FEATURES, copy: true, unseen: count } };
  }

  /**
   * A two-word source's words' likeliest translations (the word-level model's), each as the target side writes
   * it most often in its first sentences (its case), ordered as they stand in most of the `found` sentences
   * holding both, else as the links order each source word and its neighbour on that side.
   */
  private unseenComposition(ids: number[], found: { sentence: number }[]): LookedUp | null {
    const [a, b] = ids.map((e) => this.lexicalIds[e * LEXICAL_KEPT]);
    if (a < 0 || b < 0 || a === b) return null;
    let swapped = 0;
    for (const { sentence } of found) {
      let at = -1;
      let bt = -1;
      for (let x = this.tgtAt[sentence]; x < this.tgtAt[sentence + 1]; x++) {
        if (this.tgtIds[x] === a && at < 0) at = x;
        if (this.tgtIds[x] === b && bt < 0) bt = x;
      }
      if (at >= 0 && bt >= 0) swapped += bt < at ? 1 : -1;
    }
    // No sentence holding the phrase holds both: how the links order each word and its neighbour on that side
    // in the sentences holding it ("invalid X" → "X no válido", "open X" → "abrir X"), at most 200 each.
    if (swapped === 0) {
      for (const [word, side] of [
        [ids[0], 1],
        [ids[1], -1],
      ]) {
        const postings = this.postings[word];
        for (let p = 0; p < Math.min(postings.length, 200); p++) {
          const i = postings[p];
          for (let x = this.srcAt[i]; x < this.srcAt[i + 1]; x++) {
            const y = x + side;
            if (this.srcIds[x] !== word || y < this.srcAt[i] || y >= this.srcAt[i + 1]) continue;
            if (this.linkOf[x] < 0 || this.linkOf[y] < 0 || this.linkOf[x] === this.linkOf[y]) continue;
            // Swapped when the first word's link comes after the second's.
            const [first, second] = side === 1 ? [x, y] : [y, x];
            swapped += this.linkOf[second] < this.linkOf[first] ? 1 : -1;
          }
        }
      }
    }
    const order = swapped > 0 ? [b, a] : [a, b];
    const target = order.map((f) => this.surfaceOfTarget(f)).join(' ');
    return {
      words: 2,
      forms: new Map([[target, 1]]),
      count: 0,
      examples: [],
      features: { ...NO_FEATURES, unseen: 0.5 },
    };
  }

  /** A target word as its first sentences write it most often (its case). */
  private surfaceOfTarget(f: number): string {
    const forms = new Map<string, number>();
    const end = Math.min(this.targetAt[f + 1], this.targetAt[f] + 20);
    for (let q = this.targetAt[f]; q < end; q++) {
      const i = this.targetSentences[q];
      for (let x = this.tgtAt[i]; x < this.tgtAt[i + 1]; x++) {
        if (this.tgtIds[x] !== f) continue;
        // A sentence's first word is capitalised whatever it is: counted only when it is all there is.
        if (x === this.tgtAt[i] && this.tgtAt[i + 1] - x > 1) continue;
        const form = this.targetForm(i, x, x);
        forms.set(form, (forms.get(form) ?? 0) + 1);
      }
    }
    let best = this.tgt.words[f];
    let most = 0;
    for (const [form, n] of forms) {
      if (n > most) {
        best = form;
        most = n;
      }
    }
    return best;
  }

  /** The target vocabulary's words by stem, for the stemmer last asked (built on its first look-up). */
  private stemIndex: { stem: (w: string) => string; forms: Map<string, number[]> } | undefined;
  private formsByStem(stem: (w: string) => string): Map<string, number[]> {
    if (this.stemIndex?.stem === stem) return this.stemIndex.forms;
    const forms = new Map<string, number[]>();
    for (let f = 1; f < this.tgt.words.length; f++) {
      const key = stem(this.tgt.words[f]);
      const list = forms.get(key);
      if (list) list.push(f);
      else forms.set(key, [f]);
    }
    this.stemIndex = { stem, forms };
    return forms;
  }

  /**
   * Composed translations of a two-word source: each word's COMPOSED_TRANSLATIONS likeliest translations
   * (the word-level model's), in all their forms (the words of the target vocabulary with the same stem), side
   * by side in either order, separated by nothing but spaces, wherever the target side writes them so, or
   * joined into one compound word the target vocabulary has; and, `gappy`, the two a few words apart (at
   * most GAPPY_WINDOW positions), rendered as the words that cover them, all separated by spaces only. A
   * pair's sentences are found from the postings of its rarer word (at most COMPOSED_SCAN of them read, the
   * count scaled up when there are more); `inFound` is how many of them are sentences holding the source phrase.
   */
  private composedPhrases(ids: number[], stem: (w: string) => string, foundSet: Set<number>): Composed[] {
    const byStem = stem === identity ? undefined : this.formsByStem(stem);
    const translationsOf = (e: number) => {
      const out: { key: string; forms: number[] }[] = [];
      const at = e * LEXICAL_KEPT;
      for (let k = 0; k < Math.min(COMPOSED_TRANSLATIONS, LEXICAL_KEPT); k++) {
        const f = this.lexicalIds[at + k];
        if (f < 0 || this.lexicalP[at + k] < COMPOSED_SHARE * this.lexicalP[at]) continue;
        const key = stem(this.tgt.words[f]);
        if (out.some((o) => o.key === key)) continue;
        out.push({ key, forms: byStem?.get(key) ?? [f] });
      }
      return out;
    };
    const sentencesOf = (forms: number[]) => {
      let n = 0;
      for (const f of forms) n += this.targetAt[f + 1] - this.targetAt[f];
      return n;
    };
    const firsts = translationsOf(ids[0]);
    const seconds = translationsOf(ids[1]);
    const out = new Map<string, Composed & { last: number }>();
    for (const a of firsts) {
      for (const b of seconds) {
        if (a.key === b.key) continue;
        const [rare, other] = sentencesOf(a.forms) <= sentencesOf(b.forms) ? [a, b] : [b, a];
        const total = sentencesOf(rare.forms);
        const looked = Math.min(total, COMPOSED_SCAN);
        const factor = total / Math.max(1, looked);
        /** Target words lo..hi (absolute positions) of sentence i, the pair at its two ends. */
        const record = (i: number, lo: number, hi: number) => {
          // Only words written side by side: a placeholder, a tag or punctuation between them is no phrase.
          for (let x = lo; x < hi; x++) {
            if (!/^\s+$/.test(this.targets[i].slice(this.tgtEnds[x], this.tgtStarts[x + 1]))) return;
          }
          const words: string[] = [];
          for (let x = lo; x <= hi; x++) words.push(stem(this.tgt.words[this.tgtIds[x]]));
          const key = words.join(' ');
          let k = out.get(key);
          if (!k) {
            k = { words, forms: new Map(), count: 0, inFound: 0, examples: [], last: -1, gappy: hi - lo > 1 };
            out.set(key, k);
          }
          if (k.last === i) return;
          k.last = i;
          k.count += factor;
          if (foundSet.has(i)) k.inFound++;
          const form = this.targetForm(i, lo, hi);
          k.forms.set(form, (k.forms.get(form) ?? 0) + 1);
          if (k.examples.length < 3) k.examples.push(i);
        };
        let n = 0;
        for (const f of rare.forms) {
          for (let q = this.targetAt[f]; q < this.targetAt[f + 1] && n < looked; q++, n++) {
            const i = this.targetSentences[q];
            const t0 = this.tgtAt[i];
            const t1 = this.tgtAt[i + 1];
            for (let x = t0; x < t1; x++) {
              if (this.tgtIds[x] !== f) continue;
              for (let d = 1; d <= GAPPY_WINDOW; d++) {
                if (x + d < t1 && other.forms.includes(this.tgtIds[x + d])) record(i, x, x + d);
                if (x - d >= t0 && other.forms.includes(this.tgtIds[x - d])) record(i, x - d, x);
              }
            }
          }
        }
      }
    }
    // A language that writes compounds as one word renders "target directory" as "Zielverzeichnis": the first
    // word's translation (its stem or a form), perhaps a linking "s", then a form of the second's, where the
    // target vocabulary has that word (on the de dev set: 46.2 → 46.7 %, es unchanged). Or joined by a hyphen,
    // which the tokenizer keeps inside the word: "Master-Server". Each of the compound's forms counts for the one
    // candidate. (Gold list two words 49.8 → 50.9 % with the hyphen, → 51.1 % with all forms counted; the dev
    // sets, which hold few such labels, unchanged: bench/README.md.)
    const compoundWords = new Set<number>();
    for (const a of firsts) {
      for (const b of seconds) {
        const heads = new Set<string>([a.key]);
        for (const f of a.forms) heads.add(this.tgt.words[f]);
        for (const head of heads) {
          if (head.length < 3) continue;
          for (const tail of b.forms) {
            for (const link of COMPOUND_LINKS) {
              const f = this.tgt.ids.get(head + link + this.tgt.words[tail]);
              if (f === undefined || compoundWords.has(f)) continue;
              compoundWords.add(f);
              // Every inflected form of the compound is the one candidate ("Hintergrundsymbol",
              // "Hintergrundsymbols"): its sentences are those of all its forms.
              const words = [stem(this.tgt.words[f])];
              let k = out.get(words[0]);
              if (!k) {
                k = {
                  words,
                  forms: new Map<string, number>(),
                  count: 0,
                  inFound: 0,
                  examples: [] as number[],
                  last: -1,
                  gappy: false,
                };
                out.set(words[0], k);
              }
              const end = Math.min(this.targetAt[f + 1], this.targetAt[f] + COMPOSED_SCAN);
              for (let q = this.targetAt[f]; q < end; q++) {
                const i = this.targetSentences[q];
                if (foundSet.has(i)) k.inFound++;
                let x = this.tgtAt[i];
                while (this.tgtIds[x] !== f) x++;
                const form = this.targetForm(i, x, x);
                k.forms.set(form, (k.forms.get(form) ?? 0) + 1);
                if (k.examples.length < 3) k.examples.push(i);
              }
              // Every sentence holding the word writes the compound, read or not.
              k.count += this.targetAt[f + 1] - this.targetAt[f];
            }
          }
        }
      }
    }
    return [...out.values()];
  }

  /** The word-level model's t(f|e)·t(e|f) of source word e and the likeliest target word of the spans. */
  private lexicalProbability(e: number, spans: Map<string, number[]>): number {
    let best = 0;
    const at = e * LEXICAL_KEPT;
    for (const span of spans.values()) {
      for (const f of span) {
        for (let k = 0; k < LEXICAL_KEPT; k++) {
          if (this.lexicalIds[at + k] === f) best = Math.max(best, this.lexicalP[at + k]);
        }
      }
    }
    return best;
  }

  /**
   * How many training sentences hold the target words in a row (estimated from the first 500 holding the
   * rarest of them).
   */
  private targetFrequencyOf(words: number[]): number {
    const sentences = (f: number) => this.targetAt[f + 1] - this.targetAt[f];
    if (words.length === 1) return sentences(words[0]);
    let rarestWord = words[0];
    for (const w of words) if (sentences(w) < sentences(rarestWord)) rarestWord = w;
    const rarest = this.targetSentences.subarray(this.targetAt[rarestWord], this.targetAt[rarestWord + 1]);
    let n = 0;
    const looked = Math.min(rarest.length, 500);
    for (let r = 0; r < looked; r++) {
      const i = rarest[r];
      if (runAt(this.tgtIds, this.tgtAt[i], this.tgtAt[i + 1], words) >= 0) n++;
    }
    return looked === rarest.length ? n : Math.round((n * rarest.length) / looked);
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
      const form = writtenForm(
        this.sources[sentence],
        this.targets[sentence],
        this.srcStarts[a],
        this.srcEnds[a + ids.length - 1],
      );
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

/**
 * Whether a one-word candidate is a compound of another ("Schriftgröße", "Zugriffsmethode" hold "Schrift",
 * "Methode"): languages that write compounds as one word render "font size" in one word, and the phrase "font"
 * is then linked to the compound. A part as short as three letters could begin any word; a part the hyphen
 * sets off ("PDF-Dokument", "SHA-1") is one however short.
 */
function compounds(longer: string[], part: string[]): boolean {
  if (longer.length !== 1 || part.length !== 1) return false;
  const [w] = longer;
  const [p] = part;
  if (p.length >= 2 && w !== p && keptAs(w, p) !== null) return true;
  return p.length >= 4 && w.length > p.length && (w.startsWith(p) || w.endsWith(p));
}

/** Where a word holds another as it is: the whole word, or the part a hyphen sets off first or last. */
type Kept = 'whole' | 'first' | 'last';

/**
 * Where a target word holds the looked-up word as it is (both stemmed): the whole word, or the part a hyphen
 * sets off first or last ("XBM-Datei", "Zentral-Puebla" for "XBM", "Puebla"); null where it does not.
 */
function keptAs(word: string, source: string): Kept | null {
  if (word === source) return 'whole';
  if (word.startsWith(`${source}-`)) return 'first';
  return word.endsWith(`-${source}`) ? 'last' : null;
}

/** The part of a written form that keptAs found: "XBM" of "XBM-Bildes". */
function keptPart(form: string, where: Kept): string {
  if (where === 'whole') return form;
  const parts = form.split('-');
  return where === 'first' ? parts[0] : parts[parts.length - 1];
}

/**
 * A translation's name: its shortest form written in at least a fifth of its sentences, else its commonest
 * (of two as short, the one in the nominative: `oblique`).
 * For a one-word look-up that is no plural (no final "s"), its uninflected form where the target writes it
 * too: a label says "Ungültig", "Alt", "Schwach" where sentences say "ungültige Eingabe", "die alte Datei" —
 * the form the name is less an inflection ending (INFLECTION_ENDING), written in at least a BASE_SHARE-th of
 * its sentences, and not the looked-up word itself (an English word the target keeps: "method" beside
 * "Methode").
 */
function nameOf(forms: Map<string, number>, count: number, phrase: string): string {
  const often = [...forms].filter(([, n]) => n * 5 >= count);
  const pool = often.length > 0 ? often : [...forms];
  const name = pool.sort(
    (a, b) => a[0].length - b[0].length || oblique(a[0]) - oblique(b[0]) || b[1] - a[1],
  )[0][0];
  const word = phrase.trim().toLowerCase();
  if (/\s/.test(word) || word.endsWith('s')) return name;
  const lower = name.toLowerCase();
  for (const [form, n] of forms) {
    const base = form.toLowerCase();
    if (n * BASE_SHARE < count || base.length >= lower.length || base === word || !lower.startsWith(base))
      continue;
    if (INFLECTION_ENDING.test(lower.slice(base.length))) return form;
  }
  return name;
}

/**
 * Words of a name in a German oblique case (-en, -em: "unbekannten Typ", "ungültigem Kontext"), where a
 * label names a thing in the nominative ("Unbekannter Typ", "Neues Tag"): between two forms of one
 * translation as long as each other, the one with fewer is its name.
 */
function oblique(form: string): number {
  let n = 0;
  for (const w of form.split(/\s+/)) if (/e[nm]$/i.test(w)) n++;
  return n;
}

/**
 * The endings an inflected form adds to the uninflected one (German adjectives' -e, -en, -em, -er, -es; a
 * genitive or plural -s). Not -n: "erlaube" is "erlauben" less it, a first person where a label has the
 * infinitive. Measured on the dev sets with -n (de dev 47.6 → 48.0 %, its first-person sources) and without
 * (no change), and once on the gold list without it: 11 sources more right, none fewer.
 */
const INFLECTION_ENDING = /^(e|en|em|er|es|s)$/;
const BASE_SHARE = 20;

/** A two-word source's translation composed from its words' (WordAligner.composedPhrases). */
interface Composed {
  /** The stems of the two target words, in the target's order. */
  words: string[];
  /** The forms written, with how often. */
  forms: Map<string, number>;
  /** Target sentences writing it (estimated when only some were read). */
  count: number;
  /** Those of the sentences holding the source phrase (the look-up's sample). */
  inFound: number;
  examples: number[];
  /** Its two words a few apart, the words between taken in. */
  gappy: boolean;
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
