// Reads an Android strings.xml strictly (saxes, no entity declarations) and locates each translatable
// text: <string>, <plurals><item>, <string-array><item>, with the character offsets of its content.
//
// A string's edge whitespace, as Android writes it, is left out of the located content: it belongs to the
// skeleton (docs/MATCHING.md §1.1), as a PO message's trailing `\n` does. Android drops the XML whitespace
// around unquoted content, so what a string means to keep at its edges is written as the escapes `\n`, `\t`
// and `\u0020`, or inside a quoted string (`"  Loading…  "`) whose quotes exist to keep it.

import { SaxesParser, type SaxesTagNS } from 'saxes';
import { FormatError } from '../../errors.ts';
import { MAX_XML_DEPTH, nestedTooDeeply } from '../../xml/xml-scan.ts';

export interface AndroidText {
  /** The resource name, with [quantity] for plurals and [index] for arrays. */
  context: string;
  /** The XML comment written just before the resource, Android's place for translator notes. */
  note?: string;
  /** Content range with the string's edge whitespace (and the quotes kept for it) left out. */
  start: number;
  end: number;
  /** The content is inside a quoted string's quotes, which stay in the file around it. */
  quoted: boolean;
}

const CONTAINERS = new Set(['plurals', 'string-array']);
// A value that only points at another resource (@string/app_name, ?attr/label) has nothing to translate.
const REFERENCE = /^[@?](?:[\w.]+:)?[\w-]+\/[\w.]+$/;

export function readAndroidResources(text: string): AndroidText[] {
  const found: AndroidText[] = [];
  const parser = new SaxesParser({ xmlns: true, position: true });
  let depth = 0;
  let comment: string | undefined;
  let resource: { name: string; kind: string; note?: string; items: number; skip: boolean } | undefined;
  let contentStart = -1;
  let textDepth = 0;
  let failure: FormatError | undefined;

  const fail = (message: string) => {
    failure ??= new FormatError(`strings.xml: ${message}`, parser.line, parser.column);
  };
  parser.on('error', (e) => {
    const m = /^(?:.*?:)?(\d+):(\d+): (.*)$/s.exec(e.message);
    failure ??= m
      ? new FormatError(`strings.xml: ${m[3].replace(/\.$/, '')}`, Number(m[1]), Number(m[2]))
      : new FormatError(`strings.xml: ${e.message}`, parser.line, parser.column);
  });
  parser.on('doctype', (doctype) => {
    if (/<!ENTITY/i.test(doctype)) fail('entity declarations are not allowed');
  });
  parser.on('comment', (c) => {
    if (depth === 1) comment = c.trim();
  });
  parser.on('opentagstart', () => {
    if (depth >= MAX_XML_DEPTH) throw nestedTooDeeply('strings.xml', parser);
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    depth++;
    if (depth === 1 && tag.name !== 'resources') fail(`root element is <${tag.name}>, not <resources>`);
    if (depth === 2) {
      const kind = tag.name;
      const translatable = attr(tag, 'translatable') !== 'false';
      const name = attr(tag, 'name') ?? '';
      const wanted = kind === 'string' || CONTAINERS.has(kind);
      resource = { name, kind, note: comment, items: 0, skip: !wanted || !translatable };
      comment = undefined;
      if (wanted && translatable && !name) fail(`<${kind}> without a name`);
    }
    const isText =
      resource &&
      !resource.skip &&
      ((depth === 2 && resource.kind === 'string') ||
        (depth === 3 && CONTAINERS.has(resource.kind) && tag.name === 'item'));
    if (isText && !tag.isSelfClosing) {
      contentStart = parser.position;
      textDepth = depth;
    }
  });
  parser.on('closetag', (tag: SaxesTagNS) => {
    if (contentStart >= 0 && resource && depth === textDepth) {
      const closeStart = text.lastIndexOf('</', parser.position - 1);
      const context = depth === 2 ? resource.name : itemContext(resource, tag);
      addText(found, text, contentStart, closeStart, context, resource.note);
      contentStart = -1;
    }
    if (depth === 3 && resource && CONTAINERS.has(resource.kind) && tag.name === 'item') resource.items++;
    if (depth === 2) resource = undefined;
    depth--;
  });

  parser.write(text).close();
  if (failure) throw failure;
  return found;
}

function itemContext(resource: { name: string; kind: string; items: number }, tag: SaxesTagNS): string {
  return resource.kind === 'plurals'
    ? `${resource.name}[${attr(tag, 'quantity') ?? ''}]`
    : `${resource.name}[${resource.items}]`;
}

function addText(
  found: AndroidText[],
  text: string,
  start: number,
  end: number,
  context: string,
  note: string | undefined,
) {
  // XML whitespace only: a no-break space at the edge is content.
  const content = text.slice(start, end);
  const lead = /^[ \t\r\n]*/.exec(content)![0].length;
  const trimmed = content.slice(lead).replace(/[ \t\r\n]+$/, '');
  if (trimmed === '' || REFERENCE.test(trimmed)) return;
  const core = edgeSpaceOut(trimmed);
  const at = start + lead;
  const unit: AndroidText = { context, start: at + core.start, end: at + core.end, quoted: core.quoted };
  if (note) unit.note = note;
  found.push(unit);
}

// One character of string content as Android reads it: an escape (`\n`, `\"`, `\u0020`) or a character.
const CHARACTER = /\\u[0-9a-fA-F]{4}|\\[\s\S]|[\s\S]/g;

/** Whether an escape or a character of the content is whitespace Android keeps (a literal one inside quotes). */
function isSpace(token: string): boolean {
  if (token === '\\n' || token === '\\t') return true;
  if (token.startsWith('\\u')) return /\s/.test(String.fromCharCode(Number.parseInt(token.slice(2), 16)));
  return /^\s$/.test(token);
}

/**
 * The content without the whitespace at its edges (offsets in `content`, string content as written or a
 * translation's tagged text): escapes and literal whitespace; in a string quoted whole to keep its spaces, its
 * quotes too, which `quoted` says. A string of nothing else stays whole, a unit as it always was (the units of
 * a document imported before must stay the same).
 */
export function edgeSpaceOut(content: string): { start: number; end: number; quoted: boolean } {
  const tokens = [...content.matchAll(CHARACTER)].map((m) => ({ text: m[0], start: m.index }));
  const last = tokens.length - 1;
  const quotes = tokens.filter((t) => t.text === '"').length;
  const quoted = last > 0 && quotes === 2 && tokens[0].text === '"' && tokens[last].text === '"';
  let from = quoted ? 1 : 0;
  let to = quoted ? last : tokens.length;
  while (from < to && isSpace(tokens[from].text)) from++;
  while (to > from && isSpace(tokens[to - 1].text)) to--;
  // Quotes around no edge whitespace are there for something else (an apostrophe): the translator's.
  const whole = from === to || (quoted && from === 1 && to === last);
  if (whole) return { start: 0, end: content.length, quoted: false };
  const end = tokens[to - 1].start + tokens[to - 1].text.length;
  return { start: tokens[from].start, end, quoted };
}

function attr(tag: SaxesTagNS, local: string): string | undefined {
  const a = tag.attributes[local];
  return a && a.uri === '' ? a.value : undefined;
}
