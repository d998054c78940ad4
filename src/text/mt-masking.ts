// What a machine translation engine is sent instead of a segment's tags and placeholders, and how its
// answer is read back. Engines translate words; a tag's attributes or a `{0}` in their input come back
// translated, respaced or dropped (Apertium marks `%s` as an unknown word: `%*s`). So every tag and
// placeholder is replaced by a short XML element that the engines keep as markup (Apertium's html format,
// DeepL's and Google's tag handling): a paired tag by `<gN>…</gN>` — the engine may move it with the words it
// wraps — and everything else by `<xN/>`. The text between is XML-escaped. The answer is restored only
// when every element comes back exactly once and the pairs still nest; otherwise it is refused, never shown
// with a tag lost or misplaced.
//
// Termbase terms (src/modules/mt/termbase.ts) ride on the same mechanism: a recognized source term whose
// target term is fixed is sent as one more `<xN/>` and the target term is what the element is restored to.
// The engine never sees the word, so it cannot mistranslate it — but it cannot inflect around it either
// (an article's gender, an adjective's agreement): that is the price of a frozen term.
import { pairTags, parseTagged } from './inline-tags.ts';
import { placeablesOf } from './placeables.ts';
import { targetTagProblem } from './tag-check.ts';

export interface MaskedText {
  /** What the engine is sent. */
  masked: string;
  /** The original characters of each element, by its number (slot N is `<gN>` / `<xN/>`). */
  slots: MaskSlot[];
}

export interface MaskSlot {
  kind: 'pair' | 'single';
  /** Set for a protected term: `raw` is then its target term, what the element is restored to. */
  term?: true;
  /** For a pair, its open tag; for a single, the tag or placeholder. */
  raw: string;
  /** For a pair, its close tag. */
  close?: string;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** A span of the tagged source (UTF-16 offsets, tags included) to send as an element and restore as `target`. */
export interface ProtectedSpan {
  start: number;
  end: number;
  target: string;
}

/**
 * Masks a tagged segment for an engine. Numbers stay: engines localize them well enough, and QA checks them.
 * `protect` spans that cross a tag or a placeholder are left as words.
 */
export function maskForMt(tagged: string, protect: readonly ProtectedSpan[] = []): MaskedText {
  const parts = parseTagged(tagged);
  const partners = pairTags(parts);
  const slots: MaskSlot[] = [];
  const slotOfOpen = new Map<number, number>();
  let masked = '';
  let offset = 0;
  for (const [i, part] of parts.entries()) {
    if (part.type === 'text') {
      const start = offset;
      offset += part.text.length;
      const inside = protect
        .filter((p) => p.start >= start && p.end <= offset && p.end > p.start)
        .map((p) => ({ start: p.start - start, end: p.end - start, target: p.target }));
      masked += maskPlaceholders(part.text, slots, inside);
      continue;
    }
    offset += part.raw.length;
    const partner = partners.get(i);
    if (part.form === 'open' && partner !== undefined) {
      const close = parts[partner];
      slots.push({ kind: 'pair', raw: part.raw, close: close.type === 'tag' ? close.raw : '' });
      slotOfOpen.set(partner, slots.length);
      masked += `<g${slots.length}>`;
    } else if (part.form === 'close' && slotOfOpen.has(i)) {
      masked += `</g${slotOfOpen.get(i)}>`;
    } else {
      slots.push({ kind: 'single', raw: part.raw });
      masked += `<x${slots.length}/>`;
    }
  }
  return { masked, slots };
}

function maskPlaceholders(text: string, slots: MaskSlot[], terms: readonly ProtectedSpan[]): string {
  const spans: { start: number; end: number; slot: MaskSlot }[] = [];
  for (const p of placeablesOf(text)) {
    if (p.kind !== 'placeholder') continue;
    spans.push({ start: p.start, end: p.end, slot: { kind: 'single', raw: p.text } });
  }
  for (const t of terms) {
    // A term overlapping a placeholder or another term stays words: the placeholder must come back whole.
    if (spans.some((s) => s.start < t.end && t.start < s.end)) continue;
    spans.push({ start: t.start, end: t.end, slot: { kind: 'single', raw: t.target, term: true } });
  }
  spans.sort((a, b) => a.start - b.start);
  let out = '';
  let last = 0;
  for (const s of spans) {
    out += escapeText(text.slice(last, s.start));
    slots.push(s.slot);
    out += `<x${slots.length}/>`;
    last = s.end;
  }
  return out + escapeText(text.slice(last));
}

const ELEMENT = /<g(\d+)>|<\/g(\d+)>|<x(\d+)\s*\/>/g;

/**
 * The engine's answer with the source's tags and placeholders put back, or null when that cannot be done
 * faithfully: an element missing, repeated or invented, a pair closed before it opens or crossing another,
 * stray markup, or a result whose tags the segment's own check refuses.
 */
export function unmaskMt(source: string, mask: MaskedText, translated: string): string | null {
  const seen = new Set<number>();
  const open: number[] = [];
  let out = '';
  let last = 0;
  ELEMENT.lastIndex = 0;
  for (let m = ELEMENT.exec(translated); m; m = ELEMENT.exec(translated)) {
    const between = translated.slice(last, m.index);
    if (between.includes('<')) return null;
    out += unescapeText(between);
    last = m.index + m[0].length;
    const n = Number(m[1] ?? m[2] ?? m[3]);
    const slot = mask.slots[n - 1];
    if (!slot) return null;
    if (m[1] !== undefined) {
      if (slot.kind !== 'pair' || seen.has(n)) return null;
      seen.add(n);
      open.push(n);
      out += slot.raw;
    } else if (m[2] !== undefined) {
      if (open.pop() !== n) return null;
      out += slot.close;
    } else {
      if (slot.kind !== 'single' || seen.has(n)) return null;
      seen.add(n);
      out += slot.raw;
    }
  }
  const rest = translated.slice(last);
  if (rest.includes('<')) return null;
  out += unescapeText(rest);
  if (open.length > 0 || seen.size !== mask.slots.length) return null;
  return targetTagProblem(source, out) === null ? out : null;
}
