// The word-level differences behind a match's score: the same content tokens and the same alignment as
// score.ts's base (prepareText, align), grouped into blocks of words that differ between two anchors. It
// is computed on demand for the few matches a caller repairs (src/modules/mt/repair.ts), never during
// retrieval: the engine's scoring path is untouched.
import { align } from './levenshtein.ts';
import { prepareText } from './score.ts';

/** A content token (word, number or placeholder) of a text: its norm and its UTF-16 offsets in the NFC text. */
export interface DiffWord {
  type: 'word' | 'number' | 'placeholder';
  norm: string;
  /** As written: a number's digits, a placeholder's spelling (aligned words may differ in it: `%d`, `%ld`). */
  real: string;
  start: number;
  end: number;
}

/**
 * Words that differ between two texts, between two aligned (equal) words or a text's edge: `query` words
 * [q0, q1) stand where the candidate has words [c0, c1). One side is empty for an insertion or a deletion.
 * Word q0 − 1 and c0 − 1 (when q0 > 0) are equal and aligned, as are q1 and c1 (when q1 < the length).
 */
export interface DiffBlock {
  q0: number;
  q1: number;
  c0: number;
  c1: number;
}

export interface WordDifferences {
  /** The NFC forms the offsets point into. */
  query: string;
  candidate: string;
  queryWords: DiffWord[];
  candidateWords: DiffWord[];
  blocks: DiffBlock[];
  /** The aligned (equal-norm) words, as pairs of indexes: [query word, candidate word]. */
  pairs: [number, number][];
}

export function wordDifferences(query: string, candidate: string): WordDifferences {
  const q = prepareText(query);
  const c = prepareText(candidate);
  const words = (p: typeof q): DiffWord[] =>
    p.contentAt.map((at, k) => {
      const t = p.tokens[at];
      const type = t.type === 'number' || t.type === 'placeholder' ? t.type : 'word';
      return { type, norm: p.content[k], real: t.real, start: t.start, end: t.end };
    });
  const { matches } = align(q.content, c.content);
  const blocks: DiffBlock[] = [];
  const pairs: [number, number][] = [];
  let qi = 0;
  let ci = 0;
  // Each aligned pair closes the gap before it; a sentinel pair at the ends closes the last one.
  for (let k = 0; k <= matches.length; k += 2) {
    const qm = k < matches.length ? matches[k] : q.content.length;
    const cm = k < matches.length ? matches[k + 1] : c.content.length;
    if (qm > qi || cm > ci) blocks.push({ q0: qi, q1: qm, c0: ci, c1: cm });
    if (k < matches.length) pairs.push([qm, cm]);
    qi = qm + 1;
    ci = cm + 1;
  }
  return { query: q.nfc, candidate: c.nfc, queryWords: words(q), candidateWords: words(c), blocks, pairs };
}
