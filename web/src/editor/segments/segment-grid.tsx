// The segment list as an ARIA grid (№, source, target, status, score), windowed: only the rows on screen and a
// few around them are in the DOM, whatever the document's length. The active row hosts the target editor;
// every other target is a textbox that becomes the editor when it gets focus.
import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { memo, type ReactNode, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { DocumentSegment } from '../../api/types.ts';
import { STATUS_NAMES } from '../../ui/format.ts';
import { filledFromContext, scoreClass, shownScore } from '../matches/context-match.ts';
import type { Navigation } from '../position/use-position.ts';
import type { Baseline } from '../review/review-mode.ts';
import { TrackedTarget } from '../review/tracked-changes.tsx';
import type { SaveEntry } from '../save/segment-saves.ts';
import { TaggedText } from '../tags/tagged-text.tsx';
import { SourceWithTerms } from '../terms/source-terms.tsx';
import { PAGE_SIZE } from './locate.ts';
import { placeRow } from './place-row.ts';

export interface SegmentGridProps {
  total: number;
  rowAt: (index: number) => DocumentSegment | undefined;
  activeIndex: number;
  /** The editor of the active row. */
  editor: ReactNode;
  saveOf: (id: number) => SaveEntry | undefined;
  targetOf: (segment: DocumentSegment) => string;
  onActivate: (index: number, how: Navigation) => void;
  /** Pages of the list that the rows on screen fall in. */
  onVisiblePages: (pages: number[]) => void;
  /** Asks the grid to bring the active row into view and the focus into its target (a new object each time). */
  navigation: Navigation;
  /** Puts the focus in the active target's editor; false while there is none. */
  focusActive: () => boolean;
  onFirstRows: () => void;
  /** The comment threads on a segment and how many are unresolved (none: undefined). */
  commentsOf?: (id: number) => { threads: number; open: number } | undefined;
  /** In review mode, each segment's translator's version (targets show tracked changes against it). */
  baselines?: ReadonlyMap<number, Baseline>;
}

/** A click or a Tab into a row: it is where the person is looking, so it stays where it is if it is all in view. */
const NEAREST: Navigation = { align: 'nearest', focus: true };

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
  const band = scoreClass(shown);
  return (
    <span
      className={`score small ${band}`}
      title={band === 'in-context' ? 'Context match: exact, in the same context' : undefined}
    >
      {shown}%
    </span>
  );
}

/**
 * A repetition: its source occurs `count` times in the project's documents (the server's mark); the first of
 * them says so. Confirming one fills the others (docs/EDITOR.md).
 */
function RepetitionMark({ mark }: { mark: NonNullable<DocumentSegment['repetition']> }) {
  const label = `Repetition (${mark.count} ×${mark.first ? ', first' : ''})`;
  return (
    <span
      role="img"
      className={`repetition-mark${mark.first ? ' first' : ''}`}
      aria-label={label}
      title={label}
    >
      {mark.count}×
    </span>
  );
}

/** Comment threads on the segment: the unresolved ones counted, a resolved-only segment marked quietly. */
function CommentMark({ threads, open }: { threads: number; open: number }) {
  const label =
    open > 0
      ? `${open} unresolved ${open === 1 ? 'comment' : 'comments'}`
      : `${threads} resolved ${threads === 1 ? 'comment' : 'comments'}`;
  return (
    <span role="img" className={`comment-mark${open > 0 ? ' open' : ''}`} aria-label={label} title={label}>
      <svg aria-hidden="true" viewBox="0 0 16 16" width="12" height="12">
        <path d="M2 2h12v9H6l-3 3v-3H2z" fill="currentColor" />
      </svg>
      {open > 0 ? open : ''}
    </span>
  );
}

interface SegmentRowProps {
  /** Comment threads on it, and the unresolved ones among them (numbers, so that the row's memo holds). */
  commentThreads: number;
  openThreads: number;
  index: number;
  start: number;
  segment: DocumentSegment | undefined;
  active: boolean;
  editor: ReactNode;
  save: SaveEntry | undefined;
  target: string;
  /** In review mode (undefined otherwise): the translator's version, or null when the segment has none. */
  baseline: Baseline | null | undefined;
  measure: (element: Element | null) => void;
  onActivate: (index: number, how: Navigation) => void;
}

