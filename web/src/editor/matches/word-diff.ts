// The word diff of a memory match's source against the segment's source, from the scorer's own tokens and
// alignment (src/matching): the words it marks are exactly the edits the base score counts, and a word kept
// with other case or digits is the case or number penalty.
import { align } from '@server/matching/levenshtein.ts';
import { type PreparedText, prepareText } from '@server/matching/score.ts';
import type { TokenType } from '@server/matching/tokenize.ts';
import { nativeCode, parseTagged, type TagPart } from '@server/text/inline-tags.ts';
import { placeablesOf } from '@server/text/placeables.ts';
import { tagRole } from '@server/text/tag-labels.ts';

export type DiffKind = 'equal' | 'changed' | 'removed' | 'added';

export interface DiffPart {
  /** equal: in both; changed: aligned but written differently (case, digits, another tag in the same place);
   * removed: only in the match's source; added: only in this segment's source. */
  kind: DiffKind;
  type: TokenType;
  /** As the match's source writes it (this source's for added). */
  text: string;
  /** For changed: as this source writes it. */
  now?: string;
  /** UTF-16 offset of `text` in its own text (NFC): this source's for added, the match's otherwise. */
  start: number;
  /** For changed: the offset of `now` in this source (NFC). */
  nowStart?: number;
  /** What stands before it in its own text since the token before: spaces, line breaks, tabs (kept, not
   * collapsed, so that a text's layout reads in its diff); for the first token, the text's leading whitespace. */
  gap: string;
  /** For the last token of its own text: the whitespace after it. */
  trail?: string;
}

/** Token index pairs (in the query, in the candidate) that the scorer keeps, by token class. */
function alignedPairs(q: PreparedText, c: PreparedText): [number, number][] {
  const pairs: [number, number][] = [];
  const content = align(q.content, c.content).matches;
  for (let k = 0; k < content.length; k += 2)
    pairs.push([q.contentAt[content[k]], c.contentAt[content[k + 1]]]);
  // Punctuation and tags are aligned on their own, as their penalties are; they fill the gaps between words.
  // Tags align by the part they play (a match's <bpt> where this source has <g>: the same place, another
  // tag), since inserting the match maps them so (map-match-tags.ts).
  for (const type of ['punct', 'tag'] as const) {
    const qAt = indexesOf(q, type);
    const cAt = indexesOf(c, type);
    const key = (p: PreparedText, i: number) =>
      type === 'tag' ? roleOf(p.tokens[i].real) : p.tokens[i].norm;
    const m = align(
      qAt.map((i) => key(q, i)),
      cAt.map((i) => key(c, i)),
    ).matches;
    for (let k = 0; k < m.length; k += 2) {
      const pair: [number, number] = [qAt[m[k]], cAt[m[k + 1]]];
      if (fitsBetween(pairs, pair)) pairs.push(pair);
    }
  }
  return pairs.sort((a, b) => a[1] - b[1]);
}

/** open, close or alone for an inline tag; the raw text for HTML markup the tokenizer also counts as a tag. */
function roleOf(raw: string): string {
  const [part] = parseTagged(raw);
  return part?.type === 'tag' ? tagRole(part as TagPart) : raw;
}

function indexesOf(p: PreparedText, type: TokenType): number[] {
  const out: number[] = [];
  p.tokens.forEach((t, i) => {
    if (t.type === type) out.push(i);
  });
  return out;
}

/** A pair is kept only where it crosses none of the pairs already kept (the diff reads left to right). */
function fitsBetween(pairs: readonly [number, number][], [qi, ci]: [number, number]): boolean {
  return pairs.every(([q, c]) => (q < qi && c < ci) || (q > qi && c > ci));
}

export function wordDiff(matchSource: string, source: string): DiffPart[] {
  const q = prepareText(source);
  const c = prepareText(matchSource);
  const parts: DiffPart[] = [];
  const place = (p: PreparedText, i: number) => {
    const t = p.tokens[i];
    const gap = p.nfc.slice(i > 0 ? p.tokens[i - 1].end : 0, t.start);
    const last = i === p.tokens.length - 1 && t.end < p.nfc.length;
    return last ? { start: t.start, gap, trail: p.nfc.slice(t.end) } : { start: t.start, gap };
  };
  // As its text writes it (`real` has wide digits normalized).
  const textOf = (p: PreparedText, i: number) => p.nfc.slice(p.tokens[i].start, p.tokens[i].end);
  const push = (kind: DiffKind, p: PreparedText, i: number) => {
    const part: DiffPart = { kind, type: p.tokens[i].type, text: textOf(p, i), ...place(p, i) };
    // A word replacing a removed one stands beside it: the line break before them is drawn once.
    if (kind === 'added' && parts.at(-1)?.kind === 'removed' && /[\r\n]/.test(part.gap)) part.gap = ' ';
    parts.push(part);
  };
  let qi = 0;
  let ci = 0;
  for (const [qk, ck] of [...alignedPairs(q, c), [q.tokens.length, c.tokens.length] as [number, number]]) {
    for (; ci < ck; ci++) push('removed', c, ci);
    for (; qi < qk; qi++) push('added', q, qi);
    if (qk === q.tokens.length) break;
    const [x, y] = [q.tokens[qk], c.tokens[ck]];
    // A tag or placeholder is the same one however it is written (`{{count}}` typed, `<ph id="1">{{count}}</ph>`
    // protected by a filter): what the scorer compares is its key.
    const sameKey = (x.type === 'tag' || x.type === 'placeholder') && x.type === y.type && x.norm === y.norm;
    if (x.real === y.real || sameKey) push('equal', c, ck);
    else
      parts.push({
        kind: 'changed',
        type: y.type,
        text: textOf(c, ck),
        now: textOf(q, qk),
        nowStart: x.start,
        ...place(c, ck),
      });
    qi = qk + 1;
    ci = ck + 1;
  }
  return parts;
}

/**
 * A diff part's text as the editor shows a placeholder, or undefined when the text is not one placeholder: its
 * own text (`%s`), or for a placeholder a filter protected as a code element its native code
 * (`<ph id="1">{{count}}</ph>` → `{{count}}`), as the target editor draws it — never the markup.
 */
export function placeholderText(text: string): string | undefined {
  const found = placeablesOf(text);
  if (found.length !== 1 || found[0].kind !== 'placeholder' || found[0].text !== text) return undefined;
  const [part] = parseTagged(text);
  return part.type === 'tag' && part.form === 'code' ? nativeCode(part) : text;
}
