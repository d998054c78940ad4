// Term QA: the termbase's checks of a translation, answered as the other QA checks answer (src/text/qa), so
// that the editor, the confirmation and the document's QA report take them as they take the others:
// - TERM_MISSING (warning): a concept recognized in the source has acceptable (preferred or admitted) target
//   terms and the target holds none of them, in any inflection its language's stemmer knows;
// - TERM_FORBIDDEN (error: it stops a confirmation like a missing placeholder) and TERM_DEPRECATED (warning):
//   the target holds a term of that status — unless it is part of a longer acceptable term there ("Speicher"
//   inside "Speicher voll"), or the same words are an acceptable translation of a concept the source holds
//   (a homonym forbidden in another sense);
// - TERM_INCONSISTENT (warning), across a document: one concept translated by different acceptable terms in
//   different segments; the segments that depart from the most used translation are marked.
import { QA_CODES, QA_SEVERITY, type QaCode, type QaIssue } from '../text/qa/qa-checks.ts';
import {
  type Glossary,
  isAcceptable,
  type RecognizedTerm,
  recognizeTerms,
  type TermRecord,
} from './glossary.ts';
import type { TermMatch } from './term-index.ts';

/** How many of a concept's terms a message names before "…". */
const NAMED_TERMS = 3;

function issue(code: QaCode, message: string, at?: { start: number; end: number }): QaIssue {
  const found: QaIssue = { code, severity: QA_SEVERITY[code], message };
  if (at) {
    found.start = at.start;
    found.end = at.end;
  }
  return found;
}

function quoted(terms: readonly TermRecord[]): string {
  const named = terms.slice(0, NAMED_TERMS).map((t) => `"${t.text}"`);
  return terms.length > NAMED_TERMS ? `${named.join(', ')}…` : named.join(' or ');
}

interface SourceConcept {
  /** The first source term that named the concept in the segment. */
  sourceTerm: TermRecord;
  acceptable: TermRecord[];
}

/** The concepts of the recognized source terms, each once, in source order. */
function conceptsOf(glossary: Glossary, recognized: readonly RecognizedTerm[]): Map<number, SourceConcept> {
  const concepts = new Map<number, SourceConcept>();
  for (const found of recognized) {
    for (const term of found.terms) {
      if (concepts.has(term.conceptId)) continue;
      const acceptable = glossary.targetTerms(term.conceptId).filter((t) => isAcceptable(t.status));
      concepts.set(term.conceptId, { sourceTerm: term, acceptable });
    }
  }
  return concepts;
}

interface TargetOccurrence {
  match: TermMatch;
  terms: TermRecord[];
}

function targetOccurrences(glossary: Glossary, target: string): TargetOccurrence[] {
  return glossary.target.find(target, { overlapping: true }).map((match) => ({
    match,
    terms: match.termIds.map((id) => glossary.term(id)).filter((t) => t !== undefined),
  }));
}

/**
 * The term issues of one segment's translation (source and target as tagged text): missing required terms,
 * forbidden and deprecated terms, placed in the target where they have a place. `recognized` saves recognizing
 * the source again when the caller (the editor) has done it.
 */
export function checkTerms(
  glossary: Glossary,
  source: string,
  target: string | null,
  recognized: readonly RecognizedTerm[] = recognizeTerms(glossary, source),
): QaIssue[] {
  if (target === null || target.trim() === '') return [];
  const issues: QaIssue[] = [];
  const concepts = conceptsOf(glossary, recognized);
  const occurrences = targetOccurrences(glossary, target);
  const present = new Set<number>();
  for (const o of occurrences) for (const t of o.terms) if (isAcceptable(t.status)) present.add(t.conceptId);

  for (const [conceptId, concept] of concepts) {
    if (concept.acceptable.length === 0 || present.has(conceptId)) continue;
    issues.push(
      issue(
        QA_CODES.termMissing,
        `Term "${concept.sourceTerm.text}" of the source is not translated as the termbase says: ${quoted(concept.acceptable)}`,
      ),
    );
  }

  for (const o of occurrences) {
    const unwanted = o.terms.find((t) => !isAcceptable(t.status));
    if (!unwanted || covered(o, occurrences, concepts)) continue;
    const forbidden = o.terms.find((t) => t.status === 'forbidden') ?? unwanted;
    const instead = glossary.targetTerms(forbidden.conceptId).filter((t) => isAcceptable(t.status));
    const use = instead.length > 0 ? `; use ${quoted(instead)}` : '';
    const written = target.slice(o.match.start, o.match.end);
    issues.push(
      forbidden.status === 'forbidden'
        ? issue(QA_CODES.termForbidden, `"${written}" is a forbidden term${use}`, o.match)
        : issue(QA_CODES.termDeprecated, `"${written}" is a deprecated term${use}`, o.match),
    );
  }
  return issues;
}

