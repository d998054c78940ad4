// Query keys of a document's segments — the editor's pages, the status counts, a segment's history — and the
// views to read again when segments change.
import type { QueryClient } from '@tanstack/react-query';
import { documentKey, qaKey } from './documents.ts';

/** Every cached page of a document's segments, whatever the filter. */
export const segmentPagesKey = (documentId: number) => ['segments', documentId] as const;
export const segmentPageKey = (
  documentId: number,
  filter: { statuses: readonly string[]; q: string; repeated: boolean; qa?: boolean; unresolved?: boolean },
  page: number,
) =>
  [
    ...segmentPagesKey(documentId),
    filter.statuses.join(','),
    filter.q,
    filter.repeated,
    filter.qa ? 'qa' : '',
    filter.unresolved ? 'unresolved' : '',
    page,
  ] as const;
export const segmentCountsKey = (documentId: number) => ['segment-counts', documentId] as const;
export const historyKey = (segmentId: number) => ['history', segmentId] as const;

/** A segment's target or status changed: the status counts and the QA report read again. */
export function invalidateSegmentCounts(queryClient: QueryClient, documentId: number) {
  queryClient.invalidateQueries({ queryKey: segmentCountsKey(documentId) });
  queryClient.invalidateQueries({ queryKey: qaKey(documentId) });
}

/** Segments were saved: the counts, the QA report and the document (its confirmed count) read again. */
export function invalidateSegmentViews(queryClient: QueryClient, documentId: number) {
  queryClient.invalidateQueries({ queryKey: segmentCountsKey(documentId) });
  queryClient.invalidateQueries({ queryKey: documentKey(documentId) });
  queryClient.invalidateQueries({ queryKey: qaKey(documentId) });
}

/** Segments changed on the server (a replace, a pre-translation): the pages read again; resolves once they are. */
export function invalidateSegmentPages(queryClient: QueryClient, documentId: number): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: segmentPagesKey(documentId) });
}
