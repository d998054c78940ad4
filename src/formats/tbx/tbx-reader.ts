// Streaming TBX reader: TBX 2008 (v2, `<martif>`: TBX-Basic, TBX-Default, what translate-toolkit writes) and
// TBX 2019 (v3, `<tbx>`: DCA style, where a data category is `<descrip type="definition">`, and DCT style,
// where it is an element of its own namespace, `<basic:definition>`). One concept at a time, through the
// streaming XML reader (no DTD or external entity is ever read; entity declarations are refused). Errors
// carry the line and column.
import { FormatError, XmlError } from '../../errors.ts';
import { gunzipIfCompressed } from '../../xml/gzip.ts';
import { readXml, type XmlContext, type XmlHandlers, type XmlTag } from '../../xml/xml-reader.ts';
import { type ConceptRecord, statusFromFile, TERM_STATUSES, type TermRecord } from './termbase.ts';

export interface TbxReadOptions {
  /** A gzipped file's largest size once inflated (TESSERA_MAX_DECOMPRESSED_BYTES). */
  maxDecompressedBytes?: number;
}

/** The TBX version a file was read as, known once its root is read. */
export interface TbxReadInfo {
  version?: 2 | 3;
  /** The root's type: `TBX-Basic`, `TBX-Default`, `TBX`… */
  dialect?: string;
}

export type TbxReader = AsyncGenerator<ConceptRecord, void> & { readonly info: TbxReadInfo };

export function readTbx(input: AsyncIterable<Uint8Array>, options: TbxReadOptions = {}): TbxReader {
  const info: TbxReadInfo = {};
  const concepts = readConcepts(input, options, info);
  return Object.assign(concepts, { info });
}

async function* readConcepts(
  input: AsyncIterable<Uint8Array>,
  options: TbxReadOptions,
  info: TbxReadInfo,
): AsyncGenerator<ConceptRecord, void> {
  yield* readXml<ConceptRecord>(gunzipIfCompressed(input, options.maxDecompressedBytes), (ctx) =>
    tbxHandlers(ctx, info),
  );
  if (info.version === undefined) throw new FormatError('Not a TBX file: it has no root element');
}

const ENTRY = new Set(['termEntry', 'conceptEntry']);
const LANG_SECTION = new Set(['langSet', 'langSec']);
const TERM_SECTION = new Set(['tig', 'ntig', 'termSec']);
/** Elements whose `type` attribute names the data category (DCA style, and all of TBX 2008). */
const TYPED = new Set(['descrip', 'termNote', 'admin']);
/** Data categories that carry a usage status. */
const STATUS_CATEGORIES = new Set([
  'administrativestatus',
  'normativeauthorization',
  'usagestatus',
  'termstatus',
  'usagenote',
]);

interface LangSection {
  lang: string;
  definition?: string;
  terms: TermRecord[];
}

interface Capture {
  /** `term`, or the data category's name lower-cased. */
  category: string;
  depth: number;
  text: string;
}

