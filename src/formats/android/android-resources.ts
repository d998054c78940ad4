// Reads an Android strings.xml strictly (saxes, no entity declarations) and locates each translatable
// text: <string>, <plurals><item>, <string-array><item>, with the character offsets of its content.

import { SaxesParser, type SaxesTagNS } from 'saxes';
import { FormatError } from '../../errors.ts';

export interface AndroidText {
  /** The resource name, with [quantity] for plurals and [index] for arrays. */
  context: string;
  /** The XML comment written just before the resource, Android's place for translator notes. */
  note?: string;
  /** Content range with surrounding whitespace left out (it is not part of the string for Android). */
  start: number;
  end: number;
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
  const unit: AndroidText = { context, start: start + lead, end: start + lead + trimmed.length };
  if (note) unit.note = note;
  found.push(unit);
}

function attr(tag: SaxesTagNS, local: string): string | undefined {
  const a = tag.attributes[local];
  return a && a.uri === '' ? a.value : undefined;
}
