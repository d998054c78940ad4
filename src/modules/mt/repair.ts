// Fuzzy-match repair: a 75–99 % memory match patched with machine translation where its source differs
// from the segment's, in the spirit of Ortega, Sánchez-Martínez and Forcada's black-box MT repair of fuzzy
// matches (2016), written for this engine's word alignment.
//
// For each block of words that differ (the scorer's alignment, word-differences.ts) the source phrase of
// the match (σ) and the segment's phrase that stands in its place (σ′) are cut with their anchoring
// context: first with the equal word on either side, then with one of them, then bare. All those phrases
// go to the MT engine in one batch. The repair then looks for the MT of σ in the match's target — exactly
// (case-insensitive, on word boundaries), else word by word with a prefix stemming that forgives Romance
// inflection (archivo/archivos, seleccionado/seleccionada) — and, when it occurs exactly once, puts the MT
// of σ′ in its place. The first context that locates unambiguously wins; a difference none locates is left
// as the match has it. Spans holding inline tags are never cut or patched, so tags and placeholders stay
// where the translator put them. Pure: the MT comes in as a function, so that one batch serves a repair
// and the tests and the bench can give their own.
//
// The memory's word alignments (repair-alignment.ts) are the second way to locate: when the MT of σ occurs
// more than once, the occurrence within the span σ's words are linked to is taken; when no context's MT
// occurs at all, the consistent span an anchored σ projects onto is patched — only what lies between the
// engine's anchors, and only where the engine renders them as the span does (narrowed, contextKept).

import { scanTokens } from '../../matching/tokenize.ts';
import {
  type DiffBlock,
  type DiffWord,
  type WordDifferences,
  wordDifferences,
} from '../../matching/word-differences.ts';
import { parseTagged } from '../../text/inline-tags.ts';
import { type PairAlignment, projectSpan } from './repair-alignment.ts';

export interface RepairInput {
  /** The segment's source (tagged text). */
  source: string;
  /** The memory match's source and target (tagged text). */
  matchSource: string;
  matchTarget: string;
}

/** A changed stretch of the repaired target: UTF-16 offsets of the words the repair put there. */
export interface ChangedSpan {
  start: number;
  end: number;
}

export interface Repair {
  /** The match's target with the located phrases replaced (tagged text). */
  target: string;
  /** The words the MT put in, in order, for highlighting (a pure deletion leaves none). */
  changes: ChangedSpan[];
  /** Differences (blocks of words) between the segment's source and the match's, and how many were patched. */
  differences: number;
  patched: number;
  /** Of the patched, those located by the memory's word alignments (alone, or choosing among MT's places). */
  aligned: number;
}

/** How a phrase pair is anchored: by the equal words on both sides, on one side, or none (bare). */
export type Anchoring = 'both' | 'left' | 'right' | 'bare';

interface Candidate {
  anchoring: Anchoring;
  /** Index in the plan's texts of the MT of σ (the match's phrase) and of σ′ (the segment's phrase). */
  from: number;
  to: number;
  /** σ′ as written in the segment's source: its first letter's case decides the patch's. */
  toSource: string;
  /** σ's UTF-16 offsets in the match's source (NFC): what the word alignments project. */
  fromStart: number;
  fromEnd: number;
}

export interface RepairPlan {
  input: RepairInput;
  diff: WordDifferences;
  /** Per difference, the phrase pairs to try, most anchored first. */
  blocks: Candidate[][];
  /** The distinct phrases to translate, in one batch. */
  texts: string[];
}

/** The translations of a plan's texts, in order; null where the engine gave none. */
export type Translate = (texts: string[]) => Promise<(string | null)[]>;

export interface PlanOptions {
  /** Try an insertion or a deletion anchored on one side only (default false: see contextsOf). */
  oneSidedIndels?: boolean;
  /** Try a substitution with no context (default true). */
  bare?: boolean;
}

