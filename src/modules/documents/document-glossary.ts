// A document's glossary: the terms of its project's memory in the document's language pair. The editor reads it
// (GET /v2/documents/terms) to recognize terms and check them as the translator types; document QA and the
// confirmation check the same terms on the server, so that the editor and the server always agree.
import type { Principal } from '../../http/principal.ts';
import type { Queryable } from '../../store/db.ts';
import { buildGlossary, type Glossary } from '../../terminology/glossary.ts';
import { primaryLanguage } from '../../text/language-tags.ts';
import { type MemoryTerm, termbaseStamp, termsOfPair } from '../terms/service.ts';
import { documentAccess } from './assignments.ts';
import type { ProjectsOfDocuments } from './projects-of-documents.ts';
import type { DocumentRow } from './repository.ts';

/** How documents find their project's memory (the projects module's, handed over by app.ts). */
export type MemoryOfProject = ProjectsOfDocuments['memoryOfProject'];

/** The memory of a document's project and its terms in the document's language pair. */
export async function termsOfDocument(
  db: Queryable,
  doc: Pick<DocumentRow, 'organization_id' | 'project_id' | 'srclang' | 'trglang'>,
  memoryOfProject: MemoryOfProject,
): Promise<{ memoryId: number | null; terms: MemoryTerm[] }> {
  const memoryId = await memoryOfProject(db, doc.project_id);
  if (memoryId === undefined) return { memoryId: null, terms: [] };
  return {
    memoryId,
    terms: await termsOfPair(db, doc.organization_id, memoryId, doc.srclang, doc.trglang),
  };
}

/**
 * Glossaries built lately, by memory and pair, each with the stamp of the terms it was built from: every
 * confirmation checks its target against the termbase, and reading and indexing 100,000 terms each time
 * would cost far more than the one aggregate query that says they have not changed. The stamp is read from
 * the store, so another server process's change is seen too.
 */
const cache = new Map<string, { stamp: string; glossary: Glossary | undefined }>();
const CACHED_GLOSSARIES = 8;

/** The glossary term QA checks a document's segments with; undefined when its memory holds no term of its pair. */
export async function glossaryOfDocument(
  db: Queryable,
  doc: Pick<DocumentRow, 'organization_id' | 'project_id' | 'srclang' | 'trglang'>,
  memoryOfProject: MemoryOfProject,
): Promise<Glossary | undefined> {
  const memoryId = await memoryOfProject(db, doc.project_id);
  if (memoryId === undefined) return undefined;
  const key = `${doc.organization_id}:${memoryId}:${primaryLanguage(doc.srclang)}:${primaryLanguage(doc.trglang)}`;
  const { stamp, settled } = await termbaseStamp(db, doc.organization_id, memoryId);
  const cached = cache.get(key);
  if (cached && cached.stamp === stamp) {
    // Most recently used last: the first entry is the one to drop.
    cache.delete(key);
    cache.set(key, cached);
    return cached.glossary;
  }
  const terms = await termsOfPair(db, doc.organization_id, memoryId, doc.srclang, doc.trglang);
  const glossary = terms.length > 0 ? buildGlossary(terms, doc.srclang, doc.trglang) : undefined;
  cache.delete(key);
  // Kept only once its stamp is settled: a term edited later in this same second would leave the stamp as it is.
  if (settled) cache.set(key, { stamp, glossary });
  if (cache.size > CACHED_GLOSSARIES) cache.delete(cache.keys().next().value!);
  return glossary;
}

/** GET /v2/documents/terms: the glossary of a document anyone who may open it may read. */
export async function documentTerms(
  db: Queryable,
  principal: Principal,
  id: number,
  memoryOfProject: MemoryOfProject,
) {
  const doc = await documentAccess(db, principal, id);
  const { memoryId, terms } = await termsOfDocument(db, doc, memoryOfProject);
  return {
    document_id: doc.id,
    memory_id: memoryId,
    srclang: doc.srclang,
    trglang: doc.trglang,
    terms: terms.map((t) => ({
      concept_id: t.conceptId,
      term_id: t.termId,
      lang: t.lang,
      text: t.text,
      status: t.status,
      case_sensitive: t.caseSensitive,
      part_of_speech: t.partOfSpeech,
      definition: t.definition,
    })),
  };
}
