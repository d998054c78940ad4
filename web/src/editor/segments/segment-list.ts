// A document's segments as the editor's list sees them: pages of GET /v2/documents/segments fetched for the rows
// on screen, for one filter (statuses and text); rows found by index, the next unconfirmed found across pages,
// and a segment number located in a filtered list. Saved segments are written into the cached pages in place,
// so rows never jump while someone works.
import { type QueryClient, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { api } from '../../api/client.ts';
import { segmentCountsKey, segmentPageKey, segmentPagesKey } from '../../api/keys/segments.ts';
import type { DocumentSegment, SegmentStatus, SegmentsPage } from '../../api/types.ts';
import { lowerBound, PAGE_SIZE } from './locate.ts';

export interface SegmentFilter {
  /** Statuses kept; empty: all. */
  statuses: readonly SegmentStatus[];
  /** Text in source or target; '' for none. */
  q: string;
  /** Only repetitions: segments whose source occurs more than once in the project (the server's key). */
  repeated: boolean;
  /** Only segments with QA issues. */
  qa?: boolean;
  /** Only segments with an unresolved comment thread. */
  unresolved?: boolean;
}

/** Whether the filter keeps only some of the document's segments. */
export const isFiltered = (filter: SegmentFilter) =>
  filter.statuses.length > 0 ||
  filter.q !== '' ||
  filter.repeated ||
  filter.qa === true ||
  filter.unresolved === true;

/** Whether the filter keeps every segment (a row's index is then its position). */
export const isUnfiltered = (filter: SegmentFilter) => !isFiltered(filter);

export const UNCONFIRMED: readonly SegmentStatus[] = ['new', 'draft', 'pretranslated'];
export const isUnconfirmed = (s: DocumentSegment) => UNCONFIRMED.includes(s.status);

function fetchPage(docId: number, filter: SegmentFilter, page: number, signal?: AbortSignal) {
  return api.segments(
    {
      id: docId,
      offset: page * PAGE_SIZE,
      limit: PAGE_SIZE,
      status: filter.statuses.length > 0 ? filter.statuses : undefined,
      q: filter.q || undefined,
      repeated: filter.repeated || undefined,
      qa: filter.qa ? 'any' : undefined,
      unresolved: filter.unresolved || undefined,
    },
    signal,
  );
}

function pageOptions(docId: number, filter: SegmentFilter, page: number) {
  return {
    queryKey: segmentPageKey(docId, filter, page),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchPage(docId, filter, page, signal),
    // Pages change only through this editor's saves, which write into them.
    staleTime: Number.POSITIVE_INFINITY,
  };
}

export function writeSegment(queryClient: QueryClient, segment: DocumentSegment) {
  queryClient.setQueriesData<SegmentsPage>({ queryKey: segmentPagesKey(segment.document_id) }, (page) =>
    page?.segments.some((s) => s.id === segment.id)
      ? { ...page, segments: page.segments.map((s) => (s.id === segment.id ? segment : s)) }
      : page,
  );
}

export function useSegmentList(
  docId: number,
  filter: SegmentFilter,
  firstPage: number,
  visiblePages: readonly number[],
) {
  const queryClient = useQueryClient();
  const first = useQuery(pageOptions(docId, filter, firstPage));
  const pages = useQueries({ queries: visiblePages.map((page) => pageOptions(docId, filter, page)) });
  const counts = useQuery({
    queryKey: segmentCountsKey(docId),
    queryFn: () => api.segments({ id: docId, offset: 0, limit: 1 }),
    staleTime: 0,
  });

  // Rows by index from whatever pages are cached; rebuilt when a page arrives or a saved segment lands in one.
  const loadedAt = pages.map((p) => p.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: loadedAt says when the cached pages changed
  const rowAt = useCallback(
    (index: number): DocumentSegment | undefined =>
      queryClient.getQueryData<SegmentsPage>(segmentPageKey(docId, filter, Math.floor(index / PAGE_SIZE)))
        ?.segments[index % PAGE_SIZE],
    [queryClient, docId, filter, loadedAt, first.dataUpdatedAt],
  );

  const pageAt = useCallback(
    async (page: number) => (await queryClient.fetchQuery(pageOptions(docId, filter, page))).segments,
    [queryClient, docId, filter],
  );

  /** The index of the first row after `from` that satisfies `test`, reading pages as needed; null at the end. */
  const findAfter = useCallback(
    async (from: number, total: number, test: (s: DocumentSegment) => boolean): Promise<number | null> => {
      for (let page = Math.floor((from + 1) / PAGE_SIZE); page * PAGE_SIZE < total; page++) {
        const rows = await pageAt(page);
        for (let k = 0; k < rows.length; k++) {
          const index = page * PAGE_SIZE + k;
          if (index > from && test(rows[k])) return index;
        }
      }
      return null;
    },
    [pageAt],
  );

  const locate = useCallback(
    (total: number, position: number) =>
      !isFiltered(filter)
        ? Promise.resolve(Math.min(position, total - 1))
        : lowerBound(total, pageAt, position),
    [filter, pageAt],
  );

  const total = first.data?.total;
  return useMemo(
    () => ({
      total,
      error: first.error,
      counts: counts.data?.counts ?? first.data?.counts,
      repetitions: counts.data?.repetitions ?? first.data?.repetitions,
      documentTotal: counts.data?.total,
      rowAt,
      findAfter,
      locate,
    }),
    [total, first.error, first.data, counts.data, rowAt, findAfter, locate],
  );
}
