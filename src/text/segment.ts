// Sentence segmentation of one paragraph of tagged text: Intl.Segmenter corrected by per-language rules.
//
// Spans never include the whitespace between sentences, so a merge rebuilds the paragraph exactly from
// the text before the first span, the translated spans joined by the original gaps, and the text after.

import { type InlinePart, parseTagged, type TagPart } from './inline-tags.ts';
import { primaryLanguage } from './language-tags.ts';
import { type LanguageRules, OPENING_PUNCTUATION, SEGMENT_RULES } from './segment-rules.ts';
import { icuSentenceStarts } from './sentence-breaks.ts';
import { type SrxRules, srxCuts, srxFor } from './srx.ts';

export interface SentenceSpan {
  /** Offset of the sentence's first character in the tagged string. */
  start: number;
  /** Offset just after its last character. */
  end: number;
}

interface TagSpan {
  start: number;
  end: number;
  part: TagPart;
}

/** The paragraph's text with the tags taken out, and where each text character sits in the tagged string. */
interface PlainView {
  text: string;
  /** taggedIndex[i] is the offset in the tagged string of text[i]. */
  taggedIndex: number[];
  tags: TagSpan[];
  tagAt: Map<number, TagSpan>;
}

const segmenters = new Map<string, Intl.Segmenter>();
const compiledRules = new Map<string, { breaks: RegExp[]; noBreaks: RegExp[] }>();
const OPENER = new RegExp(`^${OPENING_PUNCTUATION}$`, 'u');
const NON_SPACE = /\S/;

/**
 * Sentence spans over a tagged paragraph; [] when it holds nothing but whitespace. With `srx` (a project's own
 * rules) those rules alone cut the text (srx.ts), instead of ICU corrected by the built-in rules.
 */
export function segmentSentences(tagged: string, lang: string, srx?: SrxRules): SentenceSpan[] {
  const first = tagged.search(NON_SPACE);
  if (first < 0) return [];
  const last = lastNonSpace(tagged, tagged.length) + 1;
  const view = plainView(tagged);
  if (!NON_SPACE.test(view.text)) return [{ start: first, end: last }];

  // Paired elements (<g>, <mrk>…) are XML structure that a segment cannot open without closing. The cuts'
  // ends only grow, so one pass over the pairs by their start tells whether an end falls inside one.
  const pairs = pairedRanges(view.tags).sort((a, b) => a.start - b.start);
  let pairCursor = 0;
  let pairsReach = -1;
  const insidePair = (end: number) => {
    while (pairCursor < pairs.length && pairs[pairCursor].start < end) {
      pairsReach = Math.max(pairsReach, pairs[pairCursor++].end);
    }
    return pairsReach > end;
  };
  const spaces = new SpaceScan(view.text);
  const spans: SentenceSpan[] = [];
  let start = first;
  let previousEnd = -1;
  let tagCursor = 0;
  for (const cut of sentenceCuts(view.text, lang, srx)) {
    const before = spaces.lastBefore(cut);
    const after = spaces.firstFrom(cut);
    if (before < 0 || after < 0 || before <= previousEnd) continue;
    const end = attachTrailingTags(view, view.taggedIndex[before] + 1);
    if (insidePair(end)) continue;
    spans.push({ start, end });
    const nextText = view.taggedIndex[after];
    while (tagCursor < view.tags.length && view.tags[tagCursor].start < end) tagCursor++;
    const looseTag = view.tags[tagCursor];
    start = looseTag && looseTag.start < nextText ? looseTag.start : nextText;
    previousEnd = before;
  }
  spans.push({ start, end: last });
  return spans;
}

function plainView(tagged: string): PlainView {
  const parts: InlinePart[] = parseTagged(tagged);
  const taggedIndex: number[] = [];
  const tags: TagSpan[] = [];
  let text = '';
  let offset = 0;
  for (const part of parts) {
    if (part.type === 'text') {
      for (let i = 0; i < part.text.length; i++) taggedIndex.push(offset + i);
      text += part.text;
      offset += part.text.length;
    } else {
      tags.push({ start: offset, end: offset + part.raw.length, part });
      offset += part.raw.length;
    }
  }
  return { text, taggedIndex, tags, tagAt: new Map(tags.map((t) => [t.start, t])) };
}

/**
 * Cut positions in the plain text, each right after a sentence's last character. Line breaks inside a
 * paragraph are wrapping, not paragraph ends, so ICU sees them as spaces.
 */
