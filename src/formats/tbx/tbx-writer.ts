// Streaming TBX writer: TBX-Basic, as TBX 2019 (v3, DCA style, the default) or TBX 2008 (v2, `<martif>`, which
// translate-toolkit and older tools read). Hand-written markup through the XML writer's escaping helpers,
// in the element order TBX-Basic prescribes (term, termNote, descrip, note).
import { endTag, startTag, textElement, XmlChunks } from '../../xml/xml-writer.ts';
import type { ConceptRecord, TermRecord, TermStatus } from './termbase.ts';

export type TbxVersion = 2 | 3;

export interface TbxHeader {
  /** The file's main language (the root's xml:lang). */
  lang: string;
  /** Said in the header's source description. */
  source: string;
  version: TbxVersion;
}

/** TBX-Basic's administrativeStatus for each status; forbidden is deprecated there, with a note saying more. */
const ADMINISTRATIVE_STATUS: Record<TermStatus, string> = {
  preferred: 'preferredTerm-admn-sts',
  admitted: 'admittedTerm-admn-sts',
  deprecated: 'deprecatedTerm-admn-sts',
  forbidden: 'deprecatedTerm-admn-sts',
};

export async function* writeTbx(
  concepts:
    | AsyncIterable<ConceptRecord & { id: number | string }>
    | Iterable<ConceptRecord & { id: number | string }>,
  header: TbxHeader,
): AsyncGenerator<string, void> {
  const v3 = header.version === 3;
  const names = v3
    ? { entry: 'conceptEntry', lang: 'langSec', term: 'termSec' }
    : { entry: 'termEntry', lang: 'langSet', term: 'tig' };
  const out = new XmlChunks();
  out.write('<?xml version="1.0" encoding="UTF-8"?>\n');
  if (v3) {
    out.write(
      startTag('tbx', {
        type: 'TBX-Basic',
        style: 'dca',
        'xml:lang': header.lang,
        xmlns: 'urn:iso:std:iso:30042:ed-2',
      }),
    );
    out.write('\n  <tbxHeader><fileDesc><sourceDesc>');
  } else {
    out.write(startTag('martif', { type: 'TBX-Basic', 'xml:lang': header.lang }));
    out.write('\n  <martifHeader><fileDesc><sourceDesc>');
  }
  out.write(textElement('p', {}, header.source));
  out.write('</sourceDesc></fileDesc>');
  if (!v3) out.write('<encodingDesc><p type="XCSURI">TBXBasicXCSV02.xcs</p></encodingDesc>');
  out.write(v3 ? '</tbxHeader>' : '</martifHeader>');
  out.write('\n  <text>\n    <body>\n');
  for await (const concept of concepts) {
    out.write(`      ${startTag(names.entry, { id: `c${concept.id}` })}\n`);
    if (concept.domain)
      out.write(`        ${textElement('descrip', { type: 'subjectField' }, concept.domain)}\n`);
    if (concept.note) out.write(`        ${textElement('note', {}, concept.note)}\n`);
    for (const [lang, terms] of byLanguage(concept.terms)) {
      out.write(`        ${startTag(names.lang, { 'xml:lang': lang })}\n`);
      const definition = terms.find((t) => t.definition)?.definition;
      if (definition) out.write(`          ${textElement('descrip', { type: 'definition' }, definition)}\n`);
      for (const term of terms) {
        out.write(`          ${startTag(names.term)}`);
        out.write(textElement('term', {}, term.text));
        if (term.partOfSpeech)
          out.write(textElement('termNote', { type: 'partOfSpeech' }, term.partOfSpeech));
        out.write(
          textElement('termNote', { type: 'administrativeStatus' }, ADMINISTRATIVE_STATUS[term.status]),
        );
        if (term.context) out.write(textElement('descrip', { type: 'context' }, term.context));
        if (term.status === 'forbidden') out.write(textElement('note', {}, 'forbidden'));
        if (term.note) out.write(textElement('note', {}, term.note));
        out.write(`${endTag(names.term)}\n`);
      }
      out.write(`        ${endTag(names.lang)}\n`);
    }
    out.write(`      ${endTag(names.entry)}\n`);
    if (out.full) yield out.take();
  }
  out.write(`    </body>\n  </text>\n${endTag(v3 ? 'tbx' : 'martif')}\n`);
  yield out.take();
}

/** A concept's terms by language, in the order the languages first appear. */
function byLanguage(terms: readonly TermRecord[]): Map<string, TermRecord[]> {
  const groups = new Map<string, TermRecord[]>();
  for (const term of terms) {
    const group = groups.get(term.lang);
    if (group) group.push(term);
    else groups.set(term.lang, [term]);
  }
  return groups;
}
