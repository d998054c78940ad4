// The glossary of the document being edited, built in the browser from GET /v2/documents/terms with the
// server's own recognizer and term QA (src/terminology/): terms are recognized in each source and checked in
// the target as the translator types, as the server checks them on confirmation and in document QA. A term
// added from the editor reads the glossary again (its query key invalidated); otherwise it is read when the
// editor opens and when the window regains the focus.

import { buildGlossary, type Glossary, type TermRecord } from '@server/terminology/glossary.ts';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { documentTermsKey } from '../../api/keys/terms.ts';
import type { DocumentTerms } from '../../api/types.ts';

/** One glossary per answer: every row and panel reading the same answer shares it. */
const built = new WeakMap<DocumentTerms, Glossary>();

export function glossaryOf(answer: DocumentTerms | undefined): Glossary | undefined {
  if (!answer || answer.terms.length === 0) return undefined;
  let glossary = built.get(answer);
  if (!glossary) {
    const records: TermRecord[] = answer.terms.map((t) => ({
      conceptId: t.concept_id,
      termId: t.term_id,
      lang: t.lang,
      text: t.text,
      status: t.status,
      caseSensitive: t.case_sensitive,
      partOfSpeech: t.part_of_speech,
      definition: t.definition,
    }));
    glossary = buildGlossary(records, answer.srclang, answer.trglang);
    built.set(answer, glossary);
  }
  return glossary;
}

/** The document's glossary (undefined until read, or when its memory has no term of its pair) and its memory. */
export function useDocumentGlossary(documentId: number | undefined) {
  const query = useQuery({
    queryKey: documentTermsKey(documentId ?? 0),
    queryFn: () => api.documentTerms(documentId!),
    enabled: documentId !== undefined,
    staleTime: 60_000,
    retry: false,
  });
  return { glossary: glossaryOf(query.data), memoryId: query.data?.memory_id ?? undefined };
}

/** The glossary already read for a document, for a command (a confirmation's QA check) outside React's render. */
export function cachedGlossary(queryClient: QueryClient, documentId: number): Glossary | undefined {
  return glossaryOf(queryClient.getQueryData<DocumentTerms>(documentTermsKey(documentId)));
}
