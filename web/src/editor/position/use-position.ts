// Where one is in the document: the filter, the active row, the pages of the list to read, and the URL that
// says so (editor-url.ts) — read once when the page opens, written as one moves.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PAGE_SIZE } from '../segments/locate.ts';
import { isFiltered, type SegmentFilter, useSegmentList } from '../segments/segment-list.ts';
import { readUrl, writeUrl } from './editor-url.ts';

export type Position = ReturnType<typeof usePosition>;

/**
 * A request to bring the active row into view and the focus into its target: `third` puts the row at a fixed
 * height, a third down the list (keyboard moves, go to, links, filters), `nearest` scrolls only as far as needed to
 * show the whole row (a click: the row stays under the pointer), `none` does not scroll. `focus` is false when the
 * person is typing elsewhere (the search field) and the focus must stay there.
 */
export interface Navigation {
  align: 'third' | 'nearest' | 'none';
  focus: boolean;
}
const THIRD: Navigation = { align: 'third', focus: true };

export function usePosition(id: number) {
  const initial = useMemo(readUrl, []);
  const [filter, setFilter] = useState<SegmentFilter>(initial.filter);
  const unfiltered = !isFiltered(initial.filter);
  const [activeIndex, setActiveIndex] = useState(initial.seg !== null && unfiltered ? initial.seg - 1 : 0);
  const [firstPage, setFirstPage] = useState(Math.floor(activeIndex / PAGE_SIZE));
  const [visiblePages, setVisiblePages] = useState<number[]>([]);
  // A new object per request: the grid acts on each.
  const [navigation, setNavigation] = useState<Navigation>(() => ({ ...THIRD }));
  const list = useSegmentList(id, filter, firstPage, visiblePages);
  const total = list.total ?? 0;
  const active = list.rowAt(activeIndex);

  /** Makes row `index` the active one and brings it into view, the focus in its target. */
  const select = useCallback((index: number, how: Navigation = THIRD) => {
    setActiveIndex(index);
    setNavigation({ ...how });
  }, []);

  /** The focus back into the active target, where it stands (a dialog closed). */
  const refocus = useCallback(() => setNavigation({ align: 'none', focus: true }), []);

  /** Reads the page of row `index` first: a row far from the pages on screen. */
  const readPageOf = useCallback((index: number) => setFirstPage(Math.floor(index / PAGE_SIZE)), []);

  // A segment to find in the list once its length is known: a link to a segment of a filtered list, or a
  // segment asked for with another filter (the QA list). Its position, or null.
  const seek = useRef<number | null>(initial.seg !== null && !unfiltered ? initial.seg - 1 : null);

  /**
   * Another filter: the list starts again at its first row, or at segment `position` when one is asked for (the
   * focus left where it is, when asked).
   */
  const applyFilter = useCallback((next: SegmentFilter, focus = true, position?: number) => {
    setFilter(next);
    setActiveIndex(0);
    setFirstPage(0);
    seek.current = position ?? null;
    setNavigation({ align: 'third', focus });
  }, []);

  useEffect(() => {
    if (seek.current === null || list.total === undefined) return;
    const position = seek.current;
    seek.current = null;
    list.locate(list.total, position).then((index) => {
      setActiveIndex(index);
      setFirstPage(Math.floor(index / PAGE_SIZE));
      setNavigation({ ...THIRD });
    });
  }, [list]);

  useEffect(() => {
    if (seek.current === null) writeUrl(id, active ? active.position + 1 : undefined, filter);
  }, [id, active, filter]);

  return {
    list,
    filter,
    total,
    active,
    activeIndex,
    navigation,
    setVisiblePages,
    select,
    refocus,
    readPageOf,
    applyFilter,
  };
}
