// Streaming XML writing: escaping that XML 1.0 can always hold, tag helpers, and ~64 KB output chunks.

import { escapeXmlAttr, escapeXmlText } from '../text/inline-tags.ts';

// Characters XML 1.0 cannot carry even as references (C0 controls but tab/LF/CR, U+FFFE/U+FFFF, lone
// surrogates), and CR, which a parser would turn into LF unless it is written as a reference.
const NEEDS_CLEANING = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\r\uFFFE\uFFFF\uD800-\uDFFF]/;
const CLEAN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\r/g;

/**
 * Makes markup that is already escaped safe to write: CR becomes &#13; so it survives a parser's
 * line-end normalisation; characters XML cannot hold at all become U+FFFD.
 */
export function cleanXml(markup: string): string {
  if (!NEEDS_CLEANING.test(markup)) return markup;
  return markup.replace(CLEAN, (c) => (c === '\r' ? '&#13;' : '\uFFFD'));
}

/** Element content for literal text. */
export function xmlText(text: string): string {
  return cleanXml(escapeXmlText(text));
}

/** A double-quoted attribute value's content for literal text. */
export function xmlAttr(value: string): string {
  return cleanXml(escapeXmlAttr(value));
}

export type XmlAttrs = Record<string, string | number | undefined>;

/** `<name a="v">`, or `<name a="v"/>` when empty; undefined attributes are left out. */
export function startTag(name: string, attrs: XmlAttrs = {}, empty = false): string {
  let out = `<${name}`;
  for (const key in attrs) {
    const value = attrs[key];
    if (value !== undefined) out += ` ${key}="${xmlAttr(String(value))}"`;
  }
  return out + (empty ? '/>' : '>');
}

export function endTag(name: string): string {
  return `</${name}>`;
}

/** `<name a="v">text</name>` with the text escaped. */
export function textElement(name: string, attrs: XmlAttrs, text: string): string {
  return startTag(name, attrs) + xmlText(text) + endTag(name);
}

const CHUNK_SIZE = 64 * 1024;

/**
 * Collects output strings into chunks of about 64 KB, so a generator yields (and a stream writes) once
 * per chunk rather than once per element: `w.write(…); if (w.full) yield w.take();`.
 */
export class XmlChunks {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly chunkSize = CHUNK_SIZE) {}

  write(markup: string): void {
    this.parts.push(markup);
    this.length += markup.length;
  }

  get full(): boolean {
    return this.length >= this.chunkSize;
  }

  /** The collected output as one string, emptying the buffer. */
  take(): string {
    const chunk = this.parts.join('');
    this.parts = [];
    this.length = 0;
    return chunk;
  }
}