function tbxHandlers(ctx: XmlContext<ConceptRecord>, info: TbxReadInfo): XmlHandlers {
  let inBody = false;
  let concept: (ConceptRecord & { definition?: string }) | undefined;
  let langSection: LangSection | undefined;
  let term: (TermRecord & { rank: number }) | undefined;
  let termAt = { line: 0, column: 0 };
  let capture: Capture | undefined;

  const invalid = (detail: string, at: { line: number; column: number } = ctx.position()): never => {
    throw new XmlError(detail, at.line, at.column, 'Invalid TBX');
  };

  function openTag(tag: XmlTag): void {
    const { name, attributes } = tag;
    if (info.version === undefined) {
      if (name === 'martif') info.version = 2;
      else if (name === 'tbx') info.version = 3;
      else ctx.fail('Not a TBX file', `the root is <${name}>, not <martif> (TBX 2008) or <tbx> (TBX 2019)`);
      info.dialect = attributes.type;
      return;
    }
    if (capture) {
      capture.depth++;
      return;
    }
    if (name === 'body') inBody = true;
    if (!inBody) return;
    if (ENTRY.has(name)) {
      if (concept) invalid(`<${name}> inside another entry`);
      const at = ctx.position();
      concept = { terms: [], line: at.line, column: at.column };
      if (attributes.id) concept.externalId = attributes.id;
    } else if (LANG_SECTION.has(name)) {
      if (!concept || langSection) invalid(`<${name}> outside an entry`);
      const lang = attributes['xml:lang'] ?? attributes.lang;
      if (!lang || lang.trim() === '') invalid(`<${name}> has no xml:lang`);
      langSection = { lang: lang.trim().replace(/_/g, '-'), terms: [] };
    } else if (TERM_SECTION.has(name)) {
      if (!langSection || term) {
        invalid(`<${name}> outside a language section`);
        return;
      }
      termAt = ctx.position();
      term = { lang: langSection.lang, text: '', status: 'preferred', caseSensitive: false, rank: -1 };
    } else if (name === 'term' && term) {
      capture = { category: 'term', depth: 1, text: '' };
    } else if (TYPED.has(localName(name)) && attributes.type) {
      capture = { category: attributes.type.toLowerCase(), depth: 1, text: '' };
    } else if (name === 'note') {
      capture = { category: 'note', depth: 1, text: '' };
    } else if (name.includes(':')) {
      // DCT style: the element is the data category.
      capture = { category: localName(name).toLowerCase(), depth: 1, text: '' };
    }
  }

  function closeTag(tag: XmlTag): void {
    const { name } = tag;
    if (capture) {
      if (--capture.depth > 0) return;
      const done = capture;
      capture = undefined;
      apply(done.category, done.text.trim());
      return;
    }
    if (name === 'body') inBody = false;
    if (!inBody) return;
    if (TERM_SECTION.has(name) && term && langSection) {
      if (term.text === '') invalid(`a <${name}> without the text of its <term>`, termAt);
      const { rank: _rank, ...done } = term;
      langSection.terms.push(done);
      term = undefined;
    } else if (LANG_SECTION.has(name) && langSection && concept) {
      for (const t of langSection.terms) {
        if (t.definition === undefined && langSection.definition) t.definition = langSection.definition;
      }
      concept.terms.push(...langSection.terms);
      langSection = undefined;
    } else if (ENTRY.has(name) && concept) {
      if (concept.terms.length === 0) {
        invalid(`<${name}> has no term`, { line: concept.line!, column: concept.column! });
      }
      const { definition, ...done } = concept;
      if (definition) for (const t of done.terms) t.definition ??= definition;
      ctx.emit(done);
      concept = undefined;
    }
  }

  function apply(category: string, text: string): void {
    if (category === 'term') {
      if (term) term.text = text;
      return;
    }
    if (text === '' || !concept) return;
    if (term && STATUS_CATEGORIES.has(category)) {
      const status = statusFromFile(text);
      if (status) {
        setStatus(status);
        return;
      }
      if (category === 'usagenote') term.note = joined(term.note, text);
      return;
    }
    switch (category) {
      case 'subjectfield':
        concept.domain ??= text;
        return;
      case 'definition':
        if (term) term.definition = text;
        else if (langSection) langSection.definition = text;
        else concept.definition = text;
        return;
      case 'context':
        if (term) term.context = text;
        return;
      case 'partofspeech':
        if (term) term.partOfSpeech = text;
        return;
      case 'casesensitivity':
      case 'casesensitive':
        if (term) term.caseSensitive = /^(true|yes|1|sensitive|casesensitive|case-sensitive)$/i.test(text);
        return;
      case 'note':
        // A term's note that is only a status word ("forbidden") is how Tessera marks what TBX-Basic's
        // administrative status cannot say; any other note is a note.
        if (term && statusFromFile(text) === 'forbidden') setStatus('forbidden');
        else if (term) term.note = joined(term.note, text);
        else concept.note = joined(concept.note, text);
        return;
    }
  }

  /** Several status categories on one term (administrativeStatus beside a usage note): the strictest wins. */
  function setStatus(status: TermRecord['status']): void {
    const rank = TERM_STATUSES.indexOf(status);
    if (term && rank > term.rank) {
      term.status = status;
      term.rank = rank;
    }
  }

  return {
    openTag,
    closeTag,
    text(text) {
      if (capture) capture.text += text;
    },
  };
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function joined(before: string | undefined, text: string): string {
  return before ? `${before}\n${text}` : text;
}
