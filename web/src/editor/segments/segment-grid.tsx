// The segment list as an ARIA grid (№, source, target, status, score), windowed: only the rows on screen and a
// few around them are in the DOM, whatever the document's length. The active row hosts the target editor;
// every other target is a textbox that becomes the editor when it gets focus.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, type ReactNode, useEffect, useLayoutEffect, useRef } from 'react';
import type { DocumentSegment } from '../../api/types.ts';
import { STATUS_NAMES } from '../../ui/format.ts';
import { filledFromContext, shownScore } from '../matches/context-match.ts';
import type { SaveEntry } from '../save/segment-saves.ts';
import { TaggedText } from '../tags/tagged-text.tsx';
import { PAGE_SIZE } from './locate.ts';

export interface SegmentGridProps {
  total: number;
  rowAt: (index: number) => DocumentSegment | undefined;
  activeIndex: number;
  /** The editor of the active row. */
  editor: ReactNode;
  saveOf: (id: number) => SaveEntry | undefined;
  targetOf: (segment: DocumentSegment) => string;
  onActivate: (index: number) => void;
  /** Pages of the list that the rows on screen fall in. */
  onVisiblePages: (pages: number[]) => void;
  /** Asks the grid to bring the active row into view. */
  scrollRequest: number;
  onFirstRows: () => void;
}

function SaveBadge({ entry }: { entry: SaveEntry | undefined }) {
  if (!entry) return null;
  if (entry.state === 'saving') return <span className="save-badge saving">Saving…</span>;
  if (entry.state === 'pending') return <span className="save-badge pending">Pending</span>;
  if (entry.state === 'conflict') return <span className="save-badge conflict">Conflict</span>;
  if (entry.state === 'failed') {
    return (
      <span className="save-badge failed" title={entry.error}>
        Not saved
      </span>
    );
  }
  return <span className="save-badge saved">Saved</span>;
}

/** The score of the match pre-translation filled the segment from: 101 % for a context match. */
function ScoreBadge({ segment, score }: { segment: DocumentSegment; score: number }) {
  const shown = shownScore(score, filledFromContext(segment));
  const band = shown > 100 ? 'in-context' : shown === 100 ? 'exact' : 'fuzzy';
  return (
    <span
      className={`score small ${band}`}
      title={shown > 100 ? 'Context match: exact, in the same context' : undefined}
    >
      {shown}%
    </span>
  );
}

interface SegmentRowProps {
  index: number;
  start: number;
  segment: DocumentSegment | undefined;
  active: boolean;
  editor: ReactNode;
  save: SaveEntry | undefined;
  target: string;
  measure: (element: Element | null) => void;
  onActivate: (index: number) => void;
}

// A row re-renders only when what it shows changes: moving from one segment to the next redraws two rows.
const SegmentRow = memo(function SegmentRow(props: SegmentRowProps) {
  const { index, start, segment, active, editor, save, target, measure, onActivate } = props;
  const number = segment ? segment.position + 1 : undefined;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      data-index={index}
      ref={measure}
      className={`grid-row${active ? ' active' : ''}${segment ? ` status-${segment.status}` : ' placeholder'}`}
      style={{ transform: `translateY(${start}px)` }}
      onMouseDown={(e) => {
        // Text in the source stays selectable; anywhere else a click opens the row's editor.
        // The editor takes the focus itself: the browser's own focus change on mousedown would land on the
        // element the editor replaces, and leave the focus nowhere.
        if (!active && !(e.target as HTMLElement).closest('.source')) {
          e.preventDefault();
          onActivate(index);
        }
      }}
    >
      <div role="gridcell" className="cell num">
        {number ?? ''}
      </div>
      <div role="gridcell" className="cell source" lang={segment?.srclang} data-source-of={segment?.id}>
        {segment ? (
          <TaggedText text={segment.source} focusable={active} locatable={active} />
        ) : (
          <span className="skeleton" />
        )}
      </div>
      <div role="gridcell" className="cell target" lang={segment?.trglang}>
        {segment &&
          (active ? (
            editor
          ) : (
            <div
              role="textbox"
              aria-label={`Target ${number}`}
              aria-multiline="true"
              tabIndex={-1}
              className="target-text"
              onFocus={() => onActivate(index)}
            >
              <TaggedText text={target} />
            </div>
          ))}
      </div>
      <div role="gridcell" className="cell status">
        {segment && (
          <>
            <span className={`status-badge ${segment.status}`}>{STATUS_NAMES[segment.status]}</span>
            <SaveBadge entry={save} />
          </>
        )}
      </div>
      <div role="gridcell" className="cell score-col">
        {segment?.match_score != null && <ScoreBadge segment={segment} score={segment.match_score} />}
      </div>
    </div>
  );
});

export function SegmentGrid(props: SegmentGridProps) {
  const { total, rowAt, activeIndex, editor, saveOf, targetOf, onActivate, onVisiblePages, scrollRequest } =
    props;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => 44,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();

  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const pageList = `${Math.floor(first / PAGE_SIZE)}-${Math.floor(last / PAGE_SIZE)}`;
  useEffect(() => {
    const [a, b] = pageList.split('-').map(Number);
    const pages: number[] = [];
    for (let p = a; p <= b; p++) pages.push(p);
    onVisiblePages(pages);
  }, [pageList, onVisiblePages]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollRequest is the request to act on
  useLayoutEffect(() => {
    if (total > 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [scrollRequest, total]);

  const loaded = items.length > 0 && rowAt(first) !== undefined;
  const reported = useRef(false);
  useEffect(() => {
    if (loaded && !reported.current) {
      reported.current = true;
      props.onFirstRows();
    }
  });

  return (
    <div className="grid" role="grid" aria-label="Segments" aria-rowcount={total + 1} aria-colcount={5}>
      <div className="grid-head" role="rowgroup">
        <div className="grid-row head" role="row" aria-rowindex={1}>
          <div role="columnheader" className="cell num">
            №
          </div>
          <div role="columnheader" className="cell">
            Source
          </div>
          <div role="columnheader" className="cell">
            Target
          </div>
          <div role="columnheader" className="cell">
            Status
          </div>
          <div role="columnheader" className="cell score-col">
            Score
          </div>
        </div>
      </div>
      <div className="grid-scroll" role="rowgroup" ref={scroller}>
        <div className="grid-body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const segment = rowAt(item.index);
            return (
              <SegmentRow
                key={item.key}
                index={item.index}
                start={item.start}
                segment={segment}
                active={item.index === activeIndex}
                editor={item.index === activeIndex ? editor : null}
                save={segment && saveOf(segment.id)}
                target={segment ? targetOf(segment) : ''}
                measure={virtualizer.measureElement}
                onActivate={onActivate}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
