// Tagged text → XLIFF 1.2 inline markup that validates against the OASIS strict schema.
//
// Tags already in XLIFF form (g, x, bx, ex, ph, bpt, ept, it, mrk with legal attributes) are written exactly
// as the tag model spells them, so the XLIFF filter reads back the same tagged text. TMX-only forms are mapped
// to their XLIFF equivalents (hi → g, ut → ph, i/x → id, type → ctype, pos begin/end → open/close) and missing
// required attributes are supplied; that mapping is one-way. An open or close tag without its partner (a
// sentence split inside a formatting run) is written as `<ph ctype="x-tessera-tag">` holding the tag itself,
// which other tools show as a protected code and our reader turns back into the original tag.

import { type InlinePart, pairTags, parseTagged, type TagPart } from '../../text/inline-tags.ts';
import { unescapeXml, xmlAttr, xmlText } from '../../xml/xml-escape.ts';

/** ctype marking a ph that carries an unpaired tag of the tag model verbatim. */
export const UNPAIRED_TAG_CTYPE = 'x-tessera-tag';

const DELIMITER_CTYPES = new Set(['bold', 'italic', 'underlined', 'link']);
const PLACEHOLDER_CTYPES = new Set(['image', 'pb', 'lb']);
// TMX `type` values that have an XLIFF ctype of another spelling.
const TMX_TYPE_TO_CTYPE: Record<string, string> = { ulined: 'underlined' };
const ASSOC: Record<string, string> = { p: 'preceding', f: 'following', b: 'both' };
const NMTOKEN = /^[\p{L}\p{N}\p{M}._:-]+$/u;

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'tag'; part: TagPart; children?: Node[] }
  | { kind: 'unpaired'; part: TagPart };

/** State shared by all tags of one source or target element: ids in use and the rid constraints. */
interface Scope {
  used: Set<string>;
  next: number;
  /** rids of bpt (bx) elements: an ept (ex) keeps its rid only when it names one of them. */
  bptRids: Set<string>;
  bxRids: Set<string>;
  /** rids already written on a bpt (bx): the schema wants them unique, so a repeat drops its rid. */
  written: Set<string>;
}

/** Tagged text → XLIFF inline content. `prefix` is the namespace prefix of the enclosing element ("" or "x:"). */
export function toXliffInline(tagged: string, prefix = ''): string {
  if (tagged.indexOf('<') < 0) return xmlText(tagged);
  const parts = parseTagged(tagged);
  return emit(buildTree(parts), newScope(parts), prefix);
}

function newScope(parts: readonly InlinePart[]): Scope {
  const scope: Scope = {
    used: new Set(),
    next: 1,
    bptRids: new Set(),
    bxRids: new Set(),
    written: new Set(),
  };
  let max = 0;
  for (const p of parts) {
    if (p.type !== 'tag') continue;
    for (const key of ['id', 'i', 'x']) {
      const v = p.attrs[key];
      if (v === undefined) continue;
      scope.used.add(v);
      if (/^\d+$/.test(v)) max = Math.max(max, Number(v));
    }
    const rid = p.attrs.rid;
    if (rid !== undefined && NMTOKEN.test(rid)) {
      if (p.name === 'bpt') scope.bptRids.add(rid);
      if (p.name === 'bx') scope.bxRids.add(rid);
    }
  }
  scope.next = max + 1;
  return scope;
}

function buildTree(parts: readonly InlinePart[]): Node[] {
  const paired = pairTags(parts);
  const root: Node[] = [];
  const stack: Node[][] = [root];
  parts.forEach((p, i) => {
    const top = stack[stack.length - 1];
    if (p.type === 'text') top.push({ kind: 'text', text: p.text });
    else if ((p.form === 'open' || p.form === 'close') && !paired.has(i))
      top.push({ kind: 'unpaired', part: p });
    else if (p.form === 'open') {
      const node: Node = { kind: 'tag', part: p, children: [] };
      top.push(node);
      stack.push(node.children!);
    } else if (p.form === 'close') stack.pop();
    else top.push({ kind: 'tag', part: p });
  });
  return root;
}

