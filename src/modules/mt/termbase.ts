// What the MT engine is told of a memory's termbase, and how it keeps MT to it.
//
// - Which target term: a recognized source term's concept's first acceptable target term — preferred, then
//   admitted (glossary.ts orders them). A concept whose target terms are all deprecated or forbidden gives the
//   MT no term: telling the engine a word it must not use is term QA's job, not the MT's.
// - Protect and substitute (every engine but a DeepL glossary's): the recognized source term is sent as a
//   masking element (`<xN/>`, text/mt-masking.ts) and restored as the target term. The engine's grammar around
//   a frozen term is the price: an article or adjective keeps the gender the engine guessed for a word it never
//   saw (Apertium writes "el <x1/>" whatever the term's gender), and the term is never inflected.
// - DeepL: a glossary of the termbase's entries per engine, memory and pair (deepl-glossaries.ts), DeepL then
//   inflecting the terms itself.
// - Cost per call: the glossary of a (memory, pair) is kept in process and rebuilt only when the termbase's
//   signature (one aggregate query: count, sum of ids, latest edit's second) changes. A glossary read in the
//   second of the latest edit is not kept, so an edit later in that same second is never missed.
// - The MT cache: a protected text is cached as sent (its term is an element), and the target term is put in
//   after the cache, so a changed termbase never answers a stale term from it. A DeepL glossary's answers are
//   cached under the glossary's content hash.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../store/db.ts';
import {
  buildGlossary,
  type Glossary,
  isAcceptable,
  recognizeTerms,
  type TermRecord,
} from '../../terminology/glossary.ts';
import { primaryLanguage } from '../../text/language-tags.ts';
import type { ProtectedSpan } from '../../text/mt-masking.ts';
import { termbaseSignature, termsOfMemory } from '../terms/service.ts';

/** A memory's termbase for one language pair, as MtEngine.translate takes it. */
export interface MtTermbase {
  memoryId: number;
  glossary: Glossary;
  /** Source term → its target term, one per source term (DeepL's glossary entries). */
  entries: Map<string, string>;
  /** A hash of `entries`: what a DeepL glossary and its cached answers are known by. */
  hash: string;
}

/** The entries of a glossary: each source term (any status: a deprecated source still names its concept) → the first acceptable target term. */
export function glossaryEntries(
  terms: readonly TermRecord[],
  srcLang: string,
  trgLang: string,
): Map<string, string> {
  const src = primaryLanguage(srcLang);
  const trg = primaryLanguage(trgLang);
  const targets = new Map<number, TermRecord>();
  const rank = (t: TermRecord) => (t.status === 'preferred' ? 0 : 1);
  for (const t of terms) {
    if (primaryLanguage(t.lang) !== trg || !isAcceptable(t.status)) continue;
    const known = targets.get(t.conceptId);
    if (!known || rank(t) < rank(known) || (rank(t) === rank(known) && t.termId < known.termId)) {
      targets.set(t.conceptId, t);
    }
  }
  const entries = new Map<string, string>();
  for (const t of [...terms].sort((a, b) => a.termId - b.termId)) {
    if (primaryLanguage(t.lang) !== src) continue;
    const target = targets.get(t.conceptId);
    // DeepL's entries are tab-separated lines, unique by source: a term with a tab or line break, or a second
    // concept for the same source text, is left out.
    if (!target || /[\t\r\n]/.test(t.text + target.text) || entries.has(t.text)) continue;
    entries.set(t.text, target.text);
  }
  return entries;
}

function entriesHash(entries: Map<string, string>): string {
  const canonical = JSON.stringify([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/** A termbase from term records (the bench and tests make theirs this way). */
export function makeTermbase(
  memoryId: number,
  terms: readonly TermRecord[],
  srcLang: string,
  trgLang: string,
): MtTermbase {
  const entries = glossaryEntries(terms, srcLang, trgLang);
  return { memoryId, glossary: buildGlossary(terms, srcLang, trgLang), entries, hash: entriesHash(entries) };
}

/** Keeps the target term's capital when the source term starts a sentence with one and the target has none. */
function matchCapital(sourceTerm: string, target: TermRecord): string {
  const first = sourceTerm.charAt(0);
  const text = target.text;
  if (target.caseSensitive || first === first.toLowerCase()) return text;
  const head = text.charAt(0);
  return head === head.toLowerCase() ? head.toUpperCase() + text.slice(1) : text;
}

/** The spans of a tagged source the engine should not translate, each with its target term. */
export function protectedSpans(termbase: MtTermbase, tagged: string): ProtectedSpan[] {
  const spans: ProtectedSpan[] = [];
  for (const found of recognizeTerms(termbase.glossary, tagged)) {
    const target = found.targets.find((t) => isAcceptable(t.status));
    if (!target) continue;
    const atSentenceStart = /^\s*$|[.!?:]\s*$/.test(tagged.slice(0, found.start).replace(/<[^>]*>/g, ''));
    const text = atSentenceStart ? matchCapital(tagged.slice(found.start, found.end), target) : target.text;
    spans.push({ start: found.start, end: found.end, target: text });
  }
  return spans;
}

interface Kept {
  signature: string;
  termbase: MtTermbase | null;
}

/** Termbases kept at most (the least recently used goes): a 100,000-term glossary is a few MB. */
const MAX_KEPT = 64;

/** The termbases of memories, kept per (organization, memory, pair) until their terms change. */
export class MtTermbases {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The memory's termbase for the pair, or null when it holds no term of the pair. */
  async of(
    db: Queryable,
    organizationId: number,
    memoryId: number,
    source: string,
    target: string,
  ): Promise<MtTermbase | null> {
    const key = `${organizationId}:${memoryId}:${primaryLanguage(source)}:${primaryLanguage(target)}`;
    const readAt = Math.floor(this.now() / 1000);
    const s = await termbaseSignature(db, organizationId, memoryId);
    if (s.count === 0) return null;
    const signature = `${s.count}:${s.ids}:${s.latest}`;
    const known = this.kept.get(key);
    if (known && known.signature === signature) {
      // Most recently used last: the first key is the one evicted.
      this.kept.delete(key);
      this.kept.set(key, known);
      return known.termbase;
    }
    const terms = await termsOfMemory(db, organizationId, memoryId);
    const termbase = makeTermbase(memoryId, terms, source, target);
    const usable = termbase.entries.size > 0 ? termbase : null;
    // Kept only when the latest edit is of an earlier second than the read (see the header).
    if (s.latest < readAt) {
      if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.delete(key);
      this.kept.set(key, { signature, termbase: usable });
    }
    return usable;
  }
}