/** The phrases to translate for a repair, or null when there is nothing to repair. */
export function planRepair(input: RepairInput, options: PlanOptions = {}): RepairPlan | null {
  const diff = wordDifferences(input.source, input.matchSource);
  if (diff.query === diff.candidate) return null;
  const texts: string[] = [];
  const indexOf = new Map<string, number>();
  const textIndex = (text: string) => {
    let i = indexOf.get(text);
    if (i === undefined) {
      i = texts.push(text) - 1;
      indexOf.set(text, i);
    }
    return i;
  };
  const blocks = diff.blocks.map((block) => {
    const candidates: Candidate[] = [];
    for (const anchoring of contextsOf(block, diff, options)) {
      const left = anchoring === 'both' || anchoring === 'left' ? 1 : 0;
      const right = anchoring === 'both' || anchoring === 'right' ? 1 : 0;
      const from = phrase(diff.candidate, diff.candidateWords, block.c0 - left, block.c1 + right);
      const to = phrase(diff.query, diff.queryWords, block.q0 - left, block.q1 + right);
      // A phrase that would cut through or carry a tag is not patched: the tags stay as the match has them.
      if (from === null || to === null || from === '') continue;
      candidates.push({
        anchoring,
        from: textIndex(from),
        to: textIndex(to),
        toSource: to,
        fromStart: diff.candidateWords[block.c0 - left].start,
        fromEnd: diff.candidateWords[block.c1 + right - 1].end,
      });
    }
    return candidates;
  });
  return { input, diff, blocks, texts };
}

/**
 * The contexts a block can be cut with, most anchored first. An insertion or a deletion anchored on one side
 * only is not tried by default: the target's word order often differs (an English modifier before its noun
 * goes after it in Spanish), so the words land on the wrong side of the anchor — the bench measured it.
 * Bare only for a substitution: a bare insertion has nothing to locate, a bare deletion nothing to anchor it.
 */
function contextsOf(block: DiffBlock, diff: WordDifferences, options: PlanOptions): Anchoring[] {
  const hasLeft = block.c0 > 0 && block.q0 > 0;
  const hasRight = block.c1 < diff.candidateWords.length && block.q1 < diff.queryWords.length;
  const substitution = block.c1 > block.c0 && block.q1 > block.q0;
  const oneSided = substitution || (options.oneSidedIndels ?? false);
  const out: Anchoring[] = [];
  if (hasLeft && hasRight) out.push('both');
  if (hasLeft && oneSided) out.push('left');
  if (hasRight && oneSided) out.push('right');
  if (substitution && (options.bare ?? true)) out.push('bare');
  return out;
}

/** The text from word a to word b − 1 (with what lies between them); '' when empty, null when it holds a tag. */
function phrase(text: string, words: { start: number; end: number }[], a: number, b: number): string | null {
  if (b <= a) return '';
  const span = text.slice(words[a].start, words[b - 1].end);
  // Runs of spaces, tabs and line breaks are layout (the columns of a --help text), not language: the
  // engine would not keep them, and a target aligns them its own way.
  if (/\s\s|[\t\n\r]/u.test(span)) return null;
  return parseTagged(span).some((p) => p.type === 'tag') || span.includes('<') ? null : span;
}

export interface ApplyOptions {
  /** Use the prefix-stemming locate when the exact one finds nothing (default true). */
  stemming?: boolean;
  /**
   * The match's source (the plan's diff.candidate) and target (NFC) aligned from the memory's learned
   * lexicon (repair-alignment.ts): the second way to locate a difference. Without it, MT alone locates.
   */
  alignment?: PairAlignment | null;
}

/** A stretch of the match's target to replace, and how its highlight is found. */
interface Patch {
  start: number;
  end: number;
  text: string;
  /** 'words': the words that differ from the replaced ones (an MT phrase); 'all': the whole new text. */
  mark: 'words' | 'all';
}