function emit(nodes: readonly Node[], scope: Scope, prefix: string): string {
  let out = '';
  for (const n of nodes) {
    if (n.kind === 'text') out += xmlText(n.text);
    else if (n.kind === 'unpaired') {
      const attrs = { id: freshId(scope), ctype: UNPAIRED_TAG_CTYPE };
      out += `<${prefix}ph${attrText(attrs)}>${xmlText(n.part.raw)}</${prefix}ph>`;
    } else {
      const { name, attrs } = xliffTag(n.part, scope);
      const qname = prefix + name;
      if (n.children) out += `<${qname}${attrText(attrs)}>${emit(n.children, scope, prefix)}</${qname}>`;
      else if (n.part.form === 'code') {
        out += `<${qname}${attrText(attrs)}>${codeContent(n.part.content ?? '', prefix)}</${qname}>`;
      } else out += `<${qname}${attrText(attrs)}/>`;
    }
  }
  return out;
}

function attrText(attrs: Record<string, string>): string {
  let s = '';
  for (const k in attrs) s += ` ${k}="${xmlAttr(attrs[k])}"`;
  return s;
}

function freshId(scope: Scope): string {
  while (scope.used.has(String(scope.next))) scope.next++;
  const id = String(scope.next++);
  scope.used.add(id);
  return id;
}

/** The XLIFF element name and attributes (in the tag's own order, required ones first when missing). */
function xliffTag(part: TagPart, scope: Scope): { name: string; attrs: Record<string, string> } {
  const src = part.attrs;
  const name = part.name === 'hi' || part.name === 'sub' ? 'g' : part.name === 'ut' ? 'ph' : part.name;
  const out: Record<string, string> = {};
  if (name === 'mrk') {
    out.mtype = legalOr(src.mtype ?? src.type, (v) => MTYPES.has(v)) || 'x-tessera';
    if (src.mid !== undefined && NMTOKEN.test(src.mid)) out.mid = src.mid;
    if (src.comment !== undefined) out.comment = src.comment;
    return { name, attrs: out };
  }
  // TMX pairs bpt/ept with i and names codes with x; XLIFF uses id for both.
  const id = src.id ?? src.i ?? src.x;
  if (id === undefined) out.id = freshId(scope);
  const ctypes = name === 'x' || name === 'ph' ? PLACEHOLDER_CTYPES : DELIMITER_CTYPES;
  for (const [key, value] of Object.entries(src)) {
    switch (key) {
      case 'id':
      case 'i':
      case 'x':
        if (out.id === undefined) out.id = id!;
        break;
      case 'ctype':
      case 'type':
        if (name !== 'ept' && name !== 'ex' && out.ctype === undefined) {
          const ctype = legalOr(TMX_TYPE_TO_CTYPE[value] ?? value, (v) => ctypes.has(v));
          if (ctype) out.ctype = ctype;
        }
        break;
      case 'rid':
        if (!NMTOKEN.test(value)) break;
        if (name === 'bpt' || name === 'bx') {
          const key = `${name} ${value}`;
          if (!scope.written.has(key)) {
            scope.written.add(key);
            out.rid = value;
          }
        } else if (name === 'it' || (name === 'ept' && scope.bptRids.has(value))) out.rid = value;
        else if (name === 'ex' && scope.bxRids.has(value)) out.rid = value;
        break;
      case 'pos':
        if (name === 'it') out.pos = value === 'end' || value === 'close' ? 'close' : 'open';
        break;
      case 'assoc':
        if (name === 'ph') {
          const assoc = ASSOC[value] ?? value;
          if (assoc === 'preceding' || assoc === 'following' || assoc === 'both') out.assoc = assoc;
        }
        break;
      case 'clone':
        if ((name === 'g' || name === 'x' || name === 'bx') && (value === 'yes' || value === 'no'))
          out.clone = value;
        break;
      case 'crc':
        if (name === 'ph' || name === 'bpt' || name === 'ept' || name === 'it') out.crc = value;
        break;
      case 'xid':
      case 'equiv-text':
        out[key] = value;
        break;
    }
  }
  if (name === 'it' && out.pos === undefined) out.pos = 'open';
  if (part.name === 'hi' && out.ctype === undefined) out.ctype = 'x-hi';
  if (part.name === 'sub' && out.ctype === undefined) out.ctype = 'x-sub';
  return { name, attrs: out };
}

