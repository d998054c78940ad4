// What the editor shows of a source's recognized terms: the Terms panel's list, the numbered target terms a key
// inserts (forbidden ones never), and the words a highlight says of a term — not by colour alone.
import type { Glossary, RecognizedTerm, TermRecord, TermStatus } from '@server/terminology/glossary.ts';
import { recognizeTerms } from '@server/terminology/glossary.ts';

/** How many target terms have a key (Alt+Shift+1…9). */
export const NUMBERED_TERMS = 9;

/** A status in words, as the panel and the highlights say it. */
export const STATUS_WORDS: Readonly<Record<TermStatus, string>> = {
  preferred: 'preferred',
  admitted: 'admitted',
  deprecated: 'deprecated — avoid',
  forbidden: 'forbidden — do not use',
};

/** The recognized terms of a source, memoized per glossary (every visible row asks on each render). */
const recognized = new WeakMap<Glossary, Map<string, RecognizedTerm[]>>();

export function termsOfSource(glossary: Glossary | undefined, source: string): RecognizedTerm[] {
  if (!glossary) return [];
  let bySource = recognized.get(glossary);
  if (!bySource) {
    bySource = new Map();
    recognized.set(glossary, bySource);
  }
  let found = bySource.get(source);
  if (!found) {
    found = recognizeTerms(glossary, source);
    // Bounded: a long session scrolls through many sources.
    if (bySource.size > 2000) bySource.clear();
    bySource.set(source, found);
  }
  return found;
}

/** The target terms a key may insert, numbered from 1 in the panel's order: every status but forbidden. */
export function insertableTerms(found: readonly RecognizedTerm[]): TermRecord[] {
  const seen = new Set<number>();
  const out: TermRecord[] = [];
  for (const r of found) {
    for (const t of r.targets) {
      if (t.status === 'forbidden' || seen.has(t.termId)) continue;
      seen.add(t.termId);
      out.push(t);
    }
  }
  return out.slice(0, NUMBERED_TERMS);
}

/** The definition of a recognized term: its source term's, else its first target term's that has one. */
export function definitionOf(r: RecognizedTerm): string | null {
  return [...r.terms, ...r.targets].find((t) => t.definition)?.definition ?? null;
}

/** What a highlighted source term says on hover and to a screen reader: its target terms and their status. */
export function termDescription(r: RecognizedTerm): string {
  if (r.targets.length === 0) return 'Term: no translation in the termbase';
  return `Term: ${r.targets.map((t) => `${t.text} (${STATUS_WORDS[t.status]})`).join('; ')}`;
}
