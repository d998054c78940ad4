// Streaming XML reading: encoding sniffing, incremental decoding and saxes events, one chunk in memory at a time.

import { TextDecoder } from 'node:util';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { FileLimitError, XmlError } from '../errors.ts';

/**
 * The longest run of characters the parser may hold at once: a text node, an attribute value, a comment,
 * a name. saxes gathers each whole before it reports it, so without a bound one huge <seg>, or a gigabyte
 * of whitespace between two elements, is held whole (as a string that grows by copying). No translation
 * unit comes near it.
 */
export const MAX_XML_RUN = 4 * 1024 * 1024;

/** An element as the handlers see it: attribute values are decoded, names are as written (`xml:lang`). */
export type XmlTag = SaxesTagPlain;

export interface XmlHandlers {
  openTag?(tag: XmlTag): void;
  /** Called for every element, right after openTag for a self-closing one. */
  closeTag?(tag: XmlTag): void;
  /** Character data with entities resolved; CDATA sections, and whitespace around the root, arrive here too. */
  text?(text: string): void;
  /** An element's start tag begins (its name read, not yet its attributes). */
  openTagStart?(tag: { name: string }): void;
  /** A chunk of the decoded text, before the parser reads it (readers that keep the markup). */
  chunk?(text: string): void;
}

export interface XmlContext<T> {
  /** Queues a record; readXml yields the queue after every input chunk. */
  emit(item: T): void;
  /** Throws an XmlError at the parser's current position, e.g. fail('Not a TMX file', 'the root is <x>'). */
  fail(kind: string, detail: string): never;
  /** Where the parser is: the offset in the decoded text (a string index), and its 1-based line and column. */
  position(): { offset: number; line: number; column: number };
}

/**
 * Parses XML from raw bytes and yields the records the handlers emit. Memory holds one input chunk and
 * the records it produced, whatever the file size. Throws XmlError on malformed input.
 */
export async function* readXml<T>(
  input: AsyncIterable<Uint8Array>,
  setup: (ctx: XmlContext<T>) => XmlHandlers,
): AsyncGenerator<T, void> {
  const parser = new SaxesParser();
  guardEntityReferences(parser);
  // saxes's column is that of the last character read, 0 right after a newline.
  const fail = (kind: string, detail: string): never => {
    throw new XmlError(detail, parser.line, Math.max(parser.column, 1), kind);
  };
  const queue: T[] = [];
  const handlers = setup({
    emit: (item) => queue.push(item),
    fail,
    position: () => ({ offset: parser.position, line: parser.line, column: Math.max(parser.column, 1) }),
  });

  parser.on('error', (err) => {
    // saxes prefixes "line:column: "; we carry the position as fields and in our own wording instead.
    fail('Malformed XML', err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, ''));
  });
  parser.on('doctype', (doctype) => refuseEntityDeclarations(doctype, parser));
  if (handlers.openTag) parser.on('opentag', handlers.openTag);
  if (handlers.closeTag) parser.on('closetag', handlers.closeTag);
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  if (handlers.openTagStart) parser.on('opentagstart', handlers.openTagStart);

  for await (const text of decodeXml(input, parser)) {
    handlers.chunk?.(text);
    parser.write(text);
    boundRuns(parser);
    if (queue.length > 0) {
      yield* queue;
      queue.length = 0;
    }
  }
  parser.close();
  yield* queue;
}

// Enough bytes to hold a BOM and any sensible XML declaration.
const SNIFF_BYTES = 1024;

/**
 * Decodes the byte stream to text incrementally. The encoding comes from the BOM, from the byte pattern
 * of "<?xml" (UTF-16 without BOM), or from the declaration's encoding; UTF-8 otherwise.
 */
async function* decodeXml(input: AsyncIterable<Uint8Array>, parser: SaxesParser): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let head: Uint8Array[] = [];
  let headLength = 0;
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    const active = decoder!;
    try {
      return active.decode(bytes, { stream });
    } catch {
      // Feed the valid prefix so the parser's position lands just before the bad bytes, then report them.
      const lenient = new TextDecoder(active.encoding).decode(bytes, { stream });
      const bad = lenient.indexOf('\uFFFD');
      if (bad > 0) parser.write(lenient.slice(0, bad));
      const detail = `bytes that are not valid ${active.encoding.toUpperCase()}`;
      throw new XmlError(detail, parser.line, parser.column + 1);
    }
  };
  const start = (): string => {
    const bytes = Buffer.concat(head);
    head = [];
    decoder = new TextDecoder(sniffEncoding(bytes), { fatal: true });
    return decode(bytes, true);
  };

  // Always decode with stream: true and flush with an empty call at the end: Node 20's one-shot
  // decode of windows-1252 wrongly maps 0x80–0x9F as Latin-1, its streaming path does not.
  for await (const chunk of input) {
    let text: string;
    if (decoder) text = decode(chunk, true);
    else {
      head.push(chunk);
      headLength += chunk.length;
      if (headLength < SNIFF_BYTES) continue;
      text = start();
    }
    if (text) yield text;
  }
  const rest = (decoder ? '' : start()) + decode(new Uint8Array(0), false);
  if (rest) yield rest;
}

