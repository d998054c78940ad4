// PO extraction: one unit per message, one per plural form for plural messages.
//
// Plural forms: form 0 shows msgid and every other form shows msgid_plural, except in a language with a
// single form (Japanese, Chinese…), where that one form serves every count and so shows msgid_plural.

import type { ExtractedUnit } from '../filter.ts';
import { literalToTagged } from '../tagged-literal.ts';
import { examplesForForm } from './plural-forms.ts';
import type { PoCatalog, PoMessage } from './po-catalog.ts';

export function extractUnits(catalog: PoCatalog): ExtractedUnit[] {
  return catalog.messages.flatMap((message) => {
    const units: ExtractedUnit[] = [];
    for (let form = 0; form < message.forms; form++) units.push(unitFor(catalog, message, form));
    return units;
  });
}

function unitFor(catalog: PoCatalog, { entry, data }: PoMessage, form: number): ExtractedUnit {
  const plural = entry.msgidPlural !== undefined;
  const source = plural && (form > 0 || catalog.rule.nplurals === 1) ? data.msgid_plural! : data.msgid;
  const unit: ExtractedUnit = { source: literalToTagged(source), segmentable: true };
  const context = [data.msgctxt, plural ? `msgstr[${form}]` : undefined]
    .filter((c) => c !== undefined)
    .join(' ');
  if (context) unit.context = context;
  const notes = messageNotes(data.comments);
  if (plural) {
    const examples = examplesForForm(catalog.rule, form, 5);
    const more = examples.length > 4 ? '…' : '';
    const which = examples.length ? ` (n = ${examples.slice(0, 4).join(', ')}${more})` : '';
    notes.push(`Plural form ${form} of ${catalog.rule.nplurals}${which}`);
  }
  if (notes.length) unit.notes = notes;
  const existing = data.msgstr[form];
  if (existing && catalog.targetsAreOurs) {
    unit.target = literalToTagged(existing);
    unit.state = isFuzzy(data.comments?.flag) ? 'needs-review-translation' : 'translated';
    unit.segmentable = false;
  }
  return unit;
}

function messageNotes(comments: PoMessage['data']['comments']): string[] {
  const notes: string[] = [];
  if (comments?.translator) notes.push(comments.translator);
  if (comments?.extracted) notes.push(comments.extracted);
  if (comments?.reference) notes.push(`References: ${comments.reference.split(/\s+/).join(' ')}`);
  const flags = (comments?.flag ?? '')
    .split(/[,\n]/)
    .map((f) => f.trim())
    .filter((f) => f && f !== 'fuzzy');
  if (flags.length) notes.push(`Flags: ${flags.join(', ')}`);
  return notes;
}

function isFuzzy(flag: string | undefined): boolean {
  return (flag ?? '').split(/[,\n]/).some((f) => f.trim() === 'fuzzy');
}
