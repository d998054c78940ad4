// Filters of the segment list: status chips with the document's counts, the repetitions (segments whose source
// occurs more than once in the project) with theirs, and a text search over source and target.
import { forwardRef, useEffect, useState } from 'react';
import { SEGMENT_STATUSES, type SegmentStatus } from '../../api/types.ts';
import { tooltip } from '../../keyboard/shortcut-label.ts';
import { STATUS_NAMES } from '../../ui/format.ts';
import { isFiltered, type SegmentFilter } from '../segments/segment-list.ts';

export const FilterBar = forwardRef<
  HTMLInputElement,
  {
    filter: SegmentFilter;
    counts: Record<SegmentStatus, number> | undefined;
    /** The document's segments that are repetitions. */
    repetitions: number | undefined;
    total: number | undefined;
    /** Segments with QA issues (the document's QA report), when known. */
    qaSegments: number | undefined;
    /** Segments with an unresolved comment thread, when known. */
    unresolvedSegments: number | undefined;
    /** `focus` false: the search is typed, the focus stays in it. */
    onChange: (filter: SegmentFilter, focus?: boolean) => void;
  }
>(function FilterBar(
  { filter, counts, repetitions, total, qaSegments, unresolvedSegments, onChange },
  searchRef,
) {
  const [q, setQ] = useState(filter.q);
  useEffect(() => setQ(filter.q), [filter.q]);
  // The list follows the search a moment after typing stops, not on every key.
  useEffect(() => {
    if (q === filter.q) return;
    const timer = setTimeout(() => onChange({ ...filter, q }, false), 250);
    return () => clearTimeout(timer);
  }, [q, filter, onChange]);

  const toggle = (status: SegmentStatus) => {
    const statuses = filter.statuses.includes(status)
      ? filter.statuses.filter((s) => s !== status)
      : SEGMENT_STATUSES.filter((s) => s === status || filter.statuses.includes(s));
    onChange({ ...filter, statuses });
  };
  const documentTotal = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;

  return (
    <div className="filter-bar" role="toolbar" aria-label="Filters">
      <button
        type="button"
        className="chip"
        aria-pressed={filter.statuses.length === 0 && !filter.repeated && !filter.qa && !filter.unresolved}
        onClick={() => onChange({ ...filter, statuses: [], repeated: false, qa: false, unresolved: false })}
      >
        All <span className="count">{documentTotal?.toLocaleString() ?? '…'}</span>
      </button>
      {SEGMENT_STATUSES.map((status) => (
        <button
          key={status}
          type="button"
          className={`chip status-${status}`}
          aria-pressed={filter.statuses.includes(status)}
          onClick={() => toggle(status)}
        >
          {STATUS_NAMES[status]} <span className="count">{counts?.[status].toLocaleString() ?? '…'}</span>
        </button>
      ))}
      <button
        type="button"
        className="chip repetitions"
        aria-pressed={filter.repeated}
        title="Segments whose source occurs more than once in the project, first occurrences included"
        onClick={() => onChange({ ...filter, repeated: !filter.repeated })}
      >
        Repetitions <span className="count">{repetitions?.toLocaleString() ?? '…'}</span>
      </button>
      <button
        type="button"
        className="chip qa-chip"
        aria-pressed={filter.qa === true}
        onClick={() => onChange({ ...filter, qa: !filter.qa })}
      >
        Has QA issues <span className="count">{qaSegments?.toLocaleString() ?? '…'}</span>
      </button>
      <button
        type="button"
        className="chip comments-chip"
        aria-pressed={filter.unresolved === true}
        title="Segments with a comment thread not resolved yet"
        onClick={() => onChange({ ...filter, unresolved: !filter.unresolved })}
      >
        Unresolved comments <span className="count">{unresolvedSegments?.toLocaleString() ?? '…'}</span>
      </button>
      <input
        ref={searchRef}
        type="search"
        className="filter-search"
        aria-label="Search segments"
        placeholder="Search source and target…"
        title={tooltip('findInDocument')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter: the search is done, to the first segment found.
          if (e.key === 'Enter') {
            e.preventDefault();
            onChange({ ...filter, q: e.currentTarget.value });
          }
        }}
      />
      {isFiltered(filter) && total !== undefined && (
        <span className="filter-result" role="status">
          {total.toLocaleString()} shown
        </span>
      )}
    </div>
  );
});
