// Streaming XML writing: tag helpers that escape what they write (xml-escape.ts), and ~64 KB output chunks.

import { xmlAttr, xmlText } from './xml-escape.ts';

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