/** A value when listed or already an `x-` extension, else its `x-` extension form ("" for an empty value). */
function legalOr(value: string | undefined, isListed: (v: string) => boolean): string {
  if (value === undefined || value === '') return '';
  if (isListed(value) || /^x-\S+$/.test(value)) return value;
  return `x-${value.replace(/\s+/g, '-')}`;
}

/**
 * Native-code content of ph/bpt/ept/it: text (re-escaped so that any input is well-formed) and `<sub>`
 * elements, whose own content is inline text again. Anything else is kept as escaped text.
 */
function codeContent(content: string, prefix: string): string {
  if (content.indexOf('<') < 0 && content.indexOf('&') < 0) return xmlText(content);
  const parts = parseTagged(content);
  const paired = pairTags(parts);
  let out = '';
  let depth = 0;
  let subStart = -1;
  parts.forEach((p, i) => {
    if (depth > 0) {
      if (p.type === 'tag' && p.name === 'sub' && paired.has(i)) depth += p.form === 'open' ? 1 : -1;
      if (depth === 0) {
        // Text inside sub is stored escaped, as part of the code's content: unescaped, it is tagged text again.
        const inner = parts
          .slice(subStart + 1, i)
          .map((q) => (q.type === 'text' ? unescapeXml(q.text) : q.raw))
          .join('');
        const open = parts[subStart] as TagPart;
        const attrs: Record<string, string> = {};
        const datatype = open.attrs.datatype;
        if (datatype) attrs.datatype = legalOr(datatype, (v) => DATATYPES.has(v));
        const ctype = open.attrs.ctype ?? open.attrs.type;
        if (ctype) attrs.ctype = legalOr(ctype, (v) => DELIMITER_CTYPES.has(v));
        out += `<${prefix}sub${attrText(attrs)}>${toXliffInline(inner, prefix)}</${prefix}sub>`;
      }
    } else if (p.type === 'tag' && p.name === 'sub' && p.form === 'open' && paired.has(i)) {
      depth = 1;
      subStart = i;
    } else out += xmlText(unescapeXml(p.type === 'text' ? p.text : p.raw));
  });
  return out;
}

/** datatype values of the strict schema (anything else is written as `x-…`). */
const DATATYPES = new Set(
  (
    'asp c cdf cfm cpp csharp cstring csv database documentfooter documentheader filedialog form html htmlbody ini ' +
    'interleaf javaclass javapropertyresourcebundle javalistresourcebundle javascript jscript layout lisp margin ' +
    'menufile messagefile mif mimetype mo msglib pagefooter pageheader parameters pascal php plaintext po report ' +
    'resources resx rtf sgml sgmldtd svg vbscript warning winres xhtml xml xmldtd xsl xul'
  ).split(' '),
);

/** A datatype attribute value the strict schema accepts. */
export function xliffDatatype(datatype: string): string {
  return legalOr(datatype, (v) => DATATYPES.has(v)) || 'plaintext';
}

const MTYPES = new Set(
  (
    'abbrev abbreviated-form abbreviation acronym appellation collocation common-name datetime equation ' +
    'expanded-form formula head-term initialism international-scientific-term internationalism ' +
    'logical-expression materials-management-unit name near-synonym part-number phrase phraseological-unit ' +
    'protected romanized-form seg set-phrase short-form sku standard-text symbol synonym synonymous-phrase term ' +
    'transcribed-form transliterated-form truncated-term variant'
  ).split(' '),
);
