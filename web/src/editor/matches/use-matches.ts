// Memory matches of a source: one query per (memory, source), kept a minute, prefetched for the segments
// after the current one so that moving down paints from the cache.
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

/** How many segments ahead are prefetched. */
export const PREFETCH_AHEAD = 5;

const matchesOptions = (memoryId: number, source: string) => ({
  queryKey: ['matches', memoryId, source] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.matches(memoryId, source, signal),
  staleTime: 60_000,
});

export function useMatches(memoryId: number | undefined, source: string | undefined) {
  return useQuery({
    ...matchesOptions(memoryId ?? 0, source ?? ''),
    enabled: memoryId !== undefined && source !== undefined && source.trim() !== '',
  });
}

export function prefetchMatches(queryClient: QueryClient, memoryId: number, sources: readonly string[]) {
  for (const source of sources) {
    if (source.trim() !== '') queryClient.prefetchQuery(matchesOptions(memoryId, source));
  }
}

/** After a confirmation the memory has changed: every cached match list may be out of date. */
export function forgetMatches(queryClient: QueryClient, memoryId: number) {
  queryClient.invalidateQueries({ queryKey: ['matches', memoryId] });
}
