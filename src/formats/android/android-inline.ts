// Android string content ↔ tagged text.
//
// Text is shown with XML entities decoded but Android's own escapes (\' \" \n \@ \uXXXX) kept as written,
// so translators see what they must type and merge needs no re-escaping. Inline markup becomes codes whose
// native form is the markup as written: <b>…</b> a bpt/ept pair, <br/>, comments and whole
// <xliff:g>…</xliff:g> placeholders (their content must not be translated) a ph. %1$s and %d stay text:
// the matcher treats them as placeholders. CDATA content is text; it is written back escaped, which
// Android reads the same.

import { SaxesParser } from 'saxes';
import { type InlinePart, makeTag, nativeCode, parseTagged } from '../../text/inline-tags.ts';
import { escapeXmlText, unescapeXml } from '../../xml/xml-escape.ts';
import { literalToTagged } from '../tagged-literal.ts';

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([^\s/>]+)(?:\s+[^\s=]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(\/?)>|[^<]+/g;

export interface TaggedContent {
  tagged: string;
  /** The native codes of the unit's tags: a translation may use these and only these as markup. */
  natives: Set<string>;
}

/** Well-formed element content (as located by the reader) → tagged text. */
export function contentToTagged(raw: string): TaggedContent {
  const ids = { last: 0 };
  const natives = new Set<string>();
  const open: { name: string; id: string }[] = [];
  let tagged = '';
  const code = (form: 'bpt' | 'ept' | 'ph', id: string, native: string) => {
    natives.add(native);
    tagged += makeTag('code', form, { id }, native).raw;
  };
  // Text that spells a tag of the model is protected; its native form is the escaped text.
  const text = (literal: string) => {
    tagged += literalToTagged(literal, {
      ids,
      native: escapeXmlText,
      onCode: (_, native) => natives.add(native),
    });
  };

  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(raw); m; m = TOKEN.exec(raw)) {
    const [token, cdata, closeName, openName, selfClose] = m;
    if (token[0] !== '<') text(unescapeXml(token));
    else if (cdata !== undefined) text(cdata);
    else if (closeName) {
      const top = open.pop();
      code('ept', top?.id ?? String(++ids.last), token);
    } else if (openName && isXliffG(openName) && !selfClose) {
      const end = matchingEnd(raw, TOKEN.lastIndex, openName);
      code('ph', String(++ids.last), raw.slice(m.index, end));
      TOKEN.lastIndex = end;
    } else if (openName && !selfClose) {
      const id = String(++ids.last);
      open.push({ name: openName, id });
      code('bpt', id, token);
    } else code('ph', String(++ids.last), token);
  }
  return { tagged, natives };
}

/** The xliff:g placeholder element, under whatever prefix the file binds to the XLIFF namespace. */
function isXliffG(qname: string): boolean {
  return qname.endsWith(':g');
}

/** Offset just past the close tag of the element whose start tag ended at `from`. */
function matchingEnd(raw: string, from: number, name: string): number {
  const re = new RegExp(`<(/?)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s/>])[^>]*?(/?)>`, 'g');
  re.lastIndex = from;
  let depth = 1;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    if (m[1]) depth--;
    else if (!m[2]) depth++;
    if (depth === 0) return m.index + m[0].length;
  }
  return raw.length;
}

/**
 * A translation → element content. Codes the source unit has are written as their markup (bpt/ept only
 * as complete pairs); codes it does not have are written as escaped text, other tags dropped. If the
 * markup still does not nest, it is dropped and the text kept, so the file always stays well-formed.
 * `quoted`: the content goes between the quotes of a quoted string, which the file keeps around it.
 */
export function taggedToContent(translation: string, natives: ReadonlySet<string>, quoted = false): string {
  const parts = parseTagged(translation);
  const withMarkup = render(parts, natives, true, quoted);
  return wellFormed(withMarkup) ? withMarkup : render(parts, natives, false, quoted);
}

function render(
  parts: InlinePart[],
  natives: ReadonlySet<string>,
  keepPairs: boolean,
  quoted: boolean,
): string {
  const known = (p: InlinePart) => p.type === 'tag' && p.form === 'code' && natives.has(nativeCode(p));
  const bpts = new Set<string>();
  const pairs = new Set<string>();
  for (const p of parts) {
    if (p.type !== 'tag' || !known(p)) continue;
    if (p.name === 'bpt') bpts.add(p.attrs.id);
    else if (p.name === 'ept' && bpts.has(p.attrs.id)) pairs.add(p.attrs.id);
  }
  const escaper = quoted ? quotedEscaper : androidEscaper();
  let out = '';
  for (const p of parts) {
    if (p.type === 'text') out += escaper(p.text);
    else if (p.form !== 'code') continue;
    else if (!known(p)) out += escaper(nativeCode(p));
    else if (p.name === 'ph' || p.name === 'it' || p.name === 'ut') out += nativeCode(p);
    else if (keepPairs && pairs.has(p.attrs.id)) out += nativeCode(p);
  }
  return out;
}

/**
 * XML-escapes text and adds the backslash Android requires before an apostrophe outside a "…" quoted
 * run, and before @ or ? opening the string (which would make it a reference). Escapes the translator
 * typed (\' \n \u2026) are kept.
 */
function androidEscaper(): (text: string) => string {
  let started = false;
  let quoted = false;
  let escaped = false;
  return (text) => {
    let out = '';
    for (const c of text) {
      if (!started && (c === '@' || c === '?')) out += '\\';
      started = true;
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') quoted = !quoted;
      else if (c === "'" && !quoted) out += '\\';
      out += c;
    }
    return escapeXmlText(controlEscapes(out));
  };
}

/**
 * Characters an XML 1.0 file cannot hold (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates):
 * written as the `\uXXXX` escapes Android's resource compiler decodes, so that the file parses and the app
 * still gets the character. (A CR is valid XML, and Android folds it with the whitespace around it anyway.)
 */
const UNWRITABLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function controlEscapes(text: string): string {
  return text.replace(UNWRITABLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * XML-escapes text going between the quotes of a quoted string, where apostrophes, @ and ? are literal and
 * a quote would end the quoting: a quote not already escaped gets its backslash.
 */
function quotedEscaper(text: string): string {
  return escapeXmlText(controlEscapes(text.replace(/(\\[\s\S])|"/g, (_, escaped) => escaped ?? '\\"')));
}

/** Nesting and syntax only: prefixes were bound where the markup came from. */
function wellFormed(content: string): boolean {
  if (content.indexOf('<') < 0) return true;
  const parser = new SaxesParser({ xmlns: false });
  let ok = true;
  parser.on('error', () => {
    ok = false;
  });
  parser.write(`<r>${content}</r>`).close();
  return ok;
}
