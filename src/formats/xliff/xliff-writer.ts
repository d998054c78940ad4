// Streaming XLIFF 1.2 writer for document export; its output validates against the OASIS strict schema.

import { xmlAttr, xmlText } from '../../xml/xml-escape.ts';
import { toXliffInline, xliffDatatype } from './xliff-inline.ts';

export type XliffState = 'needs-review-translation' | 'translated' | 'signed-off';

export interface XliffUnit {
  /** Becomes the trans-unit id; must be unique in the document. */
  id: number | string;
  /** Tagged text. */
  source: string;
  /** Tagged text; null, undefined or "" writes no `<target>`. */
  target?: string | null;
  /** Written on `<target>` when there is one; without it the target has no state (read back as translated). */
  state?: XliffState;
  /** Written as `resname` (the XLIFF filter reads it back as the unit's context). */
  context?: string;
  notes?: (string | XliffNote)[];
}

/** A `<note>` with who wrote it (`from`), e.g. a comment of the editor. */
export interface XliffNote {
  text: string;
  from?: string;
}

export interface XliffDocument {
  /** The original file name, for `<file original>`. */
  original: string;
  srclang: string;
  trglang: string;
  /** A schema datatype (html, po, plaintext, …); anything else is written as `x-<datatype>`. */
  datatype: string;
  /** Notes on the whole file, written in its `<header>`. */
  notes?: XliffNote[];
  units: AsyncIterable<XliffUnit> | Iterable<XliffUnit>;
}

const XLIFF_NAMESPACE = 'urn:oasis:names:tc:xliff:document:1.2';

/** Chunks are yielded once they reach this many characters, so a response stream gets few large writes. */
const CHUNK_CHARS = 64 * 1024;

/** Yields the XLIFF document in string chunks of about 64 KB. Throws on a repeated unit id. */
export async function* writeXliff(doc: XliffDocument): AsyncGenerator<string> {
  // xml:space="preserve" tells other tools that segment whitespace is significant, as it is for us.
  let buf =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<xliff version="1.2" xmlns="${XLIFF_NAMESPACE}">\n` +
    `  <file original="${xmlAttr(doc.original)}" source-language="${language(doc.srclang)}"` +
    ` target-language="${language(doc.trglang)}" datatype="${xliffDatatype(doc.datatype)}" xml:space="preserve">\n` +
    (doc.notes?.length
      ? `    <header>\n${doc.notes.map((n) => `      ${note(n)}`).join('')}    </header>\n`
      : '') +
    '    <body>\n';
  const ids = new Set<string>();
  for await (const unit of doc.units) {
    const id = String(unit.id);
    if (ids.has(id)) throw new Error(`writeXliff: unit id ${id} appears twice`);
    ids.add(id);
    buf += transUnit(id, unit);
    if (buf.length >= CHUNK_CHARS) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}    </body>\n  </file>\n</xliff>\n`;
}

function transUnit(id: string, unit: XliffUnit): string {
  const resname = unit.context ? ` resname="${xmlAttr(unit.context)}"` : '';
  let s = `      <trans-unit id="${xmlAttr(id)}"${resname}>\n        <source>${toXliffInline(unit.source)}</source>\n`;
  if (unit.target) {
    const state = unit.state ? ` state="${unit.state}"` : '';
    s += `        <target${state}>${toXliffInline(unit.target)}</target>\n`;
  }
  if (unit.notes) for (const n of unit.notes) s += `        ${note(n)}`;
  return `${s}      </trans-unit>\n`;
}

function note(n: string | XliffNote): string {
  if (typeof n === 'string') return `<note>${xmlText(n)}</note>\n`;
  const from = n.from ? ` from="${xmlAttr(n.from)}"` : '';
  return `<note${from}>${xmlText(n.text)}</note>\n`;
}

/** xsd:language wants hyphens: `pt_BR` → `pt-BR`. */
function language(code: string): string {
  return xmlAttr(code.replace(/_/g, '-'));
}
