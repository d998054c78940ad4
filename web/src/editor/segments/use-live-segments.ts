// Segments that change under the editor: another person's change arrives live (GET /v2/events) and is written
// into the cached pages, shown in the open editor unless it holds unsaved edits, and announced; a replace, a
// pre-translation or a restored version has the pages read again. Answers whether the event stream is open.
import type { EditorView } from '@codemirror/view';
import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback, useEffect, useState } from 'react';
import { invalidateComments } from '../../api/keys/comments.ts';
import { documentKey } from '../../api/keys/documents.ts';
import { reviewBaselinesKey } from '../../api/keys/quality.ts';
import {
  invalidateSegmentCounts,
  invalidateSegmentPages,
  invalidateSegmentViews,
  segmentPagesKey,
} from '../../api/keys/segments.ts';
import { meKey } from '../../api/keys/users.ts';
import type { Caller, DocumentSegment, SegmentStatus, SegmentsPage } from '../../api/types.ts';
import { type SegmentEvent, useLiveEvents } from '../../live/use-live-events.ts';
import { stageLabel } from '../../workflow/stages.ts';
import type { SegmentSaves } from '../save/segment-saves.ts';
import { setTarget } from '../target/target-editor.tsx';
import { writeSegment } from './segment-list.ts';

export function useLiveSegments({
  documentId,
  saves,
  view,
  active,
  pretranslating,
}: {
  documentId: number;
  saves: SegmentSaves;
  /** The target editor of the active segment. */
  view: RefObject<EditorView | null>;
  active: DocumentSegment | undefined;
  /** The document's pre-translation is under way (undefined until the document is read). */
  pretranslating: boolean | undefined;
}) {
  const queryClient = useQueryClient();
  /** Bumped when segments change under the editor (replace, restore): the active editor reads its text again. */
  const [generation, setGeneration] = useState(0);
  const [liveNote, setLiveNote] = useState('');

  /** Segments changed on the server under the editor (a replace, its undo): read them again. */
  const reload = useCallback(async () => {
    invalidateSegmentViews(queryClient, documentId);
    // The active editor takes its text from the pages read again.
    await invalidateSegmentPages(queryClient, documentId);
    setGeneration((n) => n + 1);
  }, [queryClient, documentId]);

  // Pre-translation rewrites segments: once it ends, the pages are read again.
  useEffect(() => {
    if (pretranslating === false) invalidateSegmentPages(queryClient, documentId);
  }, [pretranslating, queryClient, documentId]);

  /** A panel changed a segment on the server (a version restored): the editor shows it. */
  const segmentChanged = (segment: DocumentSegment) => {
    writeSegment(queryClient, segment);
    if (view.current && active?.id === segment.id) setTarget(view.current, segment.target ?? '');
    invalidateSegmentCounts(queryClient, documentId);
  };

  // Live: another person's change of a segment shows at once (unless this editor holds unsaved edits of it,
  // which the save's conflict check then settles), and is announced.
  const onSegment = (event: SegmentEvent) => {
    if (event.document_id !== documentId) return;
    // A confirmation anywhere is a new translator's version for review mode (review/review-mode.ts).
    if (event.status === 'confirmed')
      queryClient.invalidateQueries({ queryKey: reviewBaselinesKey(documentId) });
    if (saves.hasUnsaved(event.segment_id)) return;
    const v = view.current;
    // Typed here and not yet saved: the save must meet the other change as a conflict, not overwrite it.
    if (v && active?.id === event.segment_id && v.state.doc.toString() !== saves.targetOf(active)) {
      saves.pin(active.id, active.updated_at);
      return;
    }
    let changed: DocumentSegment | undefined;
    let before: string | null = null;
    queryClient.setQueriesData<SegmentsPage>({ queryKey: segmentPagesKey(documentId) }, (page) => {
      if (!page?.segments.some((s) => s.id === event.segment_id)) return page;
      return {
        ...page,
        segments: page.segments.map((s) => {
          if (s.id !== event.segment_id) return s;
          before = s.target;
          changed = {
            ...s,
            target: event.target,
            status: event.status as SegmentStatus,
            is_confirmed: event.status === 'confirmed' || event.status === 'reviewed',
            is_reviewed: event.status === 'reviewed',
            updated_at: event.updated_at,
          };
          return changed;
        }),
      };
    });
    saves.rebase({ id: event.segment_id, updated_at: event.updated_at });
    invalidateSegmentCounts(queryClient, documentId);
    const shown = v?.state.doc.toString();
    if (v && active?.id === event.segment_id && shown === (before ?? '') && shown !== (event.target ?? ''))
      setTarget(v, event.target ?? '');
    const me = queryClient.getQueryData<Caller>(meKey);
    if (changed && event.user && event.user !== me?.username) {
      const seg = changed as DocumentSegment;
      setLiveNote(`Segment ${seg.position + 1} ${event.status} by ${event.user}`);
    }
  };
  const live = useLiveEvents(
    { document_id: documentId },
    {
      segment: onSegment,
      document: (event) => {
        if (event.document_id !== documentId) return;
        queryClient.invalidateQueries({ queryKey: documentKey(documentId) });
        if (event.reload) invalidateSegmentPages(queryClient, documentId);
      },
      task: (event) => {
        if (event.document_id === documentId)
          queryClient.invalidateQueries({ queryKey: documentKey(documentId) });
      },
      comment: (event) => {
        if (event.document_id !== documentId) return;
        invalidateComments(queryClient, documentId);
        const me = queryClient.getQueryData<Caller>(meKey);
        if (event.user !== me?.username && event.action === 'created') {
          setLiveNote(`New comment by ${event.user}`);
        }
      },
      // Handed on or sent back by someone else: the header's stage and hand-off buttons follow.
      stage: (event) => {
        if (event.document_id !== documentId) return;
        queryClient.invalidateQueries({ queryKey: documentKey(documentId) });
        setLiveNote(`Document moved to ${stageLabel(event.to)} by ${event.user}`);
      },
    },
  );

  return { live, liveNote, generation, reload, segmentChanged };
}