/** What saxes is gathering (see MAX_XML_RUN): checked after every chunk, so it never holds much more. */
function boundRuns(parser: SaxesParser): void {
  const held = parser as unknown as { text: string; name: string; entity: string; piTarget: string };
  const longest = Math.max(held.text.length, held.name.length, held.entity.length, held.piTarget.length);
  if (longest > MAX_XML_RUN) {
    throw new FileLimitError(
      `a text, attribute, comment or name runs longer than ${MAX_XML_RUN} characters`,
      parser.line,
      Math.max(parser.column, 1),
    );
  }
}

/** The TextDecoder label for the document's bytes (XML 1.0 appendix F). */
function sniffEncoding(bytes: Uint8Array): string {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  if ((b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) || (b0 === 0 && b1 === 0 && b2 === 0xfe)) {
    const detail = 'UTF-32 is not supported; save the file as UTF-8 or UTF-16';
    throw new XmlError(detail, 1, 1, 'Unsupported XML encoding');
  }
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0x3c && b1 === 0 && b2 === 0x3f && b3 === 0) return 'utf-16le';
  if (b0 === 0 && b1 === 0x3c && b2 === 0 && b3 === 0x3f) return 'utf-16be';
  // An ASCII-compatible encoding: the declaration, if any, names it.
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SNIFF_BYTES)).toString(
    'latin1',
  );
  const match = /^<\?xml\s[^>]*?\bencoding\s*=\s*["']([^"']*)["']/.exec(start);
  if (!match) return 'utf-8';
  const declared = match[1];
  // "UTF-16" declared over single-byte data is a common mislabel by tools that wrote UTF-8 anyway.
  if (/^utf-?16/i.test(declared)) return 'utf-8';
  try {
    return new TextDecoder(declared).encoding;
  } catch {
    const column = match[0].length - declared.length; // where the value starts, after its quote
    const detail = `the declared encoding "${declared}" is not supported`;
    throw new XmlError(detail, 1, column, 'Unsupported XML encoding');
  }
}

/**
 * Entity declarations are the door to billion-laughs expansion and external entity fetches; a TMX or
 * XLIFF file never needs them, so a DOCTYPE that declares any is refused outright.
 */
function refuseEntityDeclarations(doctype: string, parser: SaxesParser): void {
  const at = doctype.indexOf('<!ENTITY');
  if (at < 0) return;
  // saxes reports the DOCTYPE once its closing ">" is read: step back to where the declaration starts.
  const tail = doctype.slice(at) + '>';
  const newlinesAfter = tail.split('\n').length - 1;
  const line = parser.line - newlinesAfter;
  const lineStart = doctype.lastIndexOf('\n', at);
  let column: number;
  if (newlinesAfter === 0) column = parser.column - tail.length + 1;
  // The declaration shares its line with "<!DOCTYPE", which in practice starts its line.
  else if (lineStart < 0) column = '<!DOCTYPE'.length + at + 1;
  else column = at - lineStart;
  throw new XmlError(
    'the DOCTYPE declares entities (<!ENTITY …>), which are refused for security',
    line,
    column,
    'Refused XML',
  );
}

interface SaxesInternals {
  stateTable: Array<(this: SaxesParser) => void>;
  chunk: string;
  i: number;
  entity: string;
  getCode(): number;
  fail(message: string): void;
}

// An entity reference is short; a name this long means a bare "&" with no ";" anywhere near it.
const MAX_ENTITY_NAME = 64;

/**
 * saxes reads everything after "&" up to the next ";" as the entity name, so a bare "&" is reported
 * far from where it is (or never, holding the rest of the file in memory). This guard checks the name
 * characters as they arrive and fails on the first one that cannot belong to a reference.
 */
function guardEntityReferences(parser: SaxesParser): void {
  const internals = parser as unknown as SaxesInternals;
  const original = (SaxesParser.prototype as unknown as { sEntity: () => void }).sEntity;
  const index = internals.stateTable.indexOf(original);
  if (index < 0) throw new Error('saxes internals changed: the entity state was not found');
  internals.stateTable[index] = function guardedEntity(this: SaxesParser) {
    const self = this as unknown as SaxesInternals;
    const { chunk, i } = self;
    let end = i;
    while (end < chunk.length) {
      const code = chunk.charCodeAt(end);
      if (code === 0x3b) break;
      if (!isEntityNameChar(code)) return failAtAmpersand(this, 'a bare "&" is not allowed; write &amp;');
      end++;
    }
    if (self.entity.length + end - i > MAX_ENTITY_NAME) {
      return failAtAmpersand(this, '"&" is not followed by a reference ending in ";"; write &amp;');
    }
    original.call(this);
  };
}

/** The "&" is on the current line: the name read so far (carried over from earlier chunks) follows it. */
function failAtAmpersand(parser: SaxesParser, message: string): void {
  const self = parser as unknown as SaxesInternals;
  parser.column -= self.entity.length;
  self.fail(message);
}

function isEntityNameChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x3a) || // 0-9 and ":"
    code === 0x23 || // "#"
    code === 0x2d || // "-"
    code === 0x2e || // "."
    code === 0x5f || // "_"
    code >= 0x80 // non-ASCII name characters; saxes checks the name exactly afterwards
  );
}
