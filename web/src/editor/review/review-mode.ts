// Review mode (docs/EDITOR.md, Review mode): on with ?mode=review in the editor's URL, switched by the header's
// Review mode button. In it, each target shows the translator's version as tracked changes, and Ctrl+Enter sets
// Reviewed instead of confirming. The baselines are each segment's newest confirmed version, read from the server
// (GET /v2/review/baselines) while the mode is on. Only those who review (auth/role-names.ts, mayReview) have it;
// it switches on by itself for the document's reviewer while the document is in a review stage, unless they
// switched it themselves.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api/client.ts';
import { reviewBaselinesKey } from '../../api/keys/quality.ts';
import type { ReviewBaselines } from '../../api/types.ts';

export type Baseline = ReviewBaselines['baselines'][number];

function inUrl(): boolean {
  return new URLSearchParams(window.location.search).get('mode') === 'review';
}

/**
 * Whether review mode is on, and its switch. `allowed`: the caller reviews (a translator never has it, whatever
 * the URL says). `auto`: the caller is the reviewer of the stage the document is in — the mode comes on by itself
 * once, and the reviewer's own switch wins from then on.
 */
export function useReviewMode(allowed: boolean, auto: boolean): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(inUrl);
  const chosen = useRef(false);
  const apply = useCallback((next: boolean) => {
    const url = new URL(window.location.href);
    if (next) url.searchParams.set('mode', 'review');
    else url.searchParams.delete('mode');
    window.history.replaceState(null, '', url.pathname + url.search);
    setOn(next);
  }, []);
  const set = useCallback(
    (next: boolean) => {
      chosen.current = true;
      apply(next);
    },
    [apply],
  );
  useEffect(() => {
    if (allowed && auto && !chosen.current) apply(true);
  }, [allowed, auto, apply]);
  return [on && allowed, set];
}

/** Whether the caller is assigned to the stage the document is in, and that stage is a review. */
export function reviewsNow(
  caller: { user_id: number },
  doc: { stage: string; assignees?: { stage: string; user_id: number }[] } | undefined,
): boolean {
  if (!doc || (doc.stage !== 'review' && doc.stage !== 'review2')) return false;
  return (doc.assignees ?? []).some((a) => a.stage === doc.stage && a.user_id === caller.user_id);
}

/** The translator's version of each segment, by segment id, while review mode is on. */
export function useBaselines(documentId: number, on: boolean): Map<number, Baseline> | undefined {
  const baselines = useQuery({
    queryKey: reviewBaselinesKey(documentId),
    queryFn: () => api.reviewBaselines(documentId),
    enabled: on,
    // A confirmation makes a new baseline: the live segment events read them again
    // (segments/use-live-segments.ts); without the stream, now and then and on focus.
    refetchInterval: on ? 30_000 : false,
  });
  return useMemo(
    () => (baselines.data ? new Map(baselines.data.baselines.map((b) => [b.segment_id, b])) : undefined),
    [baselines.data],
  );
}
