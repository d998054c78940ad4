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
import {
  type DiffBlock,
  type DiffWord,
  type WordDifferences,
  wordDifferences,
} from '../../matching/word-differences.ts';
import { parseTagged } from '../../text/inline-tags.ts';

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
      candidates.push({ anchoring, from: textIndex(from), to: textIndex(to), toSource: to });
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
  const free = (start: number, end: number) =>
    !patches.some(
      (p) => (start < p.end && p.start < end) || (start === end && p.start < start && start < p.end),
    );
  for (const candidates of plan.blocks) {
    for (const c of candidates) {
      const from = translations[c.from]?.trim();
      const to = translations[c.to]?.trim();
      if (!from || to === undefined) continue;
      const at = locate(view, from, options.stemming ?? true);
      if (at === null) continue;
      // Two differences claiming one stretch of the target would patch each other's words: the first keeps it.
      if (free(at.start, at.end)) {
        patches.push({
          ...at,
          text: withCaseOf(
            target,
            at.start,
            inflectedLike(target.slice(at.start, at.end), from, to),
            c.toSource,
            plan.diff.query,
          ),
          mark: 'words',
        });
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
  return { target: out, changes, differences: differencesOf(plan.diff), patched: patches.length };
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
  const needle = fold(phrase);
  const found: number[] = [];
  for (let i = view.indexOf(needle); i >= 0 && found.length < 2; i = view.indexOf(needle, i + 1)) {
    const before = i > 0 && WORD_CHAR.test(view[i - 1]) && WORD_CHAR.test(needle[0]);
    const end = i + needle.length;
    const after = end < view.length && WORD_CHAR.test(view[end]) && WORD_CHAR.test(needle[needle.length - 1]);
    if (!before && !after) found.push(i);
  }
  if (found.length === 1) return { start: found[0], end: found[0] + needle.length };
  if (found.length > 1 || !stemming) return null;
  const want = [...needle.matchAll(WORDS)].map((m) => m[0]);
  // Only a phrase made of words and spaces is matched by its words: one with punctuation or placeholders
  // would lose them.
  if (want.length === 0 || needle.replace(WORDS, '').trim() !== '') return null;
  const have = [...view.matchAll(WORDS)];
  let hit: { start: number; end: number } | null = null;
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
    if (hit) return null;
    const lastWord = have[i + want.length - 1];
    hit = { start: have[i].index, end: lastWord.index + lastWord[0].length };
  }
  return hit;
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
