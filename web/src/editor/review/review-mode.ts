// Review mode (docs/EDITOR.md, Review mode): on with ?mode=review in the editor's URL, switched by the header's
// Review mode button. In it, each target shows the translator's version as tracked changes, and Ctrl+Enter sets
// Reviewed instead of confirming. The baselines are each segment's newest confirmed version, read from the server
// (GET /v2/review/baselines) while the mode is on.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { api } from '../../api/client.ts';
import { reviewBaselinesKey } from '../../api/keys/quality.ts';
import type { ReviewBaselines } from '../../api/types.ts';

export type Baseline = ReviewBaselines['baselines'][number];

function inUrl(): boolean {
  return new URLSearchParams(window.location.search).get('mode') === 'review';
}

export function useReviewMode(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(inUrl);
  const set = useCallback((next: boolean) => {
    const url = new URL(window.location.href);
    if (next) url.searchParams.set('mode', 'review');
    else url.searchParams.delete('mode');
    window.history.replaceState(null, '', url.pathname + url.search);
    setOn(next);
  }, []);
  return [on, set];
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
