// Units over a source string whose tags stand for ranges of native markup, written back by splicing.
//
// Used by the HTML, Markdown and DOCX filters. Extraction records, for every tag id of a unit, which range
// of the original its native markup occupies; merge replaces each translated unit's range with the
// translation (an edit for applyEdits in filter.ts), writing each tag's native range back in the
// translation's order. Edits may nest (an attribute unit inside the start tag of an element that is itself a
// tag of a translated paragraph): a native range is always rendered with the edits inside it applied.

import { type InlinePart, makeTag, pairTags, parseTagged, type TagPart } from '../text/inline-tags.ts';
import type { Range } from './filter.ts';
import { literalToTagged } from './tagged-literal.ts';

/** What a tag id of a unit stands for in the original. */
export type NativeTag =
  | { kind: 'paired'; open: Range; close: Range }
  | { kind: 'placeholder'; range: Range }
  /** Text that spells a tag of the model, protected as a ph: written back as this (escaped) text. */
  | { kind: 'literal'; text: string };

export interface NativeUnit {
  range: Range;
  tags: Map<string, NativeTag>;
}

/** Builds a unit's tagged text, numbering tags 1, 2, … and recording their native ranges. */
export class NativeUnitBuilder {
  private out = '';
  private readonly ids = { last: 0 };
  readonly tags = new Map<string, NativeTag>();

  /** Plain text; pieces that spell a tag of the model become ph codes that give the text back. */
  text(text: string, escapeNative: (s: string) => string): void {
    this.out += literalToTagged(text, {
      ids: this.ids,
      onCode: (id, native) => this.tags.set(id, { kind: 'literal', text: escapeNative(native) }),
    });
  }

  /** Opens a `<g>`; returns the id to close it with. */
  open(open: Range, close: Range, attrs: Record<string, string> = {}): string {
    const id = String(++this.ids.last);
    this.tags.set(id, { kind: 'paired', open, close });
    this.out += makeTag('open', 'g', { id, ...attrs }).raw;
    return id;
  }

  close(): void {
    this.out += '</g>';
  }

  /** An `<x/>` standing for a native range. */
  placeholder(range: Range, attrs: Record<string, string> = {}): void {
    const id = String(++this.ids.last);
    this.tags.set(id, { kind: 'placeholder', range });
    this.out += makeTag('empty', 'x', { id, ...attrs }).raw;
  }

  /** A `<ph>` showing its native code to the translator (inline code, comments). */
  code(range: Range, native: string, attrs: Record<string, string> = {}): void {
    const id = String(++this.ids.last);
    this.tags.set(id, { kind: 'placeholder', range });
    this.out += makeTag('code', 'ph', { id, ...attrs }, native).raw;
  }

  get tagged(): string {
    return this.out;
  }
}

/**
 * The native form of a translation: text escaped for the format, tags replaced by their native ranges.
 * Tags the unit does not know, and `<g>` opens/closes that do not pair up, are dropped; placeholders the
 * translation left out are appended at the end, so no native content (an image, a line break) is lost.
 */
export function renderTranslation(
  translation: string,
  unit: NativeUnit,
  /** Escapes a text part for the format; `before` is what the translation has produced up to it. */
  escapeText: (text: string, before: string) => string,
  render: (range: Range) => string,
): string {
  const parts = parseTagged(translation);
  const pairedIds = pairedGIds(parts, (id) => unit.tags.get(id)?.kind === 'paired');
  const used = new Set<string>();
  let out = '';
  parts.forEach((p, i) => {
    if (p.type === 'text') {
      out += escapeText(p.text, out);
      return;
    }
    const pairedId = pairedIds.get(i);
    if (pairedId !== undefined) {
      const native = unit.tags.get(pairedId) as Extract<NativeTag, { kind: 'paired' }>;
      out += render(p.form === 'open' ? native.open : native.close);
      return;
    }
    const native = unit.tags.get(p.attrs.id);
    if (native && native.kind !== 'paired' && (p.form === 'empty' || p.form === 'code')) {
      out += native.kind === 'literal' ? native.text : render(native.range);
      used.add(p.attrs.id);
    }
  });
  for (const [id, native] of unit.tags) {
    if (native.kind === 'placeholder' && !used.has(id)) out += render(native.range);
  }
  return out;
}

/** `<g>` open and close parts that nest properly and whose open's id `isPaired` accepts: part index → tag id. */
export function pairedGIds(
  parts: readonly InlinePart[],
  isPaired: (id: string) => boolean,
): Map<number, string> {
  const ids = new Map<number, string>();
  for (const [open, close] of pairTags(parts, (p) => p.name === 'g')) {
    const id = (parts[open] as TagPart).attrs.id;
    if (open < close && id !== undefined && isPaired(id)) ids.set(open, id).set(close, id);
  }
  return ids;
}
