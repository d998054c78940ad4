// Lilt's `prefix` (interactive translation): the translator has typed the beginning of the target, and every
// suggestion must continue it. A suggestion that already starts with the prefix is kept as it is; a machine
// translation that does not is completed after it: the prefix's words are aligned to the translation's first
// words (a word-level edit distance, words compared without case), and the translation continues from the
// aligned point. A last word still being typed ("ca" of "casa") is completed from the translation's word it
// begins. Tags of the translation's part the prefix replaces move to where the continuation starts, in their
// order, so the suggestion keeps every tag of the source and stays well nested.
import { type InlinePart, parseTagged, plainText } from '../../text/inline-tags.ts';

const WORD = /[\p{L}\p{M}\p{N}_'’-]+|[^\s\p{L}\p{M}\p{N}_]/gu;
const WORD_CHAR_END = /[\p{L}\p{M}\p{N}_'’-]$/u;

/** Whitespace runs as one space: a prefix typed with a different spacing still matches. */
const spaced = (text: string) => text.replace(/\s+/gu, ' ');

/** Whether a suggestion's plain text already starts with the prefix. */
export function continuesPrefix(target: string, prefix: string): boolean {
  return spaced(plainText(target)).startsWith(spaced(prefix));
}

interface Token {
  word: string;
  /** Offsets in the tagged text. */
  start: number;
  end: number;
}

/** The words and punctuation of the tagged text's text parts, with their offsets in the tagged text. */
function tokensOf(parts: readonly InlinePart[]): {
  tokens: Token[];
  tagAt: { start: number; raw: string }[];
} {
  const tokens: Token[] = [];
  const tagAt: { start: number; raw: string }[] = [];
  let offset = 0;
  for (const part of parts) {
    if (part.type === 'text') {
      for (const m of part.text.matchAll(WORD)) {
        tokens.push({ word: m[0], start: offset + m.index, end: offset + m.index + m[0].length });
      }
      offset += part.text.length;
    } else {
      tagAt.push({ start: offset, raw: part.raw });
      offset += part.raw.length;
    }
  }
  return { tokens, tagAt };
}

const same = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

/**
 * The last two rows of the word edit distance between the prefix's words and the translation's: last[k] for
 * all the prefix's words against the translation's first k, before[k] for all but its last word. Words are
 * compared as numbers (one per spelling without case), two rows kept: the whole table of strings compared
 * cell by cell took 2.3 s and 300 MB for a prefix of 5,000 "." (the API's limit) against as many words.
 */
function lastRows(
  prefix: readonly string[],
  words: readonly string[],
): { last: Int32Array; before: Int32Array } {
  const ids = new Map<string, number>();
  const idOf = (word: string) => {
    const key = word.toLocaleLowerCase();
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  const p = prefix.map(idOf);
  const w = words.map(idOf);
  const n = w.length;
  let before = new Int32Array(n + 1);
  let last = new Int32Array(n + 1);
  for (let k = 0; k <= n; k++) last[k] = k;
  for (let i = 1; i <= p.length; i++) {
    const row = before;
    before = last;
    last = row;
    last[0] = i;
    const typed = p[i - 1];
    for (let k = 1; k <= n; k++) {
      const replaced = before[k - 1] + (typed === w[k - 1] ? 0 : 1);
      const inserted = last[k - 1] + 1;
      const deleted = before[k] + 1;
      const low = replaced < inserted ? replaced : inserted;
      last[k] = low < deleted ? low : deleted;
    }
  }
  return { last, before };
}

/** The k of the least cost in row; among equals the last (a replaced word rather than one inserted). */
function bestCut(row: Int32Array): number {
  let best = 0;
  for (let k = 1; k < row.length; k++) if (row[k] <= row[best]) best = k;
  return best;
}

/**
 * The tagged translation continuing the prefix (plain text, as typed): the translation itself when it
 * starts with the prefix, else the prefix followed by the translation from the point its words align to.
 */
export function completeAfterPrefix(prefix: string, translation: string): string {
  if (prefix === '' || continuesPrefix(translation, prefix)) return translation;
  const parts = parseTagged(translation);
  const { tokens, tagAt } = tokensOf(parts);
  const typed = [...prefix.matchAll(WORD)].map((m) => m[0]);
  // Only the translation's first 2n + 1 words can align to n typed words: aligning to word k costs at least
  // k - n insertions, more than the n of aligning to none once k > 2n (so neither cut below chooses it).
  const words = tokens.slice(0, 2 * typed.length + 1).map((t) => t.word);
  const { last, before } = lastRows(typed, words);
  // Whole words: continue after the translation's word the prefix's last word aligns to.
  let cut = bestCut(last);
  let completion = '';
  let at = cut === 0 ? 0 : tokens[cut - 1].end;
  // A last word still being typed: complete it from a translation word it begins, when that aligns as well.
  const partial = WORD_CHAR_END.test(prefix) ? typed[typed.length - 1] : undefined;
  if (partial !== undefined) {
    let best: number | undefined;
    for (let k = 0; k < words.length; k++) {
      const word = tokens[k].word;
      if (word.length <= partial.length || !same(word.slice(0, partial.length), partial)) continue;
      if (best === undefined || before[k] < before[best]) best = k;
    }
    if (best !== undefined && before[best] <= last[cut]) {
      cut = best + 1;
      completion = tokens[best].word.slice(partial.length);
      at = tokens[best].end;
    }
  }
  let rest = translation.slice(at);
  if (completion === '') {
    // What separates the prefix from the continuation: the translation's own spacing, or one space.
    const gap = /^\s*/u.exec(rest)![0];
    rest = rest.slice(gap.length);
    const joint =
      /\s$/u.test(prefix) || rest === '' || /^[.,;:!?)\]}…]/u.test(plainText(rest)) ? '' : gap || ' ';
    rest = joint + rest;
  }
  // The tags of the part the prefix replaces, in their order, where the continuation starts.
  const moved = tagAt.filter((t) => t.start < at).map((t) => t.raw);
  return prefix + completion + moved.join('') + rest;
}
