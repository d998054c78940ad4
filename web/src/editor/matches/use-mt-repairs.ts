// A segment's fuzzy matches repaired by machine translation (GET /v2/translate/repairs), asked for beside its
// matches and MT: one query per (memory, source), kept a minute (a confirmed segment can change the memory's
// matches), prefetched for the segments after the active one like the MT suggestion.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client.ts';
import { mtRepairsKey } from '../../api/keys/mt.ts';
import type { RepairList } from '../../api/types.ts';
import type { Position } from '../position/use-position.ts';

const PREFETCH_AHEAD = 5;

const repairOptions = (memoryId: number, source: string) => ({
  queryKey: mtRepairsKey(memoryId, source),
  queryFn: ({ signal }: { signal: AbortSignal }) => api.mtRepairs(memoryId, source, signal),
  staleTime: 60_000,
});

export function useMtRepairs(memoryId: number | undefined, source: string | undefined) {
  return useQuery({
    ...repairOptions(memoryId ?? 0, source ?? ''),
    enabled: memoryId !== undefined && source !== undefined && source.trim() !== '',
  });
}

/** The cached repairs of a source, for the insert key. */
export function cachedMtRepairs(queryClient: QueryClient, memoryId: number, source: string) {
  return queryClient.getQueryData<RepairList>(mtRepairsKey(memoryId, source));
}

export function usePrefetchMtRepairs(memoryId: number | undefined, position: Position) {
  const queryClient = useQueryClient();
  const { list, active, activeIndex, total } = position;
  useEffect(() => {
    if (memoryId === undefined || !active) return;
    for (let i = activeIndex + 1; i <= activeIndex + PREFETCH_AHEAD && i < total; i++) {
      const row = list.rowAt(i);
      if (row && row.source.trim() !== '') queryClient.prefetchQuery(repairOptions(memoryId, row.source));
    }
  }, [memoryId, active, activeIndex, total, list, queryClient]);
}
