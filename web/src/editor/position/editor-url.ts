// The editor's URL, /documents/:id?seg=N&status=…&q=…&repeated=1: the segment one is on and the filter, so that a link
// opens the same segment with the same filter.
import { SEGMENT_STATUSES, type SegmentStatus } from '../../api/types.ts';
import type { SegmentFilter } from '../segments/segment-list.ts';

export interface UrlState {
  /** Segment number (position + 1), when the link names one. */
  seg: number | null;
  filter: SegmentFilter;
}

export function readUrl(): UrlState {
  const params = new URLSearchParams(window.location.search);
  const seg = Number(params.get('seg'));
  const statuses = (params.get('status') ?? '')
    .split(',')
    .filter((s): s is SegmentStatus => (SEGMENT_STATUSES as readonly string[]).includes(s));
  return {
    seg: Number.isInteger(seg) && seg > 0 ? seg : null,
    filter: {
      statuses,
      q: params.get('q') ?? '',
      repeated: params.get('repeated') === '1',
      qa: params.get('qa') === '1',
      unresolved: params.get('unresolved') === '1',
    },
  };
}

export function writeUrl(id: number, seg: number | undefined, filter: SegmentFilter) {
  const params = new URLSearchParams();
  if (seg !== undefined) params.set('seg', String(seg));
  if (filter.statuses.length > 0) params.set('status', filter.statuses.join(','));
  if (filter.q) params.set('q', filter.q);
  if (filter.repeated) params.set('repeated', '1');
  if (filter.qa) params.set('qa', '1');
  if (filter.unresolved) params.set('unresolved', '1');
  // Review mode is the reviewer's to switch (review/review-mode.ts); a move keeps it.
  if (new URLSearchParams(window.location.search).get('mode') === 'review') params.set('mode', 'review');
  const search = params.toString();
  const url = `/documents/${id}${search ? `?${search}` : ''}`;
  if (url !== window.location.pathname + window.location.search) window.history.replaceState(null, '', url);
}