/** The repair a plan's translations give, or null when no difference could be located unambiguously. */
export function applyRepair(
  plan: RepairPlan,
  translations: (string | null)[],
  options: ApplyOptions = {},
): Repair | null {
  const target = plan.input.matchTarget.normalize('NFC');
  const view = searchView(target);
  const patches: Patch[] = [];
  let aligned = 0;
  const free = (start: number, end: number) =>
    !patches.some(
      (p) => (start < p.end && p.start < end) || (start === end && p.start < start && start < p.end),
    );
  const alignment = options.alignment ?? null;
  const projected = (c: Candidate) => {
    const span = alignment ? projectSpan(alignment, c.fromStart, c.fromEnd) : null;
    // A span holding a tag is not patched, as with MT's; nor one holding layout (see phrase()).
    if (span === null) return null;
    const text = view.slice(span.start, span.end);
    if (text.includes('\0') || /\s\s|[\t\n\r]/u.test(text)) return null;
    // The alignments link words only: σ's placeholders must be in the span, or the patch would leave them.
    const inPhrase = plan.diff.candidateWords.filter(
      (w) => w.type === 'placeholder' && w.start >= c.fromStart && w.end <= c.fromEnd,
    ).length;
    return inPhrase === placeholders(target.slice(span.start, span.end)) ? span : null;
  };
  /** Patches a span MT's phrase `from` was found at with `to`; false when another patch holds it. */
  const patch = (at: { start: number; end: number }, c: Candidate, from: string, to: string) => {
    // Two differences claiming one stretch of the target would patch each other's words: the first keeps it.
    if (!free(at.start, at.end)) return false;
    const inflected = inflectedLike(target.slice(at.start, at.end), from, to);
    patches.push({
      ...at,
      text: withCaseOf(target, at.start, inflected, c.toSource, plan.diff.query),
      mark: 'words',
    });
    return true;
  };
  for (const candidates of plan.blocks) {
    let located = false;
    for (const c of candidates) {
      const from = translations[c.from]?.trim();
      const to = translations[c.to]?.trim();
      if (!from || to === undefined) continue;
      const hits = locateAll(view, from, options.stemming ?? true);
      let at = hits.length === 1 ? hits[0] : null;
      let byAlignment = false;
      if (hits.length > 1) {
        // MT's phrase is in the target more than once: the alignment says which one is σ's.
        const span = projected(c);
        const inside = span ? hits.filter((h) => h.start >= span.start && h.end <= span.end) : [];
        at = inside.length === 1 ? inside[0] : null;
        byAlignment = at !== null;
      }
      if (at === null) continue;
      if (patch(at, c, from, to) && byAlignment) aligned++;
      located = true;
      break;
    }
    if (located || alignment === null) continue;
    // No context's MT is in the target as the engine writes it: where the memory's alignments put σ. Only
    // an anchored phrase (a bare one's MT has no context to check), and only where the engine renders the
    // context as the translator did: the words the MT of σ′ shares with the MT of σ are in the span, and
    // the span starts and ends with the engine's anchors — what lies between them is replaced, the
    // translator's anchors stay (narrowed()).
    for (const c of candidates) {
      if (c.anchoring === 'bare') continue;
      const from = translations[c.from]?.trim();
      const to = translations[c.to]?.trim();
      if (!from || !to) continue;
      const at = projected(c);
      if (at === null || !contextKept(target.slice(at.start, at.end), from, to)) continue;
      const n = narrowed(target, at, from, to);
      if (n === null || !balanced(target.slice(n.start, n.end)) || !balanced(n.text)) continue;
      if (free(n.start, n.end)) {
        // The new text's first word takes the case of its place, as an MT-located patch's does.
        const lead = /^\s*/u.exec(n.text)![0];
        const rest = n.text.slice(lead.length);
        // A name or an acronym ("ORDER BY") keeps its case.
        const acronym = /\p{Lu}/u.test(/^[\p{L}\p{M}\p{N}_-]*/u.exec(rest)![0].slice(1));
        const text =
          lead +
          (acronym ? rest : withCaseOf(target, n.start + lead.length, rest, c.toSource, plan.diff.query));
        patches.push({ start: n.start, end: n.end, text, mark: 'words' });
        aligned++;
      }
      break;
    }
  }
  const other = placeablePatches(plan.diff, target, view).concat(edgePatches(plan.diff, target, view));
  for (const p of other) if (free(p.start, p.end)) patches.push(p);
  if (patches.length === 0) return null;
  patches.sort((a, b) => a.start - b.start);
  let out = '';
  let last = 0;
  const changes: ChangedSpan[] = [];
  for (const p of patches) {
    out += target.slice(last, p.start);
    const changed =
      p.mark === 'words'
        ? changedWords(target.slice(p.start, p.end), p.text)
        : p.text.trim() === ''
          ? null
          : { start: 0, end: p.text.length };
    if (changed) changes.push({ start: out.length + changed.start, end: out.length + changed.end });
    out += p.text;
    last = p.end;
  }
  out += target.slice(last);
  if (out === target) return null;
  return { target: out, changes, differences: differencesOf(plan.diff), patched: patches.length, aligned };
}