/**
 * Whether an unwanted term's occurrence is excused: it lies inside a longer occurrence of an acceptable term,
 * or the same words are an acceptable translation of a concept of the source.
 */
function covered(
  o: TargetOccurrence,
  occurrences: readonly TargetOccurrence[],
  concepts: ReadonlyMap<number, SourceConcept>,
): boolean {
  if (o.terms.some((t) => isAcceptable(t.status) && concepts.has(t.conceptId))) return true;
  return occurrences.some(
    (other) =>
      other !== o &&
      other.match.start <= o.match.start &&
      other.match.end >= o.match.end &&
      other.match.end - other.match.start > o.match.end - o.match.start &&
      other.terms.some((t) => isAcceptable(t.status)),
  );
}

/** A concept of a segment's source rendered by one of its acceptable target terms, at that place of the target. */
export interface TermUse {
  conceptId: number;
  /** The source term that named the concept. */
  sourceTermId: number;
  /** The target term used (any inflection of it). */
  targetTermId: number;
  /** UTF-16 offsets of its first occurrence in the target as given. */
  start: number;
  end: number;
}

/** Which acceptable target terms a translation uses for the concepts of its source (input of the consistency check). */
export function termUses(
  glossary: Glossary,
  source: string,
  target: string | null,
  recognized: readonly RecognizedTerm[] = recognizeTerms(glossary, source),
): TermUse[] {
  if (target === null || target.trim() === '') return [];
  const concepts = conceptsOf(glossary, recognized);
  const uses: TermUse[] = [];
  const seen = new Set<string>();
  for (const o of targetOccurrences(glossary, target)) {
    for (const t of o.terms) {
      const concept = concepts.get(t.conceptId);
      if (!concept || !isAcceptable(t.status) || seen.has(`${t.conceptId}:${t.termId}`)) continue;
      seen.add(`${t.conceptId}:${t.termId}`);
      uses.push({
        conceptId: t.conceptId,
        sourceTermId: concept.sourceTerm.termId,
        targetTermId: t.termId,
        start: o.match.start,
        end: o.match.end,
      });
    }
  }
  return uses;
}

export interface SegmentTermUses {
  segmentId: number;
  uses: readonly TermUse[];
}

export interface SegmentQaIssue {
  segmentId: number;
  issue: QaIssue;
}

/**
 * Concepts translated more than one way across a document (segments in document order): for each, the target
 * term most segments use (the first used, on a tie) is the document's translation, and every use of another
 * term is a TERM_INCONSISTENT warning on its segment, placed where it is in the target.
 */
export function checkTermConsistency(
  glossary: Glossary,
  segments: Iterable<SegmentTermUses>,
): SegmentQaIssue[] {
  const byConcept = new Map<number, { segmentId: number; use: TermUse }[]>();
  const order = new Map<number, number>();
  for (const segment of segments) {
    order.set(segment.segmentId, order.size);
    for (const use of segment.uses) {
      const list = byConcept.get(use.conceptId) ?? [];
      list.push({ segmentId: segment.segmentId, use });
      byConcept.set(use.conceptId, list);
    }
  }
  const found: SegmentQaIssue[] = [];
  for (const uses of byConcept.values()) {
    const segmentsOf = new Map<number, Set<number>>();
    for (const { segmentId, use } of uses) {
      const set = segmentsOf.get(use.targetTermId) ?? new Set<number>();
      set.add(segmentId);
      segmentsOf.set(use.targetTermId, set);
    }
    if (segmentsOf.size < 2) continue;
    let main = -1;
    let mainCount = 0;
    for (const [termId, set] of segmentsOf) {
      if (set.size > mainCount) {
        main = termId;
        mainCount = set.size;
      }
    }
    const mainText = glossary.term(main)?.text ?? '';
    for (const { segmentId, use } of uses) {
      if (use.targetTermId === main) continue;
      const sourceText = glossary.term(use.sourceTermId)?.text ?? '';
      const usedText = glossary.term(use.targetTermId)?.text ?? '';
      const others = [...(segmentsOf.get(main) ?? [])].filter((id) => id !== segmentId).length;
      const where = others === 1 ? 'another segment' : `${others} other segments`;
      found.push({
        segmentId,
        issue: issue(
          QA_CODES.termInconsistent,
          `Term "${sourceText}" is translated as "${usedText}" here and as "${mainText}" in ${where}`,
          use,
        ),
      });
    }
  }
  // In document order, as the QA report lists issues.
  return found.sort((a, b) => (order.get(a.segmentId) ?? 0) - (order.get(b.segmentId) ?? 0));
}
