// A translation of a paragraph unit (docx-paragraph.ts) written back as WordprocessingML runs.

import { parseTagged } from '../../text/inline-tags.ts';
import { xmlText } from '../../xml/xml-escape.ts';
import type { Range } from '../filter.ts';
import { pairedGIds } from '../native-splice.ts';
import type { DocxTag, DocxUnit } from './docx-paragraph.ts';

/**
 * The runs for a translation: text in the formatting of its innermost `<g>` (the base outside any), wrappers'
 * markup around their content, placeholders' markup where the translation puts them. Unknown or unpaired tags
 * are dropped; placeholders the translation left out are appended, so no drawing or field is lost.
 */
export function renderParagraph(
  translation: string,
  unit: DocxUnit,
  render: (range: Range) => string,
): string {
  const p = unit.prefix;
  const parts = parseTagged(translation);
  const pairs = pairedGIds(parts, (id) => {
    const kind = unit.tags.get(id)?.kind;
    return kind === 'format' || kind === 'wrapper';
  });
  const formats = [unit.base];
  const used = new Set<string>();
  let out = '';
  let text = '';
  const run = (rPr: string, t: string) =>
    `<${p}r>${rPr}<${p}t xml:space="preserve">${xmlText(t)}</${p}t></${p}r>`;
  const flush = () => {
    if (text) out += run(formats[formats.length - 1], text);
    text = '';
  };
  if (unit.lead) out += run(unit.lead.rPr, unit.lead.text);
  const pieces = (tag: Extract<DocxTag, { kind: 'placeholder' }>) => {
    for (const piece of tag.pieces) {
      out += piece.kind === 'raw' ? render(piece.range) : `<${p}r>${piece.rPr}${render(piece.range)}</${p}r>`;
    }
  };
  parts.forEach((part, i) => {
    if (part.type === 'text') {
      text += part.text;
      return;
    }
    const pairedId = pairs.get(i);
    if (pairedId !== undefined) {
      flush();
      const tag = unit.tags.get(pairedId) as Extract<DocxTag, { kind: 'format' | 'wrapper' }>;
      if (part.form === 'open') {
        if (tag.kind === 'wrapper') out += render(tag.open);
        formats.push(tag.kind === 'wrapper' ? tag.base : tag.rPr);
      } else {
        formats.pop();
        if (tag.kind === 'wrapper') out += render(tag.close);
      }
      return;
    }
    const tag = unit.tags.get(part.attrs.id);
    if (!tag || (part.form !== 'empty' && part.form !== 'code')) return;
    if (tag.kind === 'literal') text += tag.text;
    else if (tag.kind === 'placeholder') {
      flush();
      pieces(tag);
      used.add(part.attrs.id);
    }
  });
  flush();
  for (const [id, tag] of unit.tags) if (tag.kind === 'placeholder' && !used.has(id)) pieces(tag);
  if (unit.trail) out += run(unit.trail.rPr, unit.trail.text);
  return out;
}