function sentenceCuts(text: string, lang: string, srx?: SrxRules): number[] {
  const flat = text.replace(/[\r\n\u0085\u2028\u2029]/g, ' ');
  if (srx) return srxCuts(srxFor(srx, lang), flat);
  const cuts = new Set<number>();
  for (const index of icuSentenceStarts(segmenterFor(lang), flat)) {
    let cut = index;
    while (cut > 0 && /\s/.test(flat[cut - 1])) cut--;
    if (cut === index) while (cut > 0 && OPENER.test(flat[cut - 1])) cut--;
    cuts.add(cut);
  }
  const rules = rulesFor(lang);
  for (const re of rules.breaks) for (const m of flat.matchAll(re)) cuts.add(m.index + m[0].length);
  for (const re of rules.noBreaks) for (const m of flat.matchAll(re)) cuts.delete(m.index + m[0].length);
  return [...cuts].filter((c) => c > 0 && c < flat.length).sort((a, b) => a - b);
}

/** Closing tags and standalone codes written right after a sentence's last character belong to it. */
function attachTrailingTags(view: PlainView, end: number): number {
  for (let tag = view.tagAt.get(end); tag && !opensSomething(tag.part); tag = view.tagAt.get(end))
    end = tag.end;
  return end;
}

function opensSomething(part: TagPart): boolean {
  if (part.form === 'open' || part.name === 'bpt' || part.name === 'bx') return true;
  return part.name === 'it' && (part.attrs.pos === 'begin' || part.attrs.pos === 'open');
}

/** Ranges from each properly nested paired open tag to the end of its close tag. */
function pairedRanges(tags: TagSpan[]): { start: number; end: number }[] {
  const stack: TagSpan[] = [];
  const ranges: { start: number; end: number }[] = [];
  for (const tag of tags) {
    if (tag.part.form === 'open') stack.push(tag);
    else if (tag.part.form === 'close') {
      const top = stack[stack.length - 1];
      if (top && top.part.name === tag.part.name) {
        stack.pop();
        ranges.push({ start: top.start, end: tag.end });
      }
    }
  }
  return ranges;
}

function segmenterFor(lang: string): Intl.Segmenter {
  let segmenter = segmenters.get(lang);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
    } catch {
      // A malformed language tag still gets the language-neutral rules rather than an error.
      segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
    }
    segmenters.set(lang, segmenter);
  }
  return segmenter;
}

function rulesFor(lang: string): { breaks: RegExp[]; noBreaks: RegExp[] } {
  const primary = primaryLanguage(lang);
  let compiled = compiledRules.get(primary);
  if (!compiled) {
    compiled = compileRules(SEGMENT_RULES[primary] ?? {});
    compiledRules.set(primary, compiled);
  }
  return compiled;
}

function compileRules(rules: LanguageRules): { breaks: RegExp[]; noBreaks: RegExp[] } {
  const breaks: RegExp[] = [];
  const noBreaks: RegExp[] = [];
  const rule = (before: string, after: string) => new RegExp(`(?:${before})(?=${after})`, 'gu');
  for (const r of rules.rules ?? []) (r.break ? breaks : noBreaks).push(rule(r.before, r.after));
  const abbreviation = (abbr: string, afterLast: string) => {
    const words = abbr.split(/\s+/).map(escapeRegExp);
    words.forEach((_, i) => {
      const before = `(?<![\\p{L}\\p{N}])${words.slice(0, i + 1).join('\\s*')}`;
      const after = i < words.length - 1 ? `\\s*${words.slice(i + 1).join('\\s*')}` : afterLast;
      noBreaks.push(rule(before, after));
    });
  };
  for (const abbr of rules.abbreviations ?? []) abbreviation(abbr, '');
  for (const abbr of rules.abbreviationsBeforeNumber ?? []) abbreviation(abbr, '\\s*\\p{N}');
  return { breaks, noBreaks };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The non-space characters around offsets asked in increasing order, each character read at most once each
 * way: a project's rules may cut at every position of a long run of spaces, and scanning the run again from
 * each cut took time in its square (20,000 spaces: 29 s).
 */
class SpaceScan {
  private lastAt = 0;
  private last = -1;
  private firstFromAt = -1;
  private first = -1;
  constructor(private readonly text: string) {}

  /** Offset of the last non-space character before `offset`, or -1. */
  lastBefore(offset: number): number {
    for (let i = offset - 1; i >= this.lastAt; i--) {
      if (!/\s/.test(this.text[i])) {
        this.last = i;
        break;
      }
    }
    this.lastAt = Math.max(this.lastAt, offset);
    return this.last;
  }

  /** Offset of the first non-space character at or after `offset`, or -1. */
  firstFrom(offset: number): number {
    const known =
      this.firstFromAt >= 0 && offset >= this.firstFromAt && (this.first < 0 || offset <= this.first);
    if (!known) {
      this.firstFromAt = offset;
      this.first = firstNonSpace(this.text, offset);
    }
    return this.first;
  }
}

function lastNonSpace(s: string, before: number): number {
  for (let i = before - 1; i >= 0; i--) if (!/\s/.test(s[i])) return i;
  return -1;
}

function firstNonSpace(s: string, from: number): number {
  for (let i = from; i < s.length; i++) if (!/\s/.test(s[i])) return i;
  return -1;
}
