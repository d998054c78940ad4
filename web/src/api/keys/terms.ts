// Query keys of a memory's termbase (its concepts and terms, page by page and searched).
import type { QueryClient } from '@tanstack/react-query';

export const termsKey = (memoryId: number) => ['terms', memoryId] as const;
/** The term candidates learned from a memory: read again when a concept is added (one may have been accepted). */
export const termCandidatesKey = (memoryId: number) => [...termsKey(memoryId), 'candidates'] as const;
export const termsPageKey = (memoryId: number, offset: number, q: string) =>
  [...termsKey(memoryId), offset, q] as const;

/**
 * A concept was added, changed, deleted or imported: every page of the memory's terms reads again, and so do
 * the glossaries of the documents open in this tab (which memory each is of is the server's to say).
 */
export function invalidateTerms(queryClient: QueryClient, memoryId: number) {
  queryClient.invalidateQueries({ queryKey: termsKey(memoryId) });
  queryClient.invalidateQueries({ queryKey: ['document-terms'] });
}

/** The glossary of a document (its project memory's terms in its pair), which the editor recognizes with. */
export const documentTermsKey = (documentId: number) => ['document-terms', documentId] as const;