/** The differences a repair can patch: blocks of words, numbers and placeholders spelled otherwise, the edges. */
function differencesOf(diff: WordDifferences): number {
  return diff.blocks.length + respelled(diff).length + edgeDifferences(diff);
}

/** Aligned numbers and placeholders whose spelling differs (4 and 32, %d and %ld): the score aligns them. */
function respelled(diff: WordDifferences): [DiffWord, DiffWord][] {
  return diff.pairs
    .map(([q, c]): [DiffWord, DiffWord] => [diff.queryWords[q], diff.candidateWords[c]])
    .filter(([q, c]) => q.type !== 'word' && q.real !== c.real);
}

/**
 * Numbers and placeholders are carried over as they are (no MT): the match's spelling, where it occurs
 * exactly once in the target, becomes the segment's.
 */
function placeablePatches(diff: WordDifferences, target: string, view: string): Patch[] {
  const out: Patch[] = [];
  for (const [q, c] of respelled(diff)) {
    const at = locate(view, c.real, false);
    if (at && target.slice(at.start, at.end) === c.real) out.push({ ...at, text: q.real, mark: 'all' });
  }
  return out;
}

/** The first letter of a text (in a tagged text, of its plain text): its offset, or -1. */
function firstLetter(text: string, view?: string): number {
  for (let i = 0; i < text.length; i++) {
    if (view && view[i] === '\0') continue;
    if (/\p{L}/u.test(text[i])) return i;
    if (/[\p{N}]/u.test(text[i])) return -1;
  }
  return -1;
}

/** What follows a text's last word, number or placeholder, when it holds no letter or digit ('' when nothing does). */
function tailOf(text: string, words: DiffWord[]): string | null {
  if (words.length === 0) return null;
  const tail = text.slice(words[words.length - 1].end);
  return /[\p{L}\p{N}<]/u.test(tail) ? null : tail;
}

function edgeDifferences(diff: WordDifferences): number {
  const q = firstLetter(diff.query);
  const c = firstLetter(diff.candidate);
  const head = q >= 0 && c >= 0 && diff.query[q] !== diff.candidate[c] ? 1 : 0;
  return head + (tailOf(diff.query, diff.queryWords) !== tailOf(diff.candidate, diff.candidateWords) ? 1 : 0);
}

/**
 * The edges of a segment differ from its match's more than anything in the 95–99 % band: an initial
 * capital, a final full stop or colon or line break. Where the target's edge is the match's (its first
 * letter in the same case, its end the same characters), it becomes the segment's.
 */
