// XLIFF inline markup (parser events of one source/target/mrk) → tagged text; the inverse of xliff-inline.ts.

import { makeTag, parseTagged } from '../../text/inline-tags.ts';
import { escapeXmlText, unescapeXml } from '../../xml/xml-escape.ts';
import type { XmlElement } from '../../xml/xml-scan.ts';
import { UNPAIRED_TAG_CTYPE } from './xliff-inline.ts';

/** Namespaces of XLIFF 1.0–1.2 ("" for the namespace-less 1.0/1.1 files). */
export const XLIFF_1_NAMESPACES = new Set([
  'urn:oasis:names:tc:xliff:document:1.2',
  'urn:oasis:names:tc:xliff:document:1.1',
  'urn:oasis:names:tc:xliff:document:1.0',
  '',
]);

const CODE = new Set(['bpt', 'ept', 'ph', 'it']);
const PAIRED = new Set(['g', 'mrk', 'sub']);
const EMPTY = new Set(['x', 'bx', 'ex']);

/**
 * Collects tagged text from the events inside one element. Inline elements become tags of the model with
 * their attributes in document order; the content of code elements stays XML-escaped native code; an element
 * XLIFF does not define inline is kept whole as the native code of a `<ph>`.
 */
export class TaggedTextReader {
  private out = '';
  private code: { el: XmlElement; content: string; depth: number } | null = null;
  private foreign: { start: number; depth: number } | null = null;
  private foreignCount = 0;

  constructor(private readonly source: string) {}

  open(el: XmlElement): void {
    if (this.foreign) {
      this.foreign.depth++;
      return;
    }
    const known =
      XLIFF_1_NAMESPACES.has(el.uri) && (CODE.has(el.local) || PAIRED.has(el.local) || EMPTY.has(el.local));
    if (this.code) {
      // Inside native code (sub and what sub holds), markup is kept as escaped XML of the code's content.
      this.code.depth++;
      this.code.content += makeTag(el.selfClosing ? 'empty' : 'open', el.local, el.attrs).raw;
    } else if (!known) this.foreign = { start: el.start, depth: 0 };
    else if (CODE.has(el.local)) this.code = { el, content: '', depth: 0 };
    else if (EMPTY.has(el.local) || el.selfClosing) this.out += makeTag('empty', el.local, el.attrs).raw;
    else this.out += makeTag('open', el.local, el.attrs).raw;
  }

  close(el: XmlElement, end: number): void {
    if (this.foreign) {
      if (this.foreign.depth-- > 0) return;
      const raw = this.source.slice(this.foreign.start, end);
      this.out += makeTag('code', 'ph', { id: `f${++this.foreignCount}` }, raw).raw;
      this.foreign = null;
    } else if (this.code) {
      if (this.code.depth > 0) {
        this.code.depth--;
        if (!el.selfClosing) this.code.content += `</${el.local}>`;
        return;
      }
      this.out += this.codeTag(this.code.el, this.code.content);
      this.code = null;
    } else if (PAIRED.has(el.local) && !el.selfClosing && XLIFF_1_NAMESPACES.has(el.uri)) {
      this.out += `</${el.local}>`;
    }
  }

  text(text: string): void {
    if (this.foreign) return;
    if (this.code) this.code.content += escapeXmlText(text);
    else this.out += text;
  }

  result(): string {
    return this.out;
  }

  private codeTag(el: XmlElement, content: string): string {
    if (el.local === 'ph' && el.attrs.ctype === UNPAIRED_TAG_CTYPE) {
      // Our writer's wrapping of an unpaired tag: give back the tag itself.
      const raw = unescapeXml(content);
      const parts = parseTagged(raw);
      if (
        parts.length === 1 &&
        parts[0].type === 'tag' &&
        (parts[0].form === 'open' || parts[0].form === 'close')
      ) {
        return raw;
      }
    }
    const open = makeTag('open', el.local, el.attrs).raw;
    return `${open}${content}</${el.local}>`;
  }
}
