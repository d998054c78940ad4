// A termbase seen from one language pair: the source-language terms to recognize in a segment's source, the
// target-language terms to look for in its target, and each concept's target terms by status. Built from the
// term records the terms module answers; kept up to date term by term as they are added, edited or deleted.
import { primaryLanguage } from '../text/language-tags.ts';
import { TermIndex } from './term-index.ts';

export type TermStatus = 'preferred' | 'admitted' | 'deprecated' | 'forbidden';

/** A term of a concept, as the termbase holds it. */
export interface TermRecord {
  conceptId: number;
  termId: number;
  lang: string;
  text: string;
  status: TermStatus;
  caseSensitive: boolean;
  partOfSpeech?: string | null;
  definition?: string | null;
}

/** Statuses a translation may use; the others (deprecated, forbidden) are terms a target should not hold. */
export function isAcceptable(status: TermStatus): boolean {
  return status === 'preferred' || status === 'admitted';
}

const STATUS_ORDER: Readonly<Record<TermStatus, number>> = {
  preferred: 0,
  admitted: 1,
  deprecated: 2,
  forbidden: 3,
};

/** Terms in the order a translator is offered them: preferred, admitted, deprecated, forbidden. */
export function byStatus(a: TermRecord, b: TermRecord): number {
  return STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.termId - b.termId;
}

/** A place in a source where terms were recognized, with what their concepts say in the target language. */
export interface RecognizedTerm {
  /** UTF-16 offsets in the source as given (tags included). */
  start: number;
  end: number;
  /** The source-language terms found there (more than one when homonyms of several concepts are). */
  terms: TermRecord[];
  /** The target-language terms of those concepts, in the order of `byStatus`. */
  targets: TermRecord[];
}

export class Glossary {
  readonly srcLang: string;
  readonly trgLang: string;
  /** The source-language terms (every status: a deprecated source term still names its concept). */
  readonly source: TermIndex;
  /** The target-language terms. */
  readonly target: TermIndex;
  private readonly terms = new Map<number, TermRecord>();
  private readonly targetsOfConcept = new Map<number, TermRecord[]>();

  constructor(srcLang: string, trgLang: string) {
    this.srcLang = srcLang;
    this.trgLang = trgLang;
    this.source = new TermIndex(srcLang);
    this.target = new TermIndex(trgLang);
  }

  /**
   * Adds a term (or replaces the one of its id, as after an edit); terms of other languages are ignored —
   * a language matches by its primary subtag, so an `en` term serves an `en-US` document. False when ignored
   * or not recognizable (no word in it).
   */
  add(term: TermRecord): boolean {
    this.remove(term.termId);
    const lang = primaryLanguage(term.lang);
    const isSource = lang === primaryLanguage(this.srcLang);
    const isTarget = lang === primaryLanguage(this.trgLang);
    let added = false;
    if (isSource) added = this.source.add(term) || added;
    if (isTarget && this.target.add(term)) {
      added = true;
      const list = this.targetsOfConcept.get(term.conceptId) ?? [];
      list.push(term);
      list.sort(byStatus);
      this.targetsOfConcept.set(term.conceptId, list);
    }
    if (added) this.terms.set(term.termId, term);
    return added;
  }

  /** Removes the term of this id; false when the glossary does not hold it. */
  remove(termId: number): boolean {
    const old = this.terms.get(termId);
    if (!old) return false;
    this.terms.delete(termId);
    this.source.remove(old);
    if (this.target.remove(old)) {
      const list = this.targetsOfConcept.get(old.conceptId)?.filter((t) => t.termId !== termId) ?? [];
      if (list.length > 0) this.targetsOfConcept.set(old.conceptId, list);
      else this.targetsOfConcept.delete(old.conceptId);
    }
    return true;
  }

  /** The term of an id, when the glossary holds it. */
  term(termId: number): TermRecord | undefined {
    return this.terms.get(termId);
  }

  /** The target-language terms of a concept, in the order of `byStatus`. */
  targetTerms(conceptId: number): readonly TermRecord[] {
    return this.targetsOfConcept.get(conceptId) ?? [];
  }

  /** How many terms it holds (of either language). */
  get size(): number {
    return this.terms.size;
  }
}

/** The glossary of a language pair from a termbase's terms (those of other languages left out). */
export function buildGlossary(terms: Iterable<TermRecord>, srcLang: string, trgLang: string): Glossary {
  const glossary = new Glossary(srcLang, trgLang);
  for (const term of terms) glossary.add(term);
  return glossary;
}

/** The terms of a source, leftmost-longest, each with its concepts' target terms. */
export function recognizeTerms(glossary: Glossary, source: string): RecognizedTerm[] {
  return glossary.source.find(source).map((match) => {
    const terms = match.termIds.map((id) => glossary.term(id)).filter((t) => t !== undefined);
    const concepts = [...new Set(terms.map((t) => t.conceptId))];
    const targets = concepts.flatMap((c) => glossary.targetTerms(c)).sort(byStatus);
    return { start: match.start, end: match.end, terms, targets };
  });
}