function edgePatches(diff: WordDifferences, target: string, view: string): Patch[] {
  const out: Patch[] = [];
  const q = firstLetter(diff.query);
  const c = firstLetter(diff.candidate);
  const t = firstLetter(target, view);
  // Only where the first and the last words are aligned with each other: otherwise the edge belongs to a
  // word that differs, and a block (or nothing) handles it.
  const aligned = (qi: number, ci: number) => diff.pairs.some(([a, b]) => a === qi && b === ci);
  const firstAligned = aligned(0, 0);
  const lastAligned = aligned(diff.queryWords.length - 1, diff.candidateWords.length - 1);
  if (firstAligned && q >= 0 && c >= 0 && t >= 0) {
    const [qc, cc, tc] = [diff.query[q], diff.candidate[c], target[t]];
    const caseOf = (ch: string) => (ch === ch.toLowerCase() ? (ch === ch.toUpperCase() ? 0 : -1) : 1);
    if (qc.toLowerCase() === cc.toLowerCase() && caseOf(qc) !== caseOf(cc) && caseOf(tc) === caseOf(cc)) {
      out.push({
        start: t,
        end: t + 1,
        text: caseOf(qc) > 0 ? tc.toUpperCase() : tc.toLowerCase(),
        mark: 'all',
      });
    }
  }
  const qTail = tailOf(diff.query, diff.queryWords);
  const cTail = tailOf(diff.candidate, diff.candidateWords);
  if (lastAligned && qTail !== null && cTail !== null && qTail !== cTail && target.endsWith(cTail)) {
    const start = target.length - cTail.length;
    // The target's own end must be plain text, not the inside of a tag.
    if (view.slice(start).indexOf('\0') < 0)
      out.push({ start, end: target.length, text: qTail, mark: 'all' });
  }
  return out;
}

/** Plans, translates in one batch and applies a repair. */
export async function repairMatch(
  input: RepairInput,
  translate: Translate,
  options: ApplyOptions & PlanOptions = {},
): Promise<Repair | null> {
  const plan = planRepair(input, options);
  if (plan === null) return null;
  return applyRepair(plan, plan.texts.length > 0 ? await translate(plan.texts) : [], options);
}

/**
 * The target as it is searched: lower-cased one UTF-16 unit at a time (so offsets stay those of the
 * target), and every tag blanked out with NUL, so that no located phrase runs across one.
 */
function searchView(target: string): string {
  let out = '';
  for (const part of parseTagged(target)) {
    out += part.type === 'tag' ? '\0'.repeat(part.raw.length) : fold(part.text);
  }
  return out;
}

function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : ch;
  }
  return out;
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const WORDS = /[\p{L}\p{M}\p{N}]+/gu;

/** The one place `phrase` occurs in the view: exactly on word boundaries, else by stemmed words; null if not once. */
function locate(view: string, phrase: string, stemming: boolean): { start: number; end: number } | null {
  const hits = locateAll(view, phrase, stemming);
  return hits.length === 1 ? hits[0] : null;
}

/** Where `phrase` occurs in the view: exactly on word boundaries, else (none exactly) by stemmed words. */
function locateAll(view: string, phrase: string, stemming: boolean): { start: number; end: number }[] {
  const needle = fold(phrase);
  const found: { start: number; end: number }[] = [];
  for (let i = view.indexOf(needle); i >= 0; i = view.indexOf(needle, i + 1)) {
    const before = i > 0 && WORD_CHAR.test(view[i - 1]) && WORD_CHAR.test(needle[0]);
    const end = i + needle.length;
    const after = end < view.length && WORD_CHAR.test(view[end]) && WORD_CHAR.test(needle[needle.length - 1]);
    if (!before && !after) found.push({ start: i, end });
  }
  if (found.length > 0 || !stemming) return found;
  const want = [...needle.matchAll(WORDS)].map((m) => m[0]);
  // Only a phrase made of words and spaces is matched by its words: one with punctuation or placeholders
  // would lose them.
  if (want.length === 0 || needle.replace(WORDS, '').trim() !== '') return found;
  const have = [...view.matchAll(WORDS)];
  for (let i = 0; i + want.length <= have.length; i++) {
    let ok = true;
    for (let k = 0; k < want.length && ok; k++) {
      ok = sameStem(have[i + k][0], want[k]);
      // Words of one phrase are next to each other: only spaces between them.
      if (ok && k > 0) {
        const gap = view.slice(have[i + k - 1].index + have[i + k - 1][0].length, have[i + k].index);
        ok = gap.trim() === '';
      }
    }
    if (!ok) continue;
    const lastWord = have[i + want.length - 1];
    found.push({ start: have[i].index, end: lastWord.index + lastWord[0].length });
  }
  return found;
}

