// Query keys of memories, their entries, matches and concordance, and what to read again when a memory changes.
import type { QueryClient } from '@tanstack/react-query';

export const memoriesKey = ['memories'] as const;
export const memoryKey = (memoryId: number) => ['memory', memoryId] as const;
export const entriesKey = (memoryId: number) => ['entries', memoryId] as const;
export const entriesPageKey = (memoryId: number, offset: number, q: string) =>
  [...entriesKey(memoryId), offset, q] as const;
/** Every match list of a memory: a confirmation adds an entry to it. */
export const memoryMatchesKey = (memoryId: number) => ['matches', memoryId] as const;
/** A segment's matches: its source, and the segment itself, whose context tells context (101 %) matches. */
export const matchesKey = (memoryId: number, source: string, segmentId?: number) =>
  [...memoryMatchesKey(memoryId), source, segmentId ?? null] as const;
export const concordanceKey = (memoryId: number | undefined, side: 'source' | 'target', text: string) =>
  ['concordance', memoryId, side, text] as const;

/** A memory's name, size or state changed: it and the list read again. */
export function invalidateMemory(queryClient: QueryClient, memoryId: number) {
  queryClient.invalidateQueries({ queryKey: memoryKey(memoryId) });
  queryClient.invalidateQueries({ queryKey: memoriesKey });
}
