// Where one is in the document: the filter, the active row, the pages of the list to read, and the URL that
// says so (editor-url.ts) — read once when the page opens, written as one moves.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PAGE_SIZE } from '../segments/locate.ts';
import { isFiltered, type SegmentFilter, useSegmentList } from '../segments/segment-list.ts';
import { readUrl, writeUrl } from './editor-url.ts';

export type Position = ReturnType<typeof usePosition>;

export function usePosition(id: number) {
  const initial = useMemo(readUrl, []);
  const [filter, setFilter] = useState<SegmentFilter>(initial.filter);
  const unfiltered = !isFiltered(initial.filter);
  const [activeIndex, setActiveIndex] = useState(initial.seg !== null && unfiltered ? initial.seg - 1 : 0);
  const [firstPage, setFirstPage] = useState(Math.floor(activeIndex / PAGE_SIZE));
  const [visiblePages, setVisiblePages] = useState<number[]>([]);
  const [scrollRequest, setScrollRequest] = useState(0);
  const list = useSegmentList(id, filter, firstPage, visiblePages);
  const total = list.total ?? 0;
  const active = list.rowAt(activeIndex);

  /** Makes row `index` the active one and brings it into view. */
  const select = useCallback((index: number) => {
    setActiveIndex(index);
    setScrollRequest((n) => n + 1);
  }, []);

  /** Reads the page of row `index` first: a row far from the pages on screen. */
  const readPageOf = useCallback((index: number) => setFirstPage(Math.floor(index / PAGE_SIZE)), []);

  /** Another filter: the list starts again at its first row. */
  const applyFilter = useCallback((next: SegmentFilter) => {
    setFilter(next);
    setActiveIndex(0);
    setFirstPage(0);
    setScrollRequest((n) => n + 1);
  }, []);

  // A link to a segment of a filtered list: find where it is in the list once the list's length is known.
  const located = useRef(initial.seg === null || unfiltered);
  useEffect(() => {
    if (located.current || list.total === undefined) return;
    located.current = true;
    list.locate(list.total, initial.seg! - 1).then((index) => {
      setActiveIndex(index);
      setFirstPage(Math.floor(index / PAGE_SIZE));
      setScrollRequest((n) => n + 1);
    });
  }, [list, initial.seg]);

  useEffect(() => {
    if (located.current) writeUrl(id, active ? active.position + 1 : undefined, filter);
  }, [id, active, filter]);

  return {
    list,
    filter,
    total,
    active,
    activeIndex,
    scrollRequest,
    setVisiblePages,
    select,
    readPageOf,
    applyFilter,
  };
}
