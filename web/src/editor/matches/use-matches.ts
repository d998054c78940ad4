// Memory matches of a segment's source: one query per (memory, source, segment), kept a minute, prefetched for the
// segments after the active one so that moving down paints from the cache. The segment goes with the query so
// that the server can flag context (101 %) matches.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client.ts';
import { matchesKey, memoryMatchesKey } from '../../api/keys/memories.ts';
import type { Position } from '../position/use-position.ts';

/** How many segments ahead are prefetched. */
const PREFETCH_AHEAD = 5;

const matchesOptions = (memoryId: number, source: string, segmentId: number | undefined) => ({
  queryKey: matchesKey(memoryId, source, segmentId),
  queryFn: ({ signal }: { signal: AbortSignal }) => api.matches(memoryId, source, signal, segmentId),
  staleTime: 60_000,
});

/** `segmentId`: the document segment the source is of (none for the memory page's "try a query"). */
export function useMatches(
  memoryId: number | undefined,
  source: string | undefined,
  segmentId: number | undefined,
) {
  return useQuery({
    ...matchesOptions(memoryId ?? 0, source ?? '', segmentId),
    enabled: memoryId !== undefined && source !== undefined && source.trim() !== '',
  });
}

function prefetchMatches(
  queryClient: QueryClient,
  memoryId: number,
  segments: readonly { source: string; id: number }[],
) {
  for (const { source, id } of segments) {
    if (source.trim() !== '') queryClient.prefetchQuery(matchesOptions(memoryId, source, id));
  }
}

/** The matches of the segments after the active one, so that moving down paints from the cache. */
export function usePrefetchMatches(memoryId: number | undefined, position: Position) {
  const queryClient = useQueryClient();
  const { list, active, activeIndex, total } = position;
  useEffect(() => {
    if (memoryId === undefined || !active) return;
    const next: { source: string; id: number }[] = [];
    for (let i = activeIndex + 1; i <= activeIndex + PREFETCH_AHEAD && i < total; i++) {
      const row = list.rowAt(i);
      if (row) next.push(row);
    }
    prefetchMatches(queryClient, memoryId, next);
  }, [memoryId, active, activeIndex, total, list, queryClient]);
}

/** After a confirmation the memory has changed: every cached match list may be out of date. */
export function forgetMatches(queryClient: QueryClient, memoryId: number) {
  queryClient.invalidateQueries({ queryKey: memoryMatchesKey(memoryId) });
}
