// Query keys of a document's comments, and what to read again when they change (a comment written here, or a
// `comment` event of someone else's).
import type { QueryClient } from '@tanstack/react-query';
import { segmentPagesKey } from './segments.ts';

export const commentsKey = (documentId: number) => ['comments', documentId] as const;

/** Comments changed: the document's comments read again, and the segment list when it shows only unresolved ones. */
export function invalidateComments(queryClient: QueryClient, documentId: number) {
  queryClient.invalidateQueries({ queryKey: commentsKey(documentId) });
  queryClient.invalidateQueries({
    queryKey: segmentPagesKey(documentId),
    predicate: (q) => q.queryKey.includes('unresolved'),
  });
}