/**
 * The MT of σ′ inflected as the target inflects the MT of σ, where the target's words were found by their
 * stems: a word the engine gave as "copia" that the target has as "copiar" (an English bare verb is an
 * imperative to the engine, an infinitive to a translator of software) makes the engine's "rebautiza"
 * "rebautizar". Word by word when the three have as many words: a word σ′ shares with σ (an anchor) is
 * the target's own; a changed word whose ending is the engine's gets the target's ending instead.
 */
export function inflectedLike(found: string, from: string, to: string): string {
  const f = [...found.matchAll(WORDS)].map((m) => m[0]);
  const m = [...from.matchAll(WORDS)].map((x) => x[0]);
  const t = [...to.matchAll(WORDS)];
  if (f.length !== m.length || t.length !== m.length) return to;
  let out = '';
  let last = 0;
  for (const [k, w] of t.entries()) {
    out += to.slice(last, w.index);
    last = w.index + w[0].length;
    const word = w[0];
    const same = fold(word) === fold(m[k]);
    if (same || fold(f[k]) === fold(m[k])) {
      out += same ? f[k] : word;
      continue;
    }
    let p = 0;
    while (p < f[k].length && p < m[k].length && fold(f[k][p]) === fold(m[k][p])) p++;
    const engineEnding = m[k].slice(p);
    const targetEnding = f[k].slice(p);
    out +=
      word.endsWith(engineEnding) && engineEnding.length <= 3 && targetEnding.length <= 3
        ? word.slice(0, word.length - engineEnding.length) + targetEnding
        : word;
  }
  return out + to.slice(last);
}

/**
 * The part of a projected span that the MT's change covers: the MT of σ and of σ′ share leading and
 * trailing words (the engine's anchors); where the span starts and ends with the same words (by stem), only
 * what lies between them is replaced, by what lies between them in the MT of σ′ — the translator's own
 * anchors stay. Null when the span's edges are not the engine's.
 */
export function narrowed(
  target: string,
  at: { start: number; end: number },
  from: string,
  to: string,
): { start: number; end: number; text: string } | null {
  const f = [...fold(from).matchAll(WORDS)].map((m) => m[0]);
  const t = [...to.matchAll(WORDS)];
  const tf = t.map((m) => fold(m[0]));
  const span = target.slice(at.start, at.end);
  const s = [...span.matchAll(WORDS)];
  const sf = s.map((m) => fold(m[0]));
  let k = 0;
  while (k < f.length && k < tf.length && f[k] === tf[k]) k++;
  let l = 0;
  while (l < f.length - k && l < tf.length - k && f[f.length - 1 - l] === tf[tf.length - 1 - l]) l++;
  if (k + l === 0 || k + l > sf.length) return null;
  for (let i = 0; i < k; i++) if (!sameStem(sf[i], tf[i])) return null;
  for (let i = 0; i < l; i++) if (!sameStem(sf[sf.length - 1 - i], tf[tf.length - 1 - i])) return null;
  const cut = (words: RegExpExecArray[], text: string) => ({
    start: k === 0 ? 0 : words[k - 1].index + words[k - 1][0].length,
    end: l === 0 ? text.length : words[words.length - l].index,
  });
  const a = cut(s, span);
  const b = cut(t, to);
  return { start: at.start + a.start, end: at.start + a.end, text: to.slice(b.start, b.end) };
}