// A row re-renders only when what it shows changes: moving from one segment to the next redraws two rows.
const SegmentRow = memo(function SegmentRow(props: SegmentRowProps) {
  const { index, start, segment, active, editor, save, target, baseline, measure, onActivate } = props;
  const { commentThreads, openThreads } = props;
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
          onActivate(index, NEAREST);
        }
      }}
    >
      <div role="gridcell" className="cell num">
        {number ?? ''}
      </div>
      <div role="gridcell" className="cell source" lang={segment?.srclang} data-source-of={segment?.id}>
        {segment ? <SourceWithTerms segment={segment} active={active} /> : <span className="skeleton" />}
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
              onFocus={() => onActivate(index, NEAREST)}
            >
              {baseline === undefined ? (
                <TaggedText text={target} />
              ) : (
                <TrackedTarget text={target} baseline={baseline ?? undefined} />
              )}
            </div>
          ))}
      </div>
      <div role="gridcell" className="cell status">
        {segment && (
          <>
            <span className={`status-badge ${segment.status}`}>{STATUS_NAMES[segment.status]}</span>
            {segment.repetition && <RepetitionMark mark={segment.repetition} />}
            {commentThreads > 0 && <CommentMark threads={commentThreads} open={openThreads} />}
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
  const {
    total,
    rowAt,
    activeIndex,
    editor,
    saveOf,
    targetOf,
    onActivate,
    onVisiblePages,
    navigation,
    baselines,
  } = props;
  const scroller = useRef<HTMLDivElement>(null);
  // The active row is always rendered, wherever the list is scrolled: its editor keeps the focus and what is
  // typed in it, and a move never waits for it to be drawn.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (activeIndex < range.count && !indexes.includes(activeIndex)) {
        indexes.push(activeIndex);
        indexes.sort((a, b) => a - b);
      }
      return indexes;
    },
    [activeIndex],
  );
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => 44,
    overscan: 6,
    rangeExtractor,
  });
  const items = virtualizer.getVirtualItems();

  // The pages the rendered rows fall in (the active row's among them, wherever it is).
  const pageList = [...new Set(items.map((item) => Math.floor(item.index / PAGE_SIZE)))].join(',');
  useEffect(() => {
    onVisiblePages(pageList === '' ? [] : pageList.split(',').map(Number));
  }, [pageList, onVisiblePages]);

  // After each navigation the active row is held in place — a third down the list, or just in view after a
  // click — as the rows around it are measured and the list grows under it, until the person scrolls the list
  // themselves. Each render re-checks it: a measured row re-renders the grid.
  const held = useRef<Navigation>(navigation);
  const focusWanted = useRef(navigation.focus);
  const lastNavigation = useRef(navigation);
  if (lastNavigation.current !== navigation) {
    lastNavigation.current = navigation;
    if (navigation.align !== 'none') held.current = navigation;
    focusWanted.current = navigation.focus;
  }
  useLayoutEffect(() => {
    const element = scroller.current;
    const align = held.current.align;
    if (!element || total === 0 || align === 'none') return;
    const item = virtualizer.measurementsCache[activeIndex];
    if (!item) return;
    const offset = placeRow(item, {
      top: element.scrollTop,
      height: element.clientHeight,
      total: virtualizer.getTotalSize(),
      align,
    });
    if (Math.abs(offset - element.scrollTop) > 1) virtualizer.scrollToOffset(offset);
  });
  // The person scrolls: the row is no longer held.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const release = () => {
      held.current = { align: 'none', focus: false };
    };
    const onPointerDown = (e: PointerEvent) => {
      if (e.target === element) release(); // the scroll bar
    };
    element.addEventListener('wheel', release, { passive: true });
    element.addEventListener('touchmove', release, { passive: true });
    element.addEventListener('pointerdown', onPointerDown);
    return () => {
      element.removeEventListener('wheel', release);
      element.removeEventListener('touchmove', release);
      element.removeEventListener('pointerdown', onPointerDown);
    };
  }, []);

  // The focus goes into the active target once it is there — after the pages arrive, the editor is made, a
  // dialog closes — unless the person has put it somewhere else meanwhile (the search field, a panel).
  useEffect(() => {
    const away = (e: FocusEvent) => {
      const grid = scroller.current;
      if (grid && e.target instanceof Node && !grid.contains(e.target)) focusWanted.current = false;
    };
    document.addEventListener('focusin', away);
    return () => document.removeEventListener('focusin', away);
  }, []);
  const { focusActive } = props;
  useEffect(() => {
    if (!focusWanted.current || document.querySelector('dialog[open]')) return;
    const row = scroller.current?.querySelector(`[data-index="${activeIndex}"]`);
    if (!row?.querySelector('.target-editor')) return;
    if (row.contains(document.activeElement) || focusActive()) focusWanted.current = false;
  });

  const first = items[0]?.index ?? 0;
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
            const comments = segment && props.commentsOf?.(segment.id);
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
                commentThreads={comments?.threads ?? 0}
                openThreads={comments?.open ?? 0}
                baseline={baselines && segment ? (baselines.get(segment.id) ?? null) : undefined}
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
