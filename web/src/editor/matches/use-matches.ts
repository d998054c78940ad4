// Memory matches of a source: one query per (memory, source), kept a minute, prefetched for the segments
// after the active one so that moving down paints from the cache.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client.ts';
import { matchesKey, memoryMatchesKey } from '../../api/keys/memories.ts';
import type { Position } from '../position/use-position.ts';

/** How many segments ahead are prefetched. */
const PREFETCH_AHEAD = 5;

const matchesOptions = (memoryId: number, source: string) => ({
  queryKey: matchesKey(memoryId, source),
  queryFn: ({ signal }: { signal: AbortSignal }) => api.matches(memoryId, source, signal),
  staleTime: 60_000,
});

export function useMatches(memoryId: number | undefined, source: string | undefined) {
  return useQuery({
    ...matchesOptions(memoryId ?? 0, source ?? ''),
    enabled: memoryId !== undefined && source !== undefined && source.trim() !== '',
  });
}

function prefetchMatches(queryClient: QueryClient, memoryId: number, sources: readonly string[]) {
  for (const source of sources) {
    if (source.trim() !== '') queryClient.prefetchQuery(matchesOptions(memoryId, source));
  }
}

/** The matches of the segments after the active one, so that moving down paints from the cache. */
export function usePrefetchMatches(memoryId: number | undefined, position: Position) {
  const queryClient = useQueryClient();
  const { list, active, activeIndex, total } = position;
  useEffect(() => {
    if (memoryId === undefined || !active) return;
    const next: string[] = [];
    for (let i = activeIndex + 1; i <= activeIndex + PREFETCH_AHEAD && i < total; i++) {
      const row = list.rowAt(i);
      if (row) next.push(row.source);
    }
    prefetchMatches(queryClient, memoryId, next);
  }, [memoryId, active, activeIndex, total, list, queryClient]);
}

/** After a confirmation the memory has changed: every cached match list may be out of date. */
export function forgetMatches(queryClient: QueryClient, memoryId: number) {
  queryClient.invalidateQueries({ queryKey: memoryMatchesKey(memoryId) });
}