/** How many placeholders a text holds. */
function placeholders(text: string): number {
  let n = 0;
  scanTokens(text, (type) => {
    if (type === 'placeholder') n++;
  });
  return n;
}

/** Whether a text opens and closes its brackets and quotes alike: a patch may not cut a pair apart. */
function balanced(text: string): boolean {
  const count = (ch: string) => text.split(ch).length - 1;
  for (const [open, close] of ['()', '[]', '{}', '«»', '“”', '‘’']) {
    if (count(open) !== count(close)) return false;
  }
  return count('"') % 2 === 0;
}

/**
 * Whether a target span keeps the engine's context: every word the MT of σ′ shares with the MT of σ (the
 * engine's rendering of the anchors) is in the span, by its stem, and there is at least one.
 */
export function contextKept(span: string, from: string, to: string): boolean {
  const have = [...fold(span).matchAll(WORDS)].map((m) => m[0]);
  const before = new Set([...fold(from).matchAll(WORDS)].map((m) => m[0]));
  const shared = [...fold(to).matchAll(WORDS)].map((m) => m[0]).filter((w) => before.has(w));
  return shared.length > 0 && shared.every((w) => have.some((h) => sameStem(h, w)));
}

/** Equal words, or words sharing a stem of at least four letters that leaves at most three letters each. */
export function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  return p >= 4 && a.length - p <= 3 && b.length - p <= 3;
}

/**
 * The MT of σ′ with the case its place asks. The engine capitalizes a phrase as its source phrase is, which
 * says little about the place in the target: at the target's start the patch starts as the segment's source
 * starts (upper or lower case), elsewhere as the word it replaces does — unless the new phrase starts with
 * a name or an acronym (a capital after its first letter: "D-Bus", "ETIR"), which keeps its case.
 */
function withCaseOf(target: string, at: number, text: string, toSource: string, source: string): string {
  const first = text[0];
  if (!first || first.toLowerCase() === first.toUpperCase()) return text;
  const firstWord = /^[\p{L}\p{M}\p{N}_-]+/u.exec(toSource)?.[0] ?? '';
  if (/\p{Lu}/u.test(firstWord.slice(1))) return text;
  const startsText = plainBefore(target, at).trim() === '';
  const replacedWord = /^[\p{L}\p{M}\p{N}_-]+/u.exec(target.slice(at))?.[0] ?? '';
  // A replaced acronym ("MSA") says nothing of the case of what replaces it: the segment's phrase does.
  const model = startsText
    ? (/\p{L}/u.exec(source)?.[0] ?? first)
    : /\p{Lu}/u.test(replacedWord.slice(1))
      ? toSource[0]
      : target[at];
  if (model.toLowerCase() === model.toUpperCase()) return text;
  const upper = model !== model.toLowerCase();
  return (upper ? first.toUpperCase() : first.toLowerCase()) + text.slice(1);
}

/** The target's text before an offset, without its tags. */
function plainBefore(target: string, at: number): string {
  return parseTagged(target.slice(0, at))
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('');
}

/**
 * The stretch of `next` that differs from `previous`, word by word (the common leading and trailing words
 * trimmed): what the highlight marks. Null when no word was added (a pure deletion).
 */
export function changedWords(previous: string, next: string): ChangedSpan | null {
  const a = [...fold(previous).matchAll(WORDS)].map((m) => m[0]);
  const b = [...next.matchAll(WORDS)];
  const bn = b.map((m) => fold(m[0]));
  let head = 0;
  while (head < a.length && head < bn.length && a[head] === bn[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < bn.length - head &&
    a[a.length - 1 - tail] === bn[bn.length - 1 - tail]
  ) {
    tail++;
  }
  if (head + tail >= b.length) return null;
  const lastWord = b[b.length - 1 - tail];
  return { start: b[head].index, end: lastWord.index + lastWord[0].length };
}
