// The editor's saves for one document: the SegmentSaves that holds what is typed and not yet saved, what a save
// changes in the cache, the outbox sent again (on opening, when the network is back, every ten seconds while
// edits wait), and the status bar's "Resolve" that brings a put-off conflict back.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { everyProjectKey } from '../../api/keys/projects.ts';
import { historyKey, invalidateSegmentViews } from '../../api/keys/segments.ts';
import { meKey } from '../../api/keys/users.ts';
import type { Caller, DocumentSegment } from '../../api/types.ts';
import { forgetMatches } from '../matches/use-matches.ts';
import { writeSegment } from '../segments/segment-list.ts';
import { SegmentSaves } from './segment-saves.ts';

export function useSaves(documentId: number, memoryId: number | undefined) {
  const queryClient = useQueryClient();
  const memoryRef = useRef(memoryId);
  memoryRef.current = memoryId;
  // One per document for the page's life: it holds what is typed and not yet saved.
  const saves = useMemo(
    () =>
      new SegmentSaves(
        (segment, request) => {
          writeSegment(queryClient, segment);
          invalidateSegmentViews(queryClient, segment.document_id);
          queryClient.invalidateQueries({ queryKey: historyKey(segment.id) });
          if (request.is_confirmed !== undefined) {
            queryClient.invalidateQueries({ queryKey: everyProjectKey });
            if (memoryRef.current !== undefined) forgetMatches(queryClient, memoryRef.current);
          }
        },
        { documentId, user: queryClient.getQueryData<Caller>(meKey)?.username },
      ),
    [queryClient, documentId],
  );
  useSyncExternalStore(saves.subscribe, saves.snapshot);
  const summary = saves.summary();

  // What the outbox kept from an earlier visit (a reload, a crash, a lost connection) is sent again, and again
  // whenever the network is back; while edits wait, every ten seconds too (a server that was down).
  useEffect(() => {
    saves.replay();
    const replay = () => saves.replay();
    window.addEventListener('online', replay);
    return () => window.removeEventListener('online', replay);
  }, [saves]);
  const waiting = summary.pending > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => saves.replay(), 10_000);
    return () => clearInterval(timer);
  }, [waiting, saves]);

  /** Saves the target of a segment when it differs from what is saved (or being saved). */
  const commit = useCallback(
    (segment: DocumentSegment | undefined, text: string) => {
      if (segment && text !== saves.targetOf(segment))
        saves.save({ id: segment.id, target: text }, segment.updated_at);
    },
    [saves],
  );

  // Esc puts a conflict's choice off; the status bar's "Resolve" asks for it again.
  const [conflictReopen, setConflictReopen] = useState(0);
  const reopenConflict = useCallback(() => setConflictReopen((n) => n + 1), []);

  return { saves, summary, commit, conflictReopen, reopenConflict };
}
