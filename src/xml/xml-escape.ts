// XML escaping, the one place for it: the plain escapes of tagged text, and the safe ones for writing documents.
//
// Tagged text (src/text/inline-tags.ts) keeps its code content and attribute values with only the markup
// characters escaped, whatever else they hold. A document written out must also be readable back as the same
// text, so xmlText() and xmlAttr() additionally write CR as a reference and replace what XML 1.0 cannot hold.

export function escapeXmlText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

export function escapeXmlAttr(s: string): string {
  return s.replace(/[&<>"\n\r\t]/g, (c) => XML_ATTR_ESCAPES[c]);
}

const XML_ATTR_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\t': '&#9;',
};

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function unescapeXml(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e[0] !== '#') return NAMED_ENTITIES[e];
    return String.fromCodePoint(
      e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10),
    );
  });
}

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
