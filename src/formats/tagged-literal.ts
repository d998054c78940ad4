// Conversion between a format's literal string and tagged text, for formats whose strings hold no markup.
//
// Placeholders become <ph> codes so translators cannot break them. Literal text that happens to spell an
// inline element (`H<sub>2</sub>O`, a stray `<x/>`) is wrapped in <ph> too: left as is it would read as
// markup, be exported as XLIFF elements, and not come back byte for byte.

import { makeTag, nativeCode, parseTagged } from '../text/inline-tags.ts';

export interface LiteralOptions {
  /** Global pattern of placeholders to protect, e.g. /\{\{[^{}]*\}\}/g. */
  protect?: RegExp;
  /** The native code a protected piece stands for in the file (default: the piece itself). */
  native?: (piece: string) => string;
  /** Shared numbering when the caller adds tags of its own to the same unit: the last id used. */
  ids?: { last: number };
  /** Told of every `<ph>` made, with its id and native code, by a caller that records what tags stand for. */
  onCode?: (id: string, native: string) => void;
}

/** Tagged text for a literal string; taggedToLiteral() of the result gives the string back. */
export function literalToTagged(text: string, options: LiteralOptions = {}): string {
  const native = options.native ?? ((s: string) => s);
  const ids = options.ids ?? { last: 0 };
  const ph = (piece: string) => {
    const id = String(++ids.last);
    const code = native(piece);
    options.onCode?.(id, code);
    return makeTag('code', 'ph', { id }, code).raw;
  };
  const wrapLookalikes = (chunk: string) =>
    parseTagged(chunk)
      .map((p) => (p.type === 'text' ? p.text : ph(p.raw)))
      .join('');
  if (!options.protect) return wrapLookalikes(text);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(options.protect)) {
    out += wrapLookalikes(text.slice(last, m.index)) + ph(m[0]);
    last = m.index + m[0].length;
  }
  return out + wrapLookalikes(text.slice(last));
}

/** The literal string for tagged text: code elements give their native code, other tags stay as written. */
export function taggedToLiteral(tagged: string): string {
  let out = '';
  for (const p of parseTagged(tagged)) {
    if (p.type === 'text') out += p.text;
    else out += p.form === 'code' ? nativeCode(p) : p.raw;
  }
  return out;
}
