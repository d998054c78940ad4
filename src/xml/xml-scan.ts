// Strict XML reading for filters that splice: bytes → string (with how to encode back), saxes events with offsets.
//
// Filters that merge by splicing need the character offset of every element; saxes reports positions as
// indexes into the string it was given, so the whole document is decoded first and written in one call.
// Entity declarations are refused outright: they are the vehicle of billion-laughs and external-entity attacks,
// and no translation file needs them.

import { TextDecoder } from 'node:util';
import { type SaxesAttributeNS, SaxesParser, type SaxesTagNS } from 'saxes';
import { FormatError } from '../errors.ts';

export interface DecodedXml {
  text: string;
  /** Encodes a (spliced) document the way the original was stored, or as UTF-8 when that is not possible. */
  encode(text: string): Buffer;
}

const XML_DECL_ENCODING = /^(\uFEFF?<\?xml[^>]*?\bencoding\s*=\s*)(["'])([^"']*)\2/;

/**
 * Decodes an XML file: UTF-8 (with or without BOM), UTF-16 (BOM or a `<?xml` in UTF-16), or any other
 * encoding named in the declaration that the platform decodes (written back as UTF-8, declaration updated).
 */
export function decodeXml(bytes: Buffer, what: string): DecodedXml {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes, 'utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes, 'utf-16be');
  if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f) return utf16(bytes, 'utf-16le');
  if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00) return utf16(bytes, 'utf-16be');
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = XML_DECL_ENCODING.exec(head)?.[3]?.toLowerCase();
  if (declared && !/^(utf-?8|us-ascii|ascii)$/.test(declared)) {
    let decoder: TextDecoder;
    try {
      decoder = new TextDecoder(declared, { fatal: true });
    } catch {
      throw new FormatError(`${what}: unsupported encoding "${declared}"`);
    }
    const text = decodeOrThrow(decoder, bytes, what);
    return { text, encode: (s) => Buffer.from(s.replace(XML_DECL_ENCODING, '$1$2UTF-8$2'), 'utf8') };
  }
  return decodeUtf8(bytes, what);
}

/** Decodes UTF-8 strictly (BOM kept in the text so offsets stay true); encode writes UTF-8 again. */
function decodeUtf8(bytes: Buffer, what: string): DecodedXml {
  const text = decodeOrThrow(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), bytes, what);
  return { text, encode: (s) => Buffer.from(s, 'utf8') };
}

function utf16(bytes: Buffer, encoding: 'utf-16le' | 'utf-16be'): DecodedXml {
  // With ignoreBOM a BOM stays in the text as U+FEFF, so encoding the text reproduces it.
  const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);
  const encode = (s: string): Buffer => {
    const le = Buffer.from(s, 'utf16le');
    return encoding === 'utf-16le' ? le : le.swap16();
  };
  return { text, encode };
}

function decodeOrThrow(decoder: TextDecoder, bytes: Buffer, what: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    // Locate the first undecodable byte: the lenient decoding has U+FFFD there.
    const lenient = new TextDecoder(decoder.encoding).decode(bytes);
    const at = lenient.indexOf('\uFFFD');
    const { line, column } = lineColumn(lenient, Math.max(at, 0));
    throw new FormatError(`${what}: invalid ${decoder.encoding} byte sequence`, line, column);
  }
}

/** 1-based line and column of a string index. */
export function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: index - lineStart + 1 };
}

export interface XmlElement {
  /** The qualified name as written, e.g. `w:p`. */
  name: string;
  local: string;
  prefix: string;
  uri: string;
  /** Attributes by qualified name, in document order. */
  attrs: Record<string, string>;
  /** Offset of `<` of the start tag, and just past its `>`. */
  start: number;
  openEnd: number;
  selfClosing: boolean;
}

/**
 * Elements open at once, at most — Chromium's HTML parser has the same bound. saxes resolves each element's
 * namespace by walking every open element, so nesting costs the square of its depth: 10,000 nested `<g>` in
 * a 200 KB XLIFF took 1.5 s, 100,000 took two minutes. Real documents nest a few dozen deep.
 */
export const MAX_XML_DEPTH = 512;

/** The error for an element opened MAX_XML_DEPTH deep, where its name starts. */
export function nestedTooDeeply(what: string, parser: { line: number; column: number }): FormatError {
  return new FormatError(
    `${what}: elements nested more than ${MAX_XML_DEPTH} deep`,
    parser.line,
    parser.column,
  );
}

export interface XmlHandlers {
  open?(el: XmlElement): void;
  /** `end` is just past the element's last character (its end tag, or `/>`). */
  close?(el: XmlElement, closeStart: number, end: number): void;
  /** Character data (text or CDATA) with entities decoded. */
  text?(text: string): void;
}

/**
 * Runs a namespace-aware strict parse of the whole document, calling the handlers with offsets.
 * Malformed XML or an entity declaration → FormatError with 1-based line and column.
 */
export function scanXml(text: string, what: string, handlers: XmlHandlers): void {
  const parser = new SaxesParser<{ xmlns: true; position: true }>({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  parser.on('opentagstart', () => {
    if (stack.length >= MAX_XML_DEPTH) throw nestedTooDeeply(what, parser);
  });
  parser.on('doctype', (doctype) => {
    if (/<!ENTITY/i.test(doctype)) {
      const at = lineColumn(text, text.lastIndexOf('<!DOCTYPE', parser.position));
      throw new FormatError(`${what}: entity declarations are not allowed`, at.line, at.column);
    }
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const openEnd = parser.position;
    const el: XmlElement = {
      name: tag.name,
      local: tag.local,
      prefix: tag.prefix,
      uri: tag.uri,
      attrs: attributes(tag.attributes),
      start: text.lastIndexOf('<', openEnd - 1),
      openEnd,
      selfClosing: tag.isSelfClosing,
    };
    stack.push(el);
    handlers.open?.(el);
  });
  parser.on('closetag', () => {
    const el = stack.pop()!;
    const end = parser.position;
    handlers.close?.(el, el.selfClosing ? end : text.lastIndexOf('<', end - 1), end);
  });
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  parser.on('error', (err) => {
    throw new FormatError(
      `${what}: malformed XML: ${err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}`,
      parser.line,
      parser.column + 1,
    );
  });
  try {
    parser.write(text).close();
  } catch (err) {
    if (err instanceof FormatError) throw err;
    throw new FormatError(
      `${what}: malformed XML: ${(err as Error).message}`,
      parser.line,
      parser.column + 1,
    );
  }
}

function attributes(attrs: Record<string, SaxesAttributeNS>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of Object.values(attrs)) {
    if (a.name === 'xmlns' || a.prefix === 'xmlns') continue;
    out[a.name] = a.value;
  }
  return out;
}
