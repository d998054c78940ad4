// A segment's machine translation, asked for beside its memory matches: one query per (memory, source), kept
// ten minutes (the engine answers the same), prefetched for the segments after the active one like the matches.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client.ts';
import { mtSuggestionKey } from '../../api/keys/mt.ts';
import type { Position } from '../position/use-position.ts';

const PREFETCH_AHEAD = 5;

const suggestionOptions = (memoryId: number, source: string) => ({
  queryKey: mtSuggestionKey(memoryId, source),
  queryFn: ({ signal }: { signal: AbortSignal }) => api.mtSuggestion(memoryId, source, signal),
  staleTime: 600_000,
});

export function useMtSuggestion(memoryId: number | undefined, source: string | undefined) {
  return useQuery({
    ...suggestionOptions(memoryId ?? 0, source ?? ''),
    enabled: memoryId !== undefined && source !== undefined && source.trim() !== '',
  });
}

/** The cached suggestion of a source, for the insert key. */
export function cachedMtSuggestion(queryClient: QueryClient, memoryId: number, source: string) {
  return queryClient.getQueryData<Awaited<ReturnType<typeof api.mtSuggestion>>>(
    mtSuggestionKey(memoryId, source),
  );
}

export function usePrefetchMtSuggestions(memoryId: number | undefined, position: Position) {
  const queryClient = useQueryClient();
  const { list, active, activeIndex, total } = position;
  useEffect(() => {
    if (memoryId === undefined || !active) return;
    for (let i = activeIndex + 1; i <= activeIndex + PREFETCH_AHEAD && i < total; i++) {
      const row = list.rowAt(i);
      if (row && row.source.trim() !== '') queryClient.prefetchQuery(suggestionOptions(memoryId, row.source));
    }
  }, [memoryId, active, activeIndex, total, list, queryClient]);
}
